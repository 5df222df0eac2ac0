/**
 * The prospect modal: before an IBO session opens a course, it asks for the prospect's name,
 * last name and e-mail. Leaving the e-mail field looks the customer up; Confirm is enabled when every
 * field is filled or a customer was found. Confirming stores the prospect and goes on to the course.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { actions } from 'astro:actions';
import { canConfirmProspect, prospectEmailSchema } from '~/lib/identity/prospect';
import { $contact } from '~/lib/stores/identity';
import { announce } from '~/lib/stores/announcer';
import { actionErrorStatus, guardStatus } from '~/lib/http/session-guard';
import type { Locale } from '~/i18n/locales';
import type { ProspectLabels } from '~/lib/identity/labels';

interface Props {
  locale: Locale;
  labels: ProspectLabels;
  /** Where the course opens once the prospect is confirmed. */
  next: string;
  home: string;
}

export default function ProspectForm({ locale, labels, next, home }: Props) {
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const [form, setForm] = useState({ firstName: '', lastName: '', email: '' });
  const [found, setFound] = useState(false);
  const [emailError, setEmailError] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  // The button opens a dialog only React can show: it stays disabled until the island is live.
  const [live, setLive] = useState(false);
  useEffect(() => setLive(true), []);

  const set = (field: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) => {
    setForm({ ...form, [field]: e.target.value });
    if (field === 'email') setFound(false);
  };

  async function lookUp() {
    const email = prospectEmailSchema.safeParse(form.email);
    if (form.email.trim() === '') return setEmailError('');
    if (!email.success) return setEmailError(labels.emailInvalid);
    setEmailError('');
    const { data, error: failure } = await actions.ibo.lookup({ email: email.data, lang: locale });
    if (failure) {
      if (guardStatus(actionErrorStatus(failure.code), home)) return;
      return;
    }
    setFound(data.found);
  }

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!canConfirmProspect(form, found)) return;
    setBusy(true);
    const body = new FormData();
    for (const [k, v] of Object.entries(form)) body.set(k, v);
    body.set('lang', locale);
    const { data, error: failure } = await actions.ibo.confirmProspect(body);
    setBusy(false);
    if (failure || !data) {
      if (failure && guardStatus(actionErrorStatus(failure.code), home)) return;
      setError(failure?.message ?? '');
      return;
    }
    $contact.set(data.contact);
    setError('');
    dialog.current?.close();
    announce(data.message);
    // Long enough to read (and for screen readers to announce) before the course opens.
    setTimeout(() => location.assign(next), 1200);
  }

  const field = (name: 'firstName' | 'lastName', label: string) => (
    <>
      <label htmlFor={`${id}-${name}`}>{label}</label>
      <input id={`${id}-${name}`} name={name} value={form[name]} onChange={set(name)} maxLength={32} autoComplete="off" disabled={found} />
    </>
  );

  return (
    <>
      <button type="button" className="button" disabled={!live} onClick={() => dialog.current?.showModal()}>
        {labels.open}
      </button>
      <dialog ref={dialog} className="notice-dialog" aria-labelledby={`${id}-title`}>
        <form className="prospect-form" onSubmit={submit} noValidate>
          <h2 id={`${id}-title`}>{labels.title}</h2>
          <p>{labels.lead}</p>
          <label htmlFor={`${id}-email`}>{labels.email}</label>
          <input
            id={`${id}-email`}
            name="email"
            type="email"
            value={form.email}
            onChange={set('email')}
            onBlur={lookUp}
            maxLength={60}
            autoComplete="off"
            aria-invalid={emailError ? true : undefined}
            aria-describedby={`${id}-email-note`}
          />
          <p id={`${id}-email-note`} className={emailError ? 'field-error' : 'hint'} role={emailError ? 'alert' : undefined}>
            {emailError || (found ? labels.customerFound : '')}
          </p>
          {field('firstName', labels.firstName)}
          {field('lastName', labels.lastName)}
          <p className="field-error" role="alert">
            {error}
          </p>
          <div className="form-actions">
            <button className="button" type="submit" disabled={!canConfirmProspect(form, found) || busy}>
              {labels.confirm}
            </button>
            <button className="button button-outline" type="button" onClick={() => dialog.current?.close()}>
              {labels.cancel}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
