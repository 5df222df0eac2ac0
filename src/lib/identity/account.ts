/**
 * The account forms' rules (login, registration, forgotten and new password), their error codes and
 * texts, and the small rules around them: where a login may send the browser next, which pages need
 * a logged-in user, the password-reset e-mail. Pure: no I/O, safe to bundle for the browser, so the
 * islands check each form with the very schema the server uses.
 *
 * Schema messages are error *codes* of the forms' one vocabulary (`required`, `tooLong` …);
 * `accountErrorText` turns a code into a sentence in the page's language ('Email field is required').
 */
import { z } from '../zod';
import { format, type Messages } from '~/i18n';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '~/i18n/locales';
import { firstErrors, formErrorText, formText, issuesOfFields, nameText, type FieldErrors, type FieldIssue, type FormErrorCode, type FormMessages } from '~/lib/forms/forms';
import { displayName } from '~/lib/forms/characters';
import type { MailMessage } from '~/lib/mail/mail';
import type { SessionSummary, StoredUser } from '~/lib/stores/identity';
import type { SessionInfo } from './session.server';
import { localePath, paths, safeNext, splitLocale } from '~/lib/paths';

/** The identity section of the message catalogue. */
export type IdentityMessages = Messages['identity'];

/** Longest values (name 32, email 60, password 32). */
export const ACCOUNT_LIMITS = { name: 32, lastName: 32, email: 60, confirmEmail: 60, password: 32, confirmPassword: 32, currentPassword: 32 } as const;
/** Shortest password (at least 6 characters at login; registration asks the same, or the account could never log in). */
export const PASSWORD_MIN = 6;
/** Registration offers 81 birth years, the first one 18 years ago. */
export const BIRTH_YEAR_COUNT = 81;
export const MIN_AGE_YEARS = 18;
/** How long a password-reset link works. */
export const RESET_TTL_MINUTES = 60;
/** The genders registration offers. */
export const GENDERS = ['female', 'male', 'other'] as const;
export type Gender = (typeof GENDERS)[number];

/** The fields of each form, in page order (the first one in error gets the focus). */
export const LOGIN_FIELDS = ['email', 'password'] as const;
export const REGISTER_FIELDS = ['name', 'lastName', 'email', 'confirmEmail', 'gender', 'birthDate', 'password', 'confirmPassword'] as const;
export const FORGOT_FIELDS = ['email'] as const;
export const RESET_FIELDS = ['password', 'confirmPassword'] as const;
/** Changing the password from the account's security page. */
export const CHANGE_PASSWORD_FIELDS = ['currentPassword', 'password', 'confirmPassword'] as const;
/** Changing the account's e-mail address (the current password proves it is the owner). */
export const CHANGE_EMAIL_FIELDS = ['email', 'currentPassword'] as const;

export type LoginField = (typeof LOGIN_FIELDS)[number];
export type RegisterField = (typeof REGISTER_FIELDS)[number];
export type ForgotField = (typeof FORGOT_FIELDS)[number];
export type ResetField = (typeof RESET_FIELDS)[number];
export type ChangePasswordField = (typeof CHANGE_PASSWORD_FIELDS)[number];
export type ChangeEmailField = (typeof CHANGE_EMAIL_FIELDS)[number];
/** Any field of any account form (each has a label in `identity.fields`). */
export type AccountField = LoginField | RegisterField | ForgotField | ResetField | ChangePasswordField | ChangeEmailField | ProfileField;

/** The first error of each field that has one. */
export type AccountErrors<F extends AccountField = AccountField> = FieldErrors<F, FormErrorCode>;

/* ───────────── building blocks ───────────── */

/**
 * A form value: a missing or empty one (Astro hands a form's empty field over as `null`) reads as
 * '', so it fails its own rule as `required` and the rules between fields (matching e-mails …)
 * still run and are reported in the same answer.
 */
const given = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === null || v === undefined ? '' : v), schema);

/** A required name: no control or format characters, trimmed, inner runs of spaces folded to one. */
const line = (max: number) =>
  given(
    nameText({ error: 'required' })
      .trim()
      .overwrite((v) => v.replace(/\s+/g, ' '))
      .min(1, 'required')
      .max(max, 'tooLong'),
  );

