/**
 * Choosing a new password from a reset link: the password twice and the link's token (hidden).
 * Posts to the `auth.resetPassword` action (also without JavaScript); on success the login page
 * says the password changed. A spent or expired link gets a sentence and a way to ask again.
 */
import { useState, type SubmitEvent } from 'react';
import { actions, isInputError } from 'astro:actions';
import type { Locale } from '~/i18n/locales';
import {
  accountErrorText,
  accountErrorsFromFields,
  resetFormSchema,
  validate,
  RESET_FIELDS,
  type AccountErrors,
  type IdentityMessages,
  type ResetField,
} from '~/lib/identity/account';
import type { FormErrorCode, FormMessages } from '~/lib/forms/forms';
import { clearIdentity } from '~/lib/stores/identity';
import { described, Field, fieldIds, useCheckedForm } from './forms/form-kit';
import '~/styles/forms.css';

/** The texts the form shows (the e-mail's stay on the server). */
export type ResetFormText = Pick<IdentityMessages, 'fields'> & { forms: FormMessages } & { reset: Omit<IdentityMessages['reset'], 'mail'> };

/** What the server rendered after a post without JavaScript. */
export interface ResetFormInitial {
  errors: AccountErrors<ResetField>;
  failed: string | null;
}

interface Props {
  locale: Locale;
  t: ResetFormText;
  action: string;
  token: string;
  /** Where to ask for a new link. */
  forgotHref: string;
  initial: ResetFormInitial;
}

const ids = (field: ResetField) => fieldIds('reset', field);
const STATUS_ID = 'reset-status';

export default function ResetPasswordForm({ locale, t, action, token, forgotHref, initial }: Props) {
  const form = useCheckedForm<ResetField, FormErrorCode>({
    order: RESET_FIELDS,
    initialValues: { password: '', confirmPassword: '' },
    initialErrors: initial.errors,
    check: (v) => {
      const r = validate<typeof resetFormSchema, ResetField>(resetFormSchema, { ...v, token });
      return r.success ? {} : r.errors;
    },
    idOf: (f) => ids(f).control,
  });
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string | null>(initial.failed);

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setFailed(null);
    if (!form.checkAll()) return;
    setBusy(true);
    try {
      const { data, error } = await actions.auth.resetPassword(new FormData(event.currentTarget));
      if (!error) {
        // Every session of the account ended, this browser's too.
        clearIdentity();
        location.assign(data.next);
        return;
      }
      if (isInputError(error) && form.showErrors(accountErrorsFromFields<ResetField>(error.fields as Record<string, string[]>))) return;
      setFailed(error.message || t.forms.connection);
    } catch {
      setFailed(t.forms.connection);
    } finally {
      setBusy(false);
    }
    form.focusOn(STATUS_ID);
  }

  const error = (f: ResetField) => {
    const code = form.errors[f];
    return code ? accountErrorText(t, f, code) : undefined;
  };
  const password = (f: ResetField) => (
    <Field ids={ids(f)} label={t.fields[f]} error={error(f)}>
      <input id={ids(f).control} type="password" autoComplete="new-password" required {...form.control(f)} {...described(ids(f), false, error(f))} />
    </Field>
  );

  return (
    <form className="account-form" aria-label={t.reset.title} method="post" action={action} noValidate onSubmit={submit} aria-busy={busy || undefined} data-enhanced={form.enhanced ? 'true' : undefined}>
      <input type="hidden" name="lang" value={locale} />
      <input type="hidden" name="token" value={token} />
      <div id={STATUS_ID} className="form-status" role="alert" tabIndex={-1}>
        {failed && (
          <p className="form-status-error">
            {failed} <a href={forgotHref}>{t.reset.askAgain}</a>
          </p>
        )}
      </div>
      {password('password')}
      {password('confirmPassword')}
      <button type="submit" className="button" disabled={busy}>
        {busy ? t.reset.submitting : t.reset.submit}
      </button>
    </form>
  );
}
