/**
 * Asking for a password-reset link: the account's e-mail. Posts to the `auth.requestReset` action
 * (also without JavaScript) and then says the same thing whether or not an account exists.
 */
import { useState, type SubmitEvent } from 'react';
import { actions, isInputError } from 'astro:actions';
import type { Locale } from '~/i18n/locales';
import {
  accountErrorText,
  accountErrorsFromFields,
  forgotFormSchema,
  validate,
  FORGOT_FIELDS,
  type AccountErrors,
  type ForgotField,
  type IdentityMessages,
} from '~/lib/identity/account';
import type { FormErrorCode, FormMessages } from '~/lib/forms/forms';
import { described, Field, fieldIds, useCheckedForm } from './forms/form-kit';
import '~/styles/forms.css';

/** The texts the form shows. */
export type ForgotFormText = Pick<IdentityMessages, 'fields' | 'forgot'> & { forms: FormMessages };

/** What the server rendered after a post without JavaScript. */
export interface ForgotFormInitial {
  email: string;
  errors: AccountErrors<ForgotField>;
  /** The outcome: the link was (or would have been) sent, or a failure such as too many attempts. */
  sent: string | null;
  failed: string | null;
}

interface Props {
  locale: Locale;
  t: ForgotFormText;
  action: string;
  initial: ForgotFormInitial;
}

const ids = (field: ForgotField) => fieldIds('forgot', field);
const STATUS_ID = 'forgot-status';

export default function ForgotPasswordForm({ locale, t, action, initial }: Props) {
  const form = useCheckedForm<ForgotField, FormErrorCode>({
    order: FORGOT_FIELDS,
    initialValues: { email: initial.email },
    initialErrors: initial.errors,
    check: (v) => {
      const r = validate<typeof forgotFormSchema, ForgotField>(forgotFormSchema, v);
      return r.success ? {} : r.errors;
    },
    idOf: (f) => ids(f).control,
  });
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ sent: string | null; failed: string | null }>({ sent: initial.sent, failed: initial.failed });

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setOutcome({ sent: null, failed: null });
    if (!form.checkAll()) return;
    setBusy(true);
    try {
      const { data, error } = await actions.auth.requestReset(new FormData(event.currentTarget));
      if (!error) setOutcome({ sent: data.message, failed: null });
      else if (isInputError(error) && form.showErrors(accountErrorsFromFields<ForgotField>(error.fields as Record<string, string[]>))) return;
      else setOutcome({ sent: null, failed: error.message || t.forms.connection });
    } catch {
      setOutcome({ sent: null, failed: t.forms.connection });
    } finally {
      setBusy(false);
    }
    form.focusOn(STATUS_ID);
  }

  const error = form.errors.email ? accountErrorText(t, 'email', form.errors.email) : undefined;
  return (
    <form className="account-form" aria-label={t.forgot.title} method="post" action={action} noValidate onSubmit={submit} aria-busy={busy || undefined} data-enhanced={form.enhanced ? 'true' : undefined}>
      <input type="hidden" name="lang" value={locale} />
      <div id={STATUS_ID} className="form-status" role="status" aria-live="polite" tabIndex={-1}>
        {outcome.sent && <p className="form-status-ok">{outcome.sent}</p>}
        {outcome.failed && <p className="form-status-error">{outcome.failed}</p>}
      </div>
      <Field ids={ids('email')} label={t.fields.email} error={error}>
        <input id={ids('email').control} type="email" autoComplete="email" inputMode="email" spellCheck={false} required {...form.control('email')} {...described(ids('email'), false, error)} />
      </Field>
      <button type="submit" className="button" disabled={busy}>
        {busy ? t.forgot.submitting : t.forgot.submit}
      </button>
    </form>
  );
}
