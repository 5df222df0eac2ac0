/**
 * The IBO code form (welcome modal's guest path, and /guest): validates like the server, calls the
 * `ibo.enter` action, stores the IBO info for the header and goes on. Without JavaScript the same form
 * posts to the action and the page answers.
 */
import { useId, useState, type FormEvent } from 'react';
import { actions } from 'astro:actions';
import { iboCodeProblem } from '~/lib/identity/ibo';
import { $ibo } from '~/lib/stores/identity';
import type { Locale } from '~/i18n/locales';
import type { IboCodeLabels } from '~/lib/identity/labels';

interface Props {
  locale: Locale;
  labels: IboCodeLabels;
  /** Where to go once in (defaults to reloading the current page). */
  next?: string | undefined;
  /** The action URL for the no-JavaScript post. */
  action: string;
  /** Cancel closes the dialog the form is in (welcome modal); otherwise Cancel is a link to `cancelHref`. */
  cancelClosesDialog?: boolean;
  cancelHref: string;
  /** A server-rendered error to show first (no-JavaScript path). */
  initialError?: string | undefined;
}

export default function IboCodeForm({ locale, labels, next, action, cancelClosesDialog = false, cancelHref, initialError }: Props) {
  const id = useId();
  const [code, setCode] = useState('');
  const [error, setError] = useState(initialError ?? '');
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const problem = iboCodeProblem(code);
    if (problem) {
      setError(problem === 'required' ? labels.required : labels.notFound);
      return;
    }
    setBusy(true);
    const form = new FormData();
    form.set('code', code);
    form.set('lang', locale);
    const { data, error: failure } = await actions.ibo.enter(form);
    setBusy(false);
    if (failure || !data) {
      setError(failure?.message ?? labels.notFound);
      return;
    }
    $ibo.set(data.ibo);
    if (next) location.assign(next);
    else location.reload();
  }

  const errorId = `${id}-error`;
  return (
    <form method="post" action={action} onSubmit={submit} noValidate className="ibo-code-form">
      <input type="hidden" name="lang" value={locale} />
      <label htmlFor={`${id}-code`}>{labels.codeLabel}</label>
      <input
        id={`${id}-code`}
        name="code"
        value={code}
        onChange={(e) => setCode(e.target.value)}
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        maxLength={32}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : `${id}-hint`}
      />
      <p id={`${id}-hint`} className="hint">{labels.codeHint}</p>
      <p id={errorId} className="field-error" role="alert">
        {error}
      </p>
      <div className="form-actions">
        <button className="button" type="submit" disabled={busy} aria-busy={busy || undefined}>
          {labels.enter}
        </button>
        {cancelClosesDialog ? (
          <button className="button button-outline" type="button" onClick={(e) => e.currentTarget.closest('dialog')?.close()}>
            {labels.cancel}
          </button>
        ) : (
          <a className="button button-outline" href={cancelHref}>
            {labels.cancel}
          </a>
        )}
      </div>
    </form>
  );
}
