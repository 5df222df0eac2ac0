/**
 * The contact form. Server-rendered, it is a plain HTML form posting to the `contact.send` action,
 * so it works without JavaScript. Hydrated, it checks each field on blur and on submit with the same
 * schema the server uses, sends through the action without reloading, and moves the focus to the
 * first field in error or to the outcome message (an `aria-live` region).
 */
import { useEffect, useRef, useState, type ChangeEvent, type FocusEvent, type SubmitEvent, type ReactNode } from 'react';
import { actions, isInputError } from 'astro:actions';
import type { Locale } from '~/i18n';
import { typedBeforeHydration } from './forms/form-kit';
// The pure rules only (not `~/lib/contact`, whose index also exports database code).
import {
  contactErrorText,
  contactErrorsFromFields,
  dialCodeOf,
  emptyContactValues,
  firstInvalidField,
  validateContactForm,
  DIAL_CODES,
  TOO_MANY_STATUS,
  type ContactErrors,
  type ContactField,
  type ContactFormState,
  type ContactFormText,
  type ContactFormValues,
  type ContactStatus,
} from '~/lib/contact/contact';
import '~/styles/forms.css';

interface Props {
  /** Where the form posts without JavaScript (the action's query string, plus a fragment). */
  action: string;
  locale: Locale;
  t: ContactFormText;
  types: { id: number; name: string }[];
  countries: { code: string; name: string }[];
  privacyHref: string;
  /** The state the server rendered (after a post without JavaScript, its outcome). */
  initial: ContactFormState;
}

const id = (field: ContactField) => `contact-${field}`;
const errorId = (field: ContactField) => `contact-${field}-error`;
const STATUS_ID = 'contact-status';