/** A required e-mail address of at most 60 characters, trimmed. */
const email = given(
  formText({ error: 'required' })
    .trim()
    .min(1, 'required')
    .max(ACCOUNT_LIMITS.email, 'tooLong')
    .regex(z.regexes.email, 'invalidEmail'),
);

/** A required password of 6 to 32 characters, without control characters. Never trimmed: every character counts. */
const password = given(
  formText({ error: 'required' })
    .min(1, 'required')
    .min(PASSWORD_MIN, 'tooShort')
    .max(ACCOUNT_LIMITS.password, 'tooLong'),
);

/** The confirmation of a password: required, at most 32; whether it matches is checked on the whole form. */
const confirmation = given(formText({ error: 'required' }).min(1, 'required').max(ACCOUNT_LIMITS.confirmPassword, 'tooLong'));

/** A choice from a select, sent as digits; `allowed` says which numbers are offered. */
const numberChoice = (allowed: (n: number) => boolean) =>
  given(
    z
      .string({ error: 'required' })
      .trim()
      .min(1, 'required')
      .regex(/^\d{1,4}$/, 'invalidOption')
      .transform(Number)
      .refine(allowed, 'invalidOption'),
  );

/** The page's language, sent as a hidden field; anything else reads as the default language. */
const lang = z.enum(LOCALES).catch(DEFAULT_LOCALE);
/** Where to go afterwards, sent as a hidden field; checked by `afterLogin` before use. */
const next = z.string().max(2048).optional().catch(undefined);

/* ───────────── the forms ───────────── */

/** Checks between fields run even when a field failed (zod skips them after an invalid choice otherwise). */
const ALWAYS = { when: () => true };

/** Login: email required and valid, password required with at least 6 characters. */
export const loginFormSchema = z.object({ email, password, lang, next });
/** The current password asked again before something serious (deleting the account): required, at most 32. */
export const currentPasswordSchema = z.object({ password: confirmation, lang });
/** Only the page's language (an action with nothing else to send). */
export const langOnlySchema = z.object({ lang });
export type LoginForm = z.output<typeof loginFormSchema>;

/** The birth years registration offers: 81 of them, newest first, starting 18 years before `now`. */
export function birthYearOptions(now = new Date()): number[] {
  const first = now.getFullYear() - MIN_AGE_YEARS;
  return Array.from({ length: BIRTH_YEAR_COUNT }, (_, i) => first - i);
}

/** The names of the twelve months in `locale` (January first), for the birth-date select. */
export function monthNames(locale: Locale): string[] {
  const name = new Intl.DateTimeFormat(locale, { month: 'long', timeZone: 'UTC' });
  return Array.from({ length: 12 }, (_, i) => {
    const m = name.format(new Date(Date.UTC(2000, i, 1)));
    return m.charAt(0).toLocaleUpperCase(locale) + m.slice(1);
  });
}

