/**
 * The login form (email, password, 'authenticate as IBO' and cancel, forgot-password link).
 * Server-rendered it is a plain form posting to the `auth.login` action, so it works without
 * JavaScript. Hydrated, it checks the fields with the server's schema, logs in without reloading,
 * keeps the header's copy of the user, and shows a failure in the modal titled 'Information': the
 * server's sentence, or the server-connection message when the server cannot be reached.
 */
import { useState, type SubmitEvent } from 'react';
import { actions, isInputError } from 'astro:actions';
import type { Locale } from '~/i18n/locales';
import {
  accountErrorText,
  accountErrorsFromFields,
  loginFormSchema,
  validate,
  LOGIN_FIELDS,
  type AccountErrors,
  type IdentityMessages,
  type LoginField,
} from '~/lib/identity/account';
import type { FormErrorCode, FormMessages } from '~/lib/forms/forms';
import { syncIdentity } from '~/lib/stores/identity';
import { described, Field, fieldIds, InfoDialog, useCheckedForm } from './forms/form-kit';
import '~/styles/forms.css';

/** The texts the form shows. */
export type LoginFormText = Pick<IdentityMessages, 'fields' | 'login'> & { forms: FormMessages };

/** What the server rendered after a post without JavaScript. */
export interface LoginFormInitial {
  email: string;
  errors: AccountErrors<LoginField>;
  /** The server's answer to show in the 'Information' modal. */
  message: string | null;
  /** The answer says the account is blocked: the contact page's link goes with it. */
  blocked?: boolean;
}

interface Props {
  locale: Locale;
  t: LoginFormText;
  /** Where the form posts without JavaScript. */
  action: string;
  /** Where to go after logging in (checked again by the server). */
  next?: string | undefined;
  /** The 'authenticate as IBO' page, the forgot-password page (or external site) and where Cancel goes. */
  iboHref: string;
  forgotHref: string;
  cancelHref: string;
  /** The contact page, offered to a blocked account. */
  contactHref: string;
  initial: LoginFormInitial;
}

const ids = (field: LoginField) => fieldIds('login', field);

export default function LoginForm({ locale, t, action, next, iboHref, forgotHref, cancelHref, contactHref, initial }: Props) {
  const form = useCheckedForm<LoginField, FormErrorCode>({
    order: LOGIN_FIELDS,
    initialValues: { email: initial.email, password: '' },
    initialErrors: initial.errors,
    check: (v) => {
      const r = validate<typeof loginFormSchema, LoginField>(loginFormSchema, v);
      return r.success ? {} : r.errors;
    },
    idOf: (f) => ids(f).control,
  });
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(initial.message);
  const [blocked, setBlocked] = useState(initial.blocked === true);
  const contactLink = blocked ? { href: contactHref, text: t.login.contactSupport } : null;

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || !form.checkAll()) return;
    setBusy(true);
    try {
      const { data, error } = await actions.auth.login(new FormData(event.currentTarget));
      if (!error) {
        syncIdentity({ kind: 'user', user: data.user });
        // The language chosen in the profile: the page boot keeps the person in it from now on.
        if (data.language) {
          try {
            localStorage.setItem('language', data.language);
          } catch {
            /* storage unavailable: the address already carries the language */
          }
        }
        location.assign(data.next);
        return;
      }
      if (isInputError(error) && form.showErrors(accountErrorsFromFields<LoginField>(error.fields as Record<string, string[]>))) return;
      setBlocked(error.code === 'FORBIDDEN');
      setMessage(error.message || t.forms.connection);
    } catch {
      // No answer at all: the server is down or the network is gone.
      setMessage(t.forms.connection);
    } finally {
      setBusy(false);
    }
  }

  const error = (f: LoginField) => {
    const code = form.errors[f];
    return code ? accountErrorText(t, f, code) : undefined;
  };

  return (
    <>
    <form className="account-form" aria-label={t.login.title} method="post" action={action} noValidate onSubmit={submit} aria-busy={busy || undefined} data-enhanced={form.enhanced ? 'true' : undefined}>
      <input type="hidden" name="lang" value={locale} />
      {next && <input type="hidden" name="next" value={next} />}
      {/* Without JavaScript the server's answer shows here; with it, in the modal. */}
      {!form.enhanced && message && (
        <div className="form-status" role="alert">
          <p className="form-status-error">{message}</p>
          {contactLink && (
            <p>
              <a href={contactLink.href}>{contactLink.text}</a>
            </p>
          )}
        </div>
      )}
      <Field ids={ids('email')} label={t.fields.email} error={error('email')}>
        <input id={ids('email').control} type="email" autoComplete="username" inputMode="email" spellCheck={false} required {...form.control('email')} {...described(ids('email'), false, error('email'))} />
      </Field>
      <Field ids={ids('password')} label={t.fields.password} error={error('password')}>
        <input id={ids('password').control} type="password" autoComplete="current-password" required {...form.control('password')} {...described(ids('password'), false, error('password'))} />
      </Field>
      <p className="form-links">
        <a href={forgotHref}>{t.login.forgot}</a>
      </p>
      <div className="form-actions">
        <button type="submit" className="button" disabled={busy}>
          {busy ? t.login.submitting : t.login.submit}
        </button>
        <a className="button button-outline" href={iboHref}>
          {t.login.asIbo}
        </a>
        <a className="button button-outline" href={cancelHref}>
          {t.login.cancel}
        </a>
      </div>
    </form>
    <InfoDialog id="login-info" title={t.login.infoTitle} close={t.login.close} message={form.enhanced ? message : null} link={contactLink} onClose={() => setMessage(null)} />
    </>
  );
}
