/**
 * The profile form: name, last name, gender and birth date, filled with the current values.
 * Server-rendered it posts to the `account.updateProfile` action and works without JavaScript;
 * hydrated, it checks each field with the server's schema, saves without a post and reloads the
 * profile with its notice, so the header shows the new name.
 */
import { actions } from 'astro:actions';
import type { Locale } from '~/i18n/locales';
import { accountErrorText, accountErrorsFromFields, profileFormSchema, validate, PROFILE_FIELDS, type AccountErrors, type IdentityMessages, type ProfileField } from '~/lib/identity/account';
import type { FormErrorCode, FormMessages } from '~/lib/forms/forms';
import { described, Field, fieldIds, FormStatus, useCheckedForm } from './forms/form-kit';
import { useSubmit } from './forms/useSubmit';
import { LOCALES } from '~/i18n/locales';
import { BIRTH_INPUTS, GenderAndBirthFields, NameFields } from './forms/PersonFields';
import '~/styles/forms.css';

/** The texts the form shows. */
export type ProfileFormText = Pick<IdentityMessages, 'fields' | 'profile'> & { register: Pick<IdentityMessages['register'], 'choose' | 'genders'>; forms: FormMessages };

/** The inputs of the form (the birth date is three selects). */
export const PROFILE_INPUTS = ['name', 'lastName', 'gender', 'birthDay', 'birthMonth', 'birthYear', 'language'] as const;
export type ProfileValues = Partial<Record<(typeof PROFILE_INPUTS)[number], string>>;

interface Props {
  locale: Locale;
  t: ProfileFormText;
  /** Where the form posts without JavaScript. */
  action: string;
  /** Where to go after saving with JavaScript (the profile with its notice). */
  done: string;
  years: number[];
  months: string[];
  initial: { values: ProfileValues; errors: AccountErrors<ProfileField>; message: string | null };
}

const PREFIX = 'profile';

export default function ProfileForm({ locale, t, action, done, years, months, initial }: Props) {
  const ids = (field: string) => fieldIds(PREFIX, field);
  const statusId = `${PREFIX}-status`;
  const schema = profileFormSchema();
  const form = useCheckedForm<ProfileField, FormErrorCode>({
    order: PROFILE_FIELDS,
    initialValues: Object.fromEntries(PROFILE_INPUTS.map((k) => [k, initial.values[k] ?? ''])),
    initialErrors: initial.errors,
    check: (v) => {
      const r = validate<typeof schema, ProfileField>(schema, v);
      return r.success ? {} : r.errors;
    },
    fieldOf: (input) => (BIRTH_INPUTS.has(input) ? 'birthDate' : (input as ProfileField)),
    idOf: (f) => (f === 'birthDate' ? ids('birthDay').control : ids(f).control),
  });
  const { busy, status, submit } = useSubmit({
    form,
    send: (data) => actions.account.updateProfile(data),
    fieldErrors: (fields) => accountErrorsFromFields<ProfileField>(fields),
    statusId,
    connection: t.forms.connection,
    done: () => location.assign(done),
    initial: initial.message ? { text: initial.message, ok: false } : null,
  });

  const error = (f: ProfileField) => {
    const code = form.errors[f];
    return code ? accountErrorText(t, f, code) : undefined;
  };
  const person = { ids, control: form.control, error, t };

  return (
    <form className="account-form" aria-label={t.profile.edit} method="post" action={action} noValidate onSubmit={submit} aria-busy={busy || undefined} data-enhanced={form.enhanced ? 'true' : undefined}>
      <input type="hidden" name="lang" value={locale} />
      <FormStatus id={statusId} status={status} />
      <NameFields {...person} />
      <GenderAndBirthFields {...person} years={years} months={months} />
      <Field ids={ids('language')} label={t.fields.language} hint={t.profile.languageHint} error={error('language')}>
        <select id={ids('language').control} required {...form.control('language')} {...described(ids('language'), true, error('language'))}>
          {LOCALES.map((l) => (
            <option key={l} value={l} lang={l}>
              {t.profile.languages[l]}
            </option>
          ))}
        </select>
      </Field>
      <button type="submit" className="button" disabled={busy}>
        {busy ? t.profile.saving : t.profile.save}
      </button>
    </form>
  );
}