/** True when day, month and year name a real calendar day (no 31 April, 29 February only in leap years). */
export function isRealDate(year: number, month: number, day: number): boolean {
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

/** E-mail addresses compare without case or surrounding spaces. */
export function sameEmail(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/**
 * Registration: name and last name (max 32), e-mail and its confirmation (valid, max
 * 60, equal), gender, birth date (day, month and one of the offered years), password and its
 * confirmation (6 to 32, equal). `now` fixes which birth years are offered (unset: the day of each check).
 */
export function registerFormSchema(now?: Date) {
  const isOffered = (year: number) => birthYearOptions(now ?? new Date()).includes(year);
  return z
    .object({
      name: line(ACCOUNT_LIMITS.name),
      lastName: line(ACCOUNT_LIMITS.lastName),
      email,
      confirmEmail: email,
      gender: given(z.enum(GENDERS, { error: (issue) => (issue.input === '' ? 'required' : 'invalidOption') })),
      birthDay: numberChoice((n) => n >= 1 && n <= 31),
      birthMonth: numberChoice((n) => n >= 1 && n <= 12),
      birthYear: numberChoice(isOffered),
      password,
      confirmPassword: confirmation,
      lang,
      next,
      /**
       * The box "let the IBO who invited me see my progress" (`consent.ts`): ticked when posted as `on`;
       * `iboSharingOffered` (`1`): the form showed it. Anything else reads as unticked and not shown: the
       * server decides whether an IBO is involved, so a forged box stores nothing.
       */
      iboSharing: z.unknown().optional().transform((v) => v === 'on'),
      iboSharingOffered: z.unknown().optional().transform((v) => v === '1'),
    })
    .superRefine((form, ctx) => {
      // This runs when fields failed too (`ALWAYS`), so look only at values that are well formed.
      const text = (v: unknown): v is string => typeof v === 'string' && v !== '';
      if (text(form.email) && text(form.confirmEmail) && !sameEmail(form.email, form.confirmEmail)) {
        ctx.addIssue({ code: 'custom', path: ['confirmEmail'], message: 'emailMismatch', input: form.confirmEmail });
      }
      if (text(form.password) && text(form.confirmPassword) && form.password !== form.confirmPassword) {
        ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: 'passwordMismatch', input: form.confirmPassword });
      }
      const [y, m, d] = [form.birthYear, form.birthMonth, form.birthDay];
      if (typeof y === 'number' && typeof m === 'number' && typeof d === 'number' && isOffered(y) && !isRealDate(y, m, d)) {
        ctx.addIssue({ code: 'custom', path: ['birthDate'], message: 'invalidDate', input: `${y}-${m}-${d}` });
      }
    }, ALWAYS);
}
export type RegisterForm = z.output<ReturnType<typeof registerFormSchema>>;
/** Registration as the server checks it: the birth years of the day of each sign-up. */
export const registerSchema = registerFormSchema();

