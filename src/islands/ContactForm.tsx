/**
 * The contact form. Server-rendered, it is a plain HTML form posting to the `contact.send` action,
 * so it works without JavaScript (the server's errors are rendered beside their fields). Hydrated, it
 * uses the form kit: each field is checked on leaving it and on submit with the same schema the
 * server uses, the message is sent through the action without reloading, and the focus moves to the
 * first field in error or to the outcome message (an `aria-live` region).
 */
import { useState, type ChangeEvent, type ReactNode, type SubmitEvent } from 'react';
import { actions, isInputError } from 'astro:actions';
import type { Locale } from '~/i18n';
import type { FormErrorCode } from '~/lib/forms/forms';
// The pure rules only (not `~/lib/contact`, whose index also exports database code).
import {
  contactErrorText,
  contactErrorsFromFields,
  dialCodeOf,
  emptyContactValues,
  validateContactForm,
  CONTACT_FIELDS,
  DIAL_CODES,
  TOO_MANY_STATUS,
  type ContactField,
  type ContactFormState,
  type ContactFormText,
  type ContactFormValues,
  type ContactStatus,
} from '~/lib/contact/contact';
import { described, Field, fieldIds, useCheckedForm } from './forms/form-kit';
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

const ids = (field: ContactField) => fieldIds('contact', field);
const STATUS_ID = 'contact-status';
/** The checkbox reads as its posted value: 'on' when ticked. */
const inputsOf = (values: ContactFormValues): Record<string, string> => ({ ...values, accepts: values.accepts ? 'on' : '' });

export default function ContactForm({ action, locale, t, types, countries, privacyHref, initial }: Props) {
  const [status, setStatus] = useState<ContactStatus>(initial.status);
  const [sending, setSending] = useState(false);
  const form = useCheckedForm<ContactField, FormErrorCode>({
    order: CONTACT_FIELDS,
    initialValues: inputsOf(initial.values),
    initialErrors: initial.errors,
    check: (v) => {
      const r = validateContactForm({ ...v, language: locale });
      return r.success ? {} : r.errors;
    },
    idOf: (f) => ids(f).control,
    // Editing after an outcome: the outcome no longer describes the form.
    onChange: () => setStatus('idle'),
  });

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    setStatus('idle');
    if (!form.checkAll()) return;
    setSending(true);
    try {
      const { error } = await actions.contact.send(new FormData(event.currentTarget));
      if (!error) {
        form.reset(inputsOf(emptyContactValues()));
        setStatus('sent');
        form.focusOn(STATUS_ID);
        return;
      }
      if (isInputError(error) && form.showErrors(contactErrorsFromFields(error.fields as Record<string, string[]>))) return;
      setStatus(error.status === TOO_MANY_STATUS ? 'tooMany' : 'failed');
      form.focusOn(STATUS_ID);
    } catch {
      setStatus('failed');
      form.focusOn(STATUS_ID);
    } finally {
      setSending(false);
    }
  }

  const errorText = (f: ContactField): string | undefined => {
    const code = form.errors[f];
    return code ? contactErrorText(t, f, code) : undefined;
  };

  /** A labelled control with its error (and hint), linked for assistive technology. */
  const field = (f: Exclude<ContactField, 'accepts'>, control: (props: ReturnType<typeof controlProps>) => ReactNode, hint?: string) => (
    <Field ids={ids(f)} label={t.fields[f]} hint={hint} error={errorText(f)}>
      {control(controlProps(f, hint !== undefined))}
    </Field>
  );
  const controlProps = (f: Exclude<ContactField, 'accepts'>, hasHint: boolean) => ({ id: ids(f).control, required: true, ...form.control(f), ...described(ids(f), hasHint, errorText(f)) });

  const accepts = ids('accepts');
  const [beforePolicy, afterPolicy] = t.accept.split('{policy}');

  return (
    <form
      className="contact-form"
      method="post"
      action={action}
      noValidate
      onSubmit={submit}
      aria-busy={sending || undefined}
      data-enhanced={form.enhanced ? 'true' : undefined}
    >
      <input type="hidden" name="language" value={locale} />
      <p className="form-note">{t.requiredNote}</p>
      <div id={STATUS_ID} className="form-status" role="status" aria-live="polite" tabIndex={-1}>
        {status === 'sent' && <p className="form-status-ok">{t.sent}</p>}
        {status === 'failed' && <p className="form-status-error">{t.sendFailed}</p>}
        {status === 'tooMany' && <p className="form-status-error">{t.tooMany}</p>}
      </div>

      <div className="field-row">
        {field('name', (p) => <input type="text" autoComplete="given-name" {...p} />)}
        {field('lastName', (p) => <input type="text" autoComplete="family-name" {...p} />)}
      </div>
      <div className="field-row">
        {field('email', (p) => <input type="email" autoComplete="email" inputMode="email" spellCheck={false} {...p} />)}
        {field('countryCode', (p) => (
          <select
            autoComplete="country"
            {...p}
            // Choosing a country proposes its dialling code.
            onChange={(e: ChangeEvent<HTMLSelectElement>) => {
              const code = e.currentTarget.value;
              form.update('countryCode', { countryCode: code, countryPhoneCode: dialCodeOf(code) ?? form.values.countryPhoneCode ?? '' });
            }}
          >
            {countries.map((c) => (
              <option key={c.code} value={c.code}>
                {c.name}
              </option>
            ))}
          </select>
        ))}
      </div>
      <div className="field-row">
        <div className="field-row field-row-phone">
          {field('countryPhoneCode', (p) => (
            <select autoComplete="tel-country-code" {...p}>
              {DIAL_CODES.map((d) => (
                <option key={d} value={d}>
                  {d}
                </option>
              ))}
            </select>
          ))}
          {field('phone', (p) => <input type="tel" autoComplete="tel-national" inputMode="numeric" {...p} />, t.phoneHint)}
        </div>
        {field('type', (p) => (
          <select {...p}>
            {types.map((o) => (
              <option key={o.id} value={String(o.id)}>
                {o.name}
              </option>
            ))}
          </select>
        ))}
      </div>
      {field('message', (p) => <textarea rows={6} {...p} />)}

      <div className="field field-check">
        <input
          type="checkbox"
          id={accepts.control}
          name="accepts"
          checked={form.values.accepts === 'on'}
          onChange={(e) => form.update('accepts', { accepts: e.currentTarget.checked ? 'on' : '' }, true)}
          required
          {...described(accepts, false, errorText('accepts'))}
        />
        <label htmlFor={accepts.control}>
          {beforePolicy}
          <a href={privacyHref}>{t.policyLink}</a>
          {afterPolicy}
        </label>
        {errorText('accepts') && (
          <p className="field-error" id={accepts.error}>
            {errorText('accepts')}
          </p>
        )}
      </div>

      <button type="submit" className="button" disabled={sending}>
        {sending ? t.sending : t.submit}
      </button>
    </form>
  );
}
