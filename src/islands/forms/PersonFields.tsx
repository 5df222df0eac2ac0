/**
 * The fields that describe a person, shared by registration and the profile: first and last name,
 * gender, and the birth date as three selects (day, month, year) reported as one field. Each form keeps
 * its own state through the form kit and passes its controls and errors in.
 */
import type { ChangeEvent, FocusEvent } from 'react';
import { GENDERS, type IdentityMessages } from '~/lib/identity/account';
import { described, Field, type fieldIds } from './form-kit';

/** The texts these fields show. */
export type PersonFieldsText = Pick<IdentityMessages, 'fields'> & { register: Pick<IdentityMessages['register'], 'choose' | 'genders'> };

/** The form's inputs for the three birth-date selects: their errors are the one field `birthDate`. */
export const BIRTH_INPUTS: ReadonlySet<string> = new Set(['birthDay', 'birthMonth', 'birthYear']);

const DAYS = Array.from({ length: 31 }, (_, i) => i + 1);

type Person = 'name' | 'lastName' | 'gender' | 'birthDate';

interface Shared {
  ids: (field: string) => ReturnType<typeof fieldIds>;
  /** The form kit's props for the control named `name`. */
  control: (name: string) => {
    name: string;
    value: string;
    ref: (element: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement | null) => void;
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) => void;
    onBlur: (event: FocusEvent<HTMLElement>) => void;
  };
  /** The sentence of a field's error, if it has one. */
  error: (field: Person) => string | undefined;
  t: PersonFieldsText;
}

/** First and last name side by side. */
export function NameFields({ ids, control, error, t }: Shared) {
  const text = (f: 'name' | 'lastName', autoComplete: string) => (
    <Field ids={ids(f)} label={t.fields[f]} error={error(f)}>
      <input id={ids(f).control} type="text" autoComplete={autoComplete} required {...control(f)} {...described(ids(f), false, error(f))} />
    </Field>
  );
  return (
    <div className="field-row">
      {text('name', 'given-name')}
      {text('lastName', 'family-name')}
    </div>
  );
}

/** Gender, then the birth date (the birth years offered and the month names come from the server). */
export function GenderAndBirthFields({ ids, control, error, t, years, months }: Shared & { years: number[]; months: string[] }) {
  const birthError = error('birthDate');
  const birth = ids('birthDate');
  const select = (input: 'birthDay' | 'birthMonth' | 'birthYear', options: { value: string; label: string }[], autoComplete: string, placeholder: string) => (
    <div className="field">
      <label htmlFor={ids(input).control}>{t.fields[input]}</label>
      <select id={ids(input).control} data-field="birthDate" autoComplete={autoComplete} required {...control(input)} {...described(birth, false, birthError)}>
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
    <>
      <Field ids={ids('gender')} label={t.fields.gender} error={error('gender')}>
        <select id={ids('gender').control} autoComplete="sex" required {...control('gender')} {...described(ids('gender'), false, error('gender'))}>
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
          {/* Day and year are narrow: a dash says "nothing chosen" where "Choose…" would not fit. */}
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
    </>
  );
}
