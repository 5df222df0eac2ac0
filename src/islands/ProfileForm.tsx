/**
 * The profile form: name, last name, gender and birth date, filled with the current values.
 * Server-rendered it posts to the `account.updateProfile` action and works without JavaScript;
 * hydrated, it checks each field with the server's schema, saves without a post and reloads the
 * profile with its notice, so the header shows the new name.
 */
import { useState, type SubmitEvent } from 'react';
import { actions, isInputError } from 'astro:actions';
import type { Locale } from '~/i18n/locales';
import { accountErrorText, accountErrorsFromFields, profileFormSchema, validate, GENDERS, PROFILE_FIELDS, type AccountErrors, type IdentityMessages, type ProfileField } from '~/lib/identity/account';
import type { FormErrorCode, FormMessages } from '~/lib/forms/forms';
import { described, Field, fieldIds, useCheckedForm } from './forms/form-kit';
import '~/styles/forms.css';

/** The texts the form shows. */
export type ProfileFormText = Pick<IdentityMessages, 'fields' | 'profile'> & { register: Pick<IdentityMessages['register'], 'choose' | 'genders'>; forms: FormMessages };

/** The inputs of the form (the birth date is three selects). */
export const PROFILE_INPUTS = ['name', 'lastName', 'gender', 'birthDay', 'birthMonth', 'birthYear'] as const;
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

const DAYS = Array.from({ length: 31 }, (_, i) => i + 1);
const BIRTH_INPUTS = new Set<string>(['birthDay', 'birthMonth', 'birthYear']);
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
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(initial.message);

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setMessage(null);
    if (!form.checkAll()) return;
    setBusy(true);
    try {
      const { error } = await actions.account.updateProfile(new FormData(event.currentTarget));
      if (!error) {
        location.assign(done);
        return;
      }
      if (isInputError(error) && form.showErrors(accountErrorsFromFields<ProfileField>(error.fields as Record<string, string[]>))) return;
      setMessage(error.message || t.forms.connection);
      form.focusOn(statusId);
    } catch {
      setMessage(t.forms.connection);
      form.focusOn(statusId);
    } finally {
      setBusy(false);
    }
  }

  const error = (f: ProfileField) => {
    const code = form.errors[f];
    return code ? accountErrorText(t, f, code) : undefined;
  };
  const text = (f: 'name' | 'lastName', autoComplete: string) => (
    <Field ids={ids(f)} label={t.fields[f]} error={error(f)}>
      <input id={ids(f).control} type="text" autoComplete={autoComplete} required {...form.control(f)} {...described(ids(f), false, error(f))} />
    </Field>
  );
  const birthError = error('birthDate');
  const birth = ids('birthDate');
  const select = (input: 'birthDay' | 'birthMonth' | 'birthYear', options: { value: string; label: string }[], autoComplete: string, placeholder: string) => (
    <div className="field">
      <label htmlFor={ids(input).control}>{t.fields[input]}</label>
      <select id={ids(input).control} data-field="birthDate" autoComplete={autoComplete} required {...form.control(input)} {...described(birth, false, birthError)}>
        <option value="">{placeholder}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );

  return (
    <form className="account-form" aria-label={t.profile.edit} method="post" action={action} noValidate onSubmit={submit} aria-busy={busy || undefined} data-enhanced={form.enhanced ? 'true' : undefined}>
      <input type="hidden" name="lang" value={locale} />
      <div id={statusId} className="form-status" role="alert" tabIndex={-1}>
        {message && <p className="form-status-error">{message}</p>}
      </div>
      <div className="field-row">
        {text('name', 'given-name')}
        {text('lastName', 'family-name')}
      </div>
      <Field ids={ids('gender')} label={t.fields.gender} error={error('gender')}>
        <select id={ids('gender').control} autoComplete="sex" required {...form.control('gender')} {...described(ids('gender'), false, error('gender'))}>
          <option value="">{t.register.choose}</option>
          {GENDERS.map((g) => (
            <option key={g} value={g}>
              {t.register.genders[g]}
            </option>
          ))}
        </select>
      </Field>
      <fieldset className="field-group">
        <legend>{t.fields.birthDate}</legend>
        <div className="field-row field-row-date">
          {select('birthDay', DAYS.map((d) => ({ value: String(d), label: String(d) })), 'bday-day', '—')}
          {select('birthMonth', months.map((m, i) => ({ value: String(i + 1), label: m })), 'bday-month', t.register.choose)}
          {select('birthYear', years.map((y) => ({ value: String(y), label: String(y) })), 'bday-year', '—')}
        </div>
        {birthError && (
          <p className="field-error" id={birth.error}>
            {birthError}
          </p>
        )}
      </fieldset>
      <button type="submit" className="button" disabled={busy}>
        {busy ? t.profile.saving : t.profile.save}
      </button>
    </form>
  );
}