/** The birth date of a valid registration as an ISO date (`1990-04-07`). */
export function birthDateOf(form: Pick<RegisterForm, 'birthYear' | 'birthMonth' | 'birthDay'>): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${String(form.birthYear).padStart(4, '0')}-${pad(form.birthMonth)}-${pad(form.birthDay)}`;
}

/** The fields of the profile form, in page order. */
export const PROFILE_FIELDS = ['name', 'lastName', 'gender', 'birthDate', 'language'] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];

/**
 * The profile form: name and last name (the certificate's name), gender, birth date and preferred language, under the
 * very rules of registration. `now` fixes which birth years are offered (unset: the day of each check).
 */
export function profileFormSchema(now?: Date) {
  const isOffered = (year: number) => birthYearOptions(now ?? new Date()).includes(year);
  return z
    .object({
      name: line(ACCOUNT_LIMITS.name),
      lastName: line(ACCOUNT_LIMITS.lastName),
      gender: given(z.enum(GENDERS, { error: (issue) => (issue.input === '' ? 'required' : 'invalidOption') })),
      birthDay: numberChoice((n) => n >= 1 && n <= 31),
      birthMonth: numberChoice((n) => n >= 1 && n <= 12),
      birthYear: numberChoice(isOffered),
      /** The preferred language: the mails we send and the site after login. */
      language: given(z.enum(LOCALES, { error: (issue) => (issue.input === '' ? 'required' : 'invalidOption') })),
      lang,
    })
    .superRefine((form, ctx) => {
      const [y, m, d] = [form.birthYear, form.birthMonth, form.birthDay];
      if (typeof y === 'number' && typeof m === 'number' && typeof d === 'number' && isOffered(y) && !isRealDate(y, m, d)) {
        ctx.addIssue({ code: 'custom', path: ['birthDate'], message: 'invalidDate', input: `${y}-${m}-${d}` });
      }
    }, ALWAYS);
}
export type ProfileForm = z.output<ReturnType<typeof profileFormSchema>>;
/** The profile form as the server checks it. */
export const profileSchema = profileFormSchema();

/** Asking for a password-reset link: the account's e-mail. */
export const forgotFormSchema = z.object({ email, lang });
export type ForgotForm = z.output<typeof forgotFormSchema>;

/** The longest token a reset link carries (ours are 43 characters). */
export const MAX_TOKEN_LENGTH = 100;

/** Choosing a new password: the link's token, the password and its confirmation. */
export const resetFormSchema = z
  .object({
    token: given(formText({ error: 'required' }).trim().min(1, 'required').max(MAX_TOKEN_LENGTH, 'tooLong')),
    password,
    confirmPassword: confirmation,
    lang,
  })
  .superRefine((form, ctx) => {
    if (typeof form.password === 'string' && typeof form.confirmPassword === 'string' && form.confirmPassword !== '' && form.password !== form.confirmPassword) {
      ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: 'passwordMismatch', input: form.confirmPassword });
    }
  }, ALWAYS);
export type ResetForm = z.output<typeof resetFormSchema>;

/** The current password, as typed (checked against the stored one, never against the rules of a new one). */
const currentPassword = given(formText({ error: 'required' }).min(1, 'required').max(ACCOUNT_LIMITS.currentPassword, 'tooLong'));

/** Changing the password: the current one, then the new one (the registration's rules) twice. */
export const changePasswordSchema = z
  .object({ currentPassword, password, confirmPassword: confirmation, lang })
  .superRefine((form, ctx) => {
    if (typeof form.password === 'string' && typeof form.confirmPassword === 'string' && form.confirmPassword !== '' && form.password !== form.confirmPassword) {
      ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: 'passwordMismatch', input: form.confirmPassword });
    }
  }, ALWAYS);
export type ChangePasswordForm = z.output<typeof changePasswordSchema>;

/** Changing the e-mail address: the new address (the registration's rules) and the current password. */
export const changeEmailSchema = z.object({ email, currentPassword, lang });
export type ChangeEmailForm = z.output<typeof changeEmailSchema>;

/* ───────────── errors ───────────── */

const FIELD_OF_KEY: Record<string, AccountField> = {
  email: 'email',
  password: 'password',
  name: 'name',
  lastName: 'lastName',
  confirmEmail: 'confirmEmail',
  gender: 'gender',
  birthDate: 'birthDate',
  // The three selects of the birth date report as one field.
  birthDay: 'birthDate',
  birthMonth: 'birthDate',
  birthYear: 'birthDate',
  confirmPassword: 'confirmPassword',
  currentPassword: 'currentPassword',
  language: 'language',
};

/** The first error code of each field, from zod issues. */
export function accountErrorsFromIssues<F extends AccountField = AccountField>(issues: readonly FieldIssue[]): AccountErrors<F> {
  return firstErrors<AccountField>(issues, (key) => (typeof key === 'string' && Object.hasOwn(FIELD_OF_KEY, key) ? FIELD_OF_KEY[key] : undefined)) as AccountErrors<F>;
}

/** The same, from the `{ field: [code, …] }` map an Astro input error carries. */
export function accountErrorsFromFields<F extends AccountField = AccountField>(fields: Record<string, readonly string[] | undefined>): AccountErrors<F> {
  return accountErrorsFromIssues<F>(issuesOfFields(fields));
}

/** Validates values with a schema; the result carries the clean form or the error of each field. */
export function validate<S extends z.ZodType, F extends AccountField>(
  schema: S,
  input: unknown,
): { success: true; data: z.output<S> } | { success: false; errors: AccountErrors<F> } {
  const parsed = schema.safeParse(input);
  return parsed.success ? { success: true, data: parsed.data } : { success: false, errors: accountErrorsFromIssues<F>(parsed.error.issues) };
}

/** The sentence for an error code in the catalogue's language ('Email field is required' …). */
export function accountErrorText(t: { fields: IdentityMessages['fields']; forms: FormMessages }, field: AccountField, code: FormErrorCode): string {
  return formErrorText(t.forms.errors, code, {
    field: t.fields[field],
    max: field in ACCOUNT_LIMITS ? ACCOUNT_LIMITS[field as keyof typeof ACCOUNT_LIMITS] : undefined,
    min: PASSWORD_MIN,
  });
}

/** Whole minutes (at least 1) in a number of seconds, for 'wait N minutes'. */
export function minutesFrom(seconds: number): number {
  return Math.max(1, Math.ceil(seconds / 60));
}

/** The language of a mail to a person: the one they chose in their profile, else the page's they acted from. */
export function mailLocale(preferred: string | null | undefined, page: Locale): Locale {
  return preferred === 'es' || preferred === 'en' ? preferred : page;
}

/* ───────────── navigation ───────────── */

/** Pages that need a logged-in user: a visitor without one is sent to the login page. */
export const PROTECTED_PATHS: readonly string[] = ['/admin', '/second-factor', paths.myLearning, paths.myShopping, paths.profile, paths.myData, '/myshopping-detail', paths.purchaseDetail, '/course-exam', '/course-result', '/course-generate', '/course-certificate', '/book-download'];

/** True when a locale-free path is a protected page or lies under one. */
export function isProtectedPath(path: string): boolean {
  return PROTECTED_PATHS.some((p) => path === p || path.startsWith(`${p}/`));
}

/** The page a reset link opens (`paths.resetPassword(token)` without its token). */
export const RESET_PAGE = '/reset-password';

/** Pages a login must never send the browser back to (it would land on a form again). */
const NOT_AFTER_LOGIN = new Set<string>([paths.login, paths.register, paths.forgotPassword, RESET_PAGE]);

/**
 * Where to go after logging in or signing up: `next` when `safeNext` allows it (a path of this site,
 * never another origin) and it is neither an account form nor an action URL, otherwise `fallback`.
 */
export function afterLogin(next: unknown, fallback: string): string {
  // Control characters (a line break in a path) never belong in an address to go to.
  const clean = typeof next === 'string' && ![...next].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f);
  const path = clean ? safeNext(next) : null;
  if (path === null) return fallback;
  const url = new URL(path, 'http://academy.invalid');
  if (url.searchParams.has('_action') || NOT_AFTER_LOGIN.has(splitLocale(url.pathname).path)) return fallback;
  return path;
}

/**
 * `target` (a path of this site, with its query) in the language the person chose in their profile:
 * after logging in they land in their language. Unchanged when they chose none.
 */
export function inPreferredLanguage(target: string, preferred: string | null | undefined): string {
  if (preferred !== 'es' && preferred !== 'en') return target;
  const url = new URL(target, 'http://academy.invalid');
  return localePath(preferred, splitLocale(url.pathname).path) + url.search + url.hash;
}

/** The login page in `locale`, remembering where to come back to. */
export function loginUrl(locale: Locale, next?: string, notice?: 'passwordChanged'): string {
  const query = new URLSearchParams();
  if (next) query.set('next', next);
  if (notice) query.set('notice', notice);
  const q = query.toString();
  return `${localePath(locale, paths.login)}${q ? `?${q}` : ''}`;
}

/* ───────────── the browser's copy of the user ───────────── */

/**
 * The non-secret facts about a user that the header shows (the browser keeps them in `$user`). The
 * names are shown without format characters, which a name stored before they were refused may hold.
 */
export function storedUser(user: { firstName: string; lastName: string; email: string; imageUrl: string | null; userType: number }): StoredUser {
  return { name: displayName(user.firstName), lastName: displayName(user.lastName), email: user.email, imageUrl: user.imageUrl, userType: user.userType };
}

/** What the browser may know of a server session (user, or IBO and prospect), or that there is none. */
export function sessionSummary(session: SessionInfo | null): SessionSummary {
  // An address not confirmed yet is part of the summary: the page's personal parts (the banner) differ.
  if (session?.user) {
    // A staff account's menu links the back office, an IBO owner's their business (the personal parts differ).
    return {
      kind: 'user',
      user: storedUser(session.user),
      ...(session.user.emailVerified === false ? { unconfirmed: true as const } : {}),
      ...(session.staff ? { staff: true as const } : {}),
      ...(session.ownIbo ? { business: true as const } : {}),
    };
  }
  if (session?.ibo) {
    const { companyName, code, imageUrl } = session.ibo;
    return { kind: 'ibo', ibo: { companyName: displayName(companyName), code, imageUrl }, contact: session.prospect };
  }
  return { kind: 'none' };
}

/* ───────────── the reset e-mail ───────────── */

/** The password-reset e-mail, in the language of `t`. Plain text: the link is the only thing to click. */
export function passwordResetMail(to: { name: string; email: string }, link: string, t: IdentityMessages['reset']['mail']): MailMessage {
  const text = [
    format(t.greeting, { name: to.name }),
    '',
    t.intro,
    '',
    link,
    '',
    format(t.expires, { minutes: RESET_TTL_MINUTES }),
    t.ignore,
    '',
  ].join('\n');
  return { to: to.email, subject: t.subject, text };
}
