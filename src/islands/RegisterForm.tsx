/**
 * The registration form: name, last name, e-mail twice, gender, birth date, password
 * twice, and, when the server says an IBO invited or registered the person, the box that lets that IBO
 * see their progress (ticked only for a prospect the IBO registered). Server-rendered it posts to the `auth.register` action and works without JavaScript;
 * hydrated, it checks each field with the server's schema, creates the account without reloading,
 * keeps the header's copy of the user and goes on.
 */
import { actions } from 'astro:actions';
import type { Locale } from '~/i18n/locales';
import { format } from '~/i18n/format';
import {
  accountErrorText,
  accountErrorsFromFields,
  registerFormSchema,
  validate,
  REGISTER_FIELDS,
  type AccountErrors,
  type IdentityMessages,
  type RegisterField,
} from '~/lib/identity/account';
import type { FormErrorCode, FormMessages } from '~/lib/forms/forms';
import { syncIdentity } from '~/lib/stores/identity';
import { described, Field, fieldIds, FormStatus, useCheckedForm } from './forms/form-kit';
import { useSubmit } from './forms/useSubmit';
import { BIRTH_INPUTS, GenderAndBirthFields, NameFields } from './forms/PersonFields';
import '~/styles/forms.css';

/** The texts the form shows. */
export type RegisterFormText = Pick<IdentityMessages, 'fields' | 'register'> & { forms: FormMessages };

/** The inputs of the form (the birth date is three selects). */
export const REGISTER_INPUTS = ['name', 'lastName', 'email', 'confirmEmail', 'gender', 'birthDay', 'birthMonth', 'birthYear', 'password', 'confirmPassword'] as const;

/** What the server rendered after a post without JavaScript. */
export interface RegisterFormInitial {
  /** What was typed (never the passwords). */
  values: Partial<Record<(typeof REGISTER_INPUTS)[number], string>>;
  errors: AccountErrors<RegisterField>;
  /** A failure that is no field's (too many attempts). */
  message: string | null;
}

interface Props {
  locale: Locale;
  t: RegisterFormText;
  action: string;
  next?: string | undefined;
  /** The birth years offered (81, starting 18 years ago) and the month names, from the server. */
  years: number[];
  months: string[];
  /** Prefix of the element ids, so the form may appear twice on a page. */
  idPrefix?: string;
  initial: RegisterFormInitial;
  /**
   * The consent box, decided by the server (`signUpOffer`): the IBO's company and whether it starts
   * ticked; null or absent: no IBO involved, no box.
   */
  sharing?: { company: string; ticked: boolean } | null | undefined;
}


export default function RegisterForm({ locale, t, action, next, years, months, idPrefix = 'register', initial, sharing }: Props) {
  const ids = (field: string) => fieldIds(idPrefix, field);
  const statusId = `${idPrefix}-status`;
  const schema = registerFormSchema();
  const form = useCheckedForm<RegisterField, FormErrorCode>({
    order: REGISTER_FIELDS,
    initialValues: { ...Object.fromEntries(REGISTER_INPUTS.map((k) => [k, initial.values[k] ?? ''])), iboSharing: sharing?.ticked ? 'on' : '' },
    initialErrors: initial.errors,
    check: (v) => {
      const r = validate<typeof schema, RegisterField>(schema, v);
      return r.success ? {} : r.errors;
    },
    fieldOf: (input) => (BIRTH_INPUTS.has(input) ? 'birthDate' : (input as RegisterField)),
    idOf: (f) => (f === 'birthDate' ? ids('birthDay').control : ids(f).control),
  });
  const { busy, status, submit } = useSubmit({
    form,
    send: (data) => actions.auth.register(data),
    fieldErrors: (fields) => accountErrorsFromFields<RegisterField>(fields),
    conflict: { email: 'emailTaken' },
    statusId,
    connection: t.forms.connection,
    done: (data) => {
      syncIdentity({ kind: 'user', user: data.user });
      location.assign(data.next);
    },
    initial: initial.message ? { text: initial.message, ok: false } : null,
  });

  const error = (f: RegisterField) => {
    const code = form.errors[f];
    return code ? accountErrorText(t, f, code) : undefined;
  };
  const person = { ids, control: form.control, error, t };

  const email = (f: 'email' | 'confirmEmail') => (
    <Field ids={ids(f)} label={t.fields[f]} error={error(f)}>
      <input id={ids(f).control} type="email" autoComplete="email" inputMode="email" spellCheck={false} required {...form.control(f)} {...described(ids(f), false, error(f))} />
    </Field>
  );
  const password = (f: 'password' | 'confirmPassword') => (
    <Field ids={ids(f)} label={t.fields[f]} error={error(f)} hint={f === 'password' ? t.register.passwordHint : undefined}>
      <input id={ids(f).control} type="password" autoComplete="new-password" required {...form.control(f)} {...described(ids(f), f === 'password', error(f))} />
    </Field>
  );

  return (
    <form className="account-form" aria-label={t.register.title} method="post" action={action} noValidate onSubmit={submit} aria-busy={busy || undefined} data-enhanced={form.enhanced ? 'true' : undefined}>
      <input type="hidden" name="lang" value={locale} />
      {next && <input type="hidden" name="next" value={next} />}
      <FormStatus id={statusId} status={status} />
      <NameFields {...person} />
      <div className="field-row">
        {email('email')}
        {email('confirmEmail')}
      </div>
      <GenderAndBirthFields {...person} years={years} months={months} />
      <div className="field-row">
        {password('password')}
        {password('confirmPassword')}
      </div>
      {sharing && (
        <div className="field field-check">
          <input type="hidden" name="iboSharingOffered" value="1" />
          <input
            type="checkbox"
            id={ids('iboSharing').control}
            name="iboSharing"
            checked={form.values.iboSharing === 'on'}
            onChange={(e) => form.setValues({ ...form.values, iboSharing: e.currentTarget.checked ? 'on' : '' })}
            aria-describedby={ids('iboSharing').hint}
          />
          <label htmlFor={ids('iboSharing').control}>{format(t.register.iboSharing, { company: sharing.company })}</label>
          <p className="field-hint" id={ids('iboSharing').hint}>
            {t.register.iboSharingHint}
          </p>
        </div>
      )}
      <button type="submit" className="button" disabled={busy}>
        {busy ? t.register.submitting : t.register.submit}
      </button>
    </form>
  );
}