export default function ContactForm({ action, locale, t, types, countries, privacyHref, initial }: Props) {
  const [values, setValues] = useState<ContactFormValues>(initial.values);
  const [errors, setErrors] = useState<ContactErrors>(initial.errors);
  const [status, setStatus] = useState<ContactStatus>(initial.status);
  const [sending, setSending] = useState(false);
  const [enhanced, setEnhanced] = useState(false);
  // Fields the visitor has left once: from then on they are checked as they change.
  const touched = useRef(new Set<ContactField>(Object.keys(initial.errors) as ContactField[]));
  const [focus, setFocus] = useState<{ target: string; n: number } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    const form = formRef.current;
    if (form) {
      const typed = typedBeforeHydration(Object.keys(initial.values).map((name) => [name, form.elements.namedItem(name)] as const), initial.values);
      if (Object.keys(typed).length > 0) setValues((v) => ({ ...v, ...typed }));
    }
    setEnhanced(true);
  }, []);
  useEffect(() => {
    if (focus) document.getElementById(focus.target)?.focus();
  }, [focus]);
  const focusOn = (target: string) => setFocus((f) => ({ target, n: (f?.n ?? 0) + 1 }));

  /** The error of one field for some values (the whole form is checked: rules are per field). */
  const check = (field: ContactField, v: ContactFormValues) => {
    const result = validateContactForm({ ...v, language: locale });
    return result.success ? undefined : result.errors[field];
  };

  const setError = (field: ContactField, v: ContactFormValues) => setErrors((e) => ({ ...e, [field]: check(field, v) }));

  const change = (field: ContactField) => (event: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) => {
    const target = event.currentTarget;
    const next: ContactFormValues = {
      ...values,
      [field]: target instanceof HTMLInputElement && target.type === 'checkbox' ? target.checked : target.value,
    };
    // Choosing a country proposes its dialling code.
    if (field === 'countryCode') next.countryPhoneCode = dialCodeOf(target.value) ?? next.countryPhoneCode;
    setValues(next);
    if (status !== 'idle') setStatus('idle');
    if (touched.current.has(field) || field === 'accepts') setError(field, next);
  };

  const blur = (field: ContactField) => (event: FocusEvent<HTMLElement>) => {
    touched.current.add(field);
    // Leaving for the submit button: the submit checks everything. A message shown now would move
    // the button away from under the pointer before the click completes.
    const next = event.relatedTarget;
    if (next instanceof HTMLButtonElement && next.type === 'submit' && next.form === formRef.current) return;
    setError(field, values);
  };

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    for (const f of Object.keys(values) as ContactField[]) touched.current.add(f);
    const result = validateContactForm({ ...values, language: locale });
    if (!result.success) {
      setErrors(result.errors);
      setStatus('idle');
      focusOn(id(firstInvalidField(result.errors)!));
      return;
    }
    setErrors({});
    setStatus('idle');
    setSending(true);
    try {
      const { error } = await actions.contact.send(new FormData(formRef.current!));
      if (!error) {
        setValues(emptyContactValues());
        touched.current.clear();
        setStatus('sent');
        focusOn(STATUS_ID);
        return;
      }
      const fieldErrors = isInputError(error) ? contactErrorsFromFields(error.fields as Record<string, string[]>) : {};
      const first = firstInvalidField(fieldErrors);
      if (first) {
        setErrors(fieldErrors);
        focusOn(id(first));
      } else {
        setStatus(error.status === TOO_MANY_STATUS ? 'tooMany' : 'failed');
        focusOn(STATUS_ID);
      }
    } catch {
      setStatus('failed');
      focusOn(STATUS_ID);
    } finally {
      setSending(false);
    }
  }

  /** The props every control shares: name, value, handlers and its ARIA links to hint and error. */
  const control = (field: Exclude<ContactField, 'accepts'>, hint?: string) => ({
    id: id(field),
    name: field,
    value: values[field],
    onChange: change(field),
    onBlur: blur(field),
    required: true,
    'aria-invalid': errors[field] ? (true as const) : undefined,
    'aria-describedby': [hint, errors[field] ? errorId(field) : undefined].filter(Boolean).join(' ') || undefined,
  });

  const message = (field: ContactField) => {
    const code = errors[field];
    return code ? (
      <p className="field-error" id={errorId(field)}>
        {contactErrorText(t, field, code)}
      </p>
    ) : null;
  };

  const field = (name: ContactField, children: ReactNode, className = '') => (
    <div className={`field ${className}`.trim()}>
      <label htmlFor={id(name)}>{t.fields[name]}</label>
      {children}
      {message(name)}
    </div>
  );

  const [beforePolicy, afterPolicy] = t.accept.split('{policy}');

  return (
    <form
      ref={formRef}
      className="contact-form"
      method="post"
      action={action}
      noValidate
      onSubmit={submit}
      aria-busy={sending || undefined}
      data-enhanced={enhanced ? 'true' : undefined}
    >
      <input type="hidden" name="language" value={locale} />
      <p className="form-note">{t.requiredNote}</p>
      <div id={STATUS_ID} className="form-status" role="status" aria-live="polite" tabIndex={-1}>
        {status === 'sent' && <p className="form-status-ok">{t.sent}</p>}
        {status === 'failed' && <p className="form-status-error">{t.sendFailed}</p>}
        {status === 'tooMany' && <p className="form-status-error">{t.tooMany}</p>}
      </div>

      <div className="field-row">
        {field('name', <input type="text" autoComplete="given-name" {...control('name')} />)}
        {field('lastName', <input type="text" autoComplete="family-name" {...control('lastName')} />)}
      </div>
      <div className="field-row">
        {field('email', <input type="email" autoComplete="email" inputMode="email" spellCheck={false} {...control('email')} />)}
        {field(
          'countryCode',
          <select autoComplete="country" {...control('countryCode')}>
            {countries.map((c) => (
              <option key={c.code} value={c.code}>
                {c.name}
              </option>
            ))}
          </select>,
        )}
      </div>
      <div className="field-row">
        <div className="field-row field-row-phone">
          {field(
            'countryPhoneCode',
            <select autoComplete="tel-country-code" {...control('countryPhoneCode')}>
              {DIAL_CODES.map((d) => (
                <option key={d} value={d}>
                  {d}
                </option>
              ))}
            </select>,
          )}
          {field(
            'phone',
            <>
              <input type="tel" autoComplete="tel-national" inputMode="numeric" {...control('phone', 'contact-phone-hint')} />
              <p className="field-hint" id="contact-phone-hint">
                {t.phoneHint}
              </p>
            </>,
          )}
        </div>
        {field(
          'type',
          <select {...control('type')}>
            {types.map((o) => (
              <option key={o.id} value={String(o.id)}>
                {o.name}
              </option>
            ))}
          </select>,
        )}
      </div>
      {field('message', <textarea rows={6} {...control('message')} />)}

      <div className="field field-check">
        <input
          type="checkbox"
          id={id('accepts')}
          name="accepts"
          checked={values.accepts}
          onChange={change('accepts')}
          required
          aria-invalid={errors.accepts ? true : undefined}
          aria-describedby={errors.accepts ? errorId('accepts') : undefined}
        />
        <label htmlFor={id('accepts')}>
          {beforePolicy}
          <a href={privacyHref}>{t.policyLink}</a>
          {afterPolicy}
        </label>
        {message('accepts')}
      </div>

      <button type="submit" className="button" disabled={sending}>
        {sending ? t.sending : t.submit}
      </button>
    </form>
  );
}
