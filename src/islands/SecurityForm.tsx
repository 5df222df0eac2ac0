/**
 * The two forms of the account's security page: changing the password (current one, new one twice)
 * and changing the e-mail address (new address, current password). Server-rendered they post to
 * `account.changePassword` / `account.changeEmail` and work without JavaScript; hydrated, each field
 * is checked with the server's schema and the form is sent without a post: a changed password reloads
 * the page with its notice (the list of sessions is shorter), a sent link is said in place.
 */
import { actions } from 'astro:actions';
import type { Locale } from '~/i18n/locales';
import {
  accountErrorText,
  accountErrorsFromFields,
  changeEmailSchema,
  changePasswordSchema,
  validate,
  CHANGE_EMAIL_FIELDS,
  CHANGE_PASSWORD_FIELDS,
  type AccountErrors,
  type ChangeEmailField,
  type ChangePasswordField,
  type IdentityMessages,
} from '~/lib/identity/account';
import type { Messages } from '~/i18n/types';
import type { FormErrorCode, FormMessages } from '~/lib/forms/forms';
import { described, Field, fieldIds, FormStatus, useCheckedForm } from './forms/form-kit';
import { useSubmit } from './forms/useSubmit';
import '~/styles/forms.css';

type Kind = 'password' | 'email';
type FieldOf<K extends Kind> = K extends 'password' ? ChangePasswordField : ChangeEmailField;

/** The texts the forms show. */
export type SecurityFormText = Pick<IdentityMessages, 'fields'> & { forms: FormMessages; password: Messages['security']['password']; email: Messages['security']['email'] };

interface Props<K extends Kind> {
  kind: K;
  locale: Locale;
  t: SecurityFormText;
  /** Where the form posts without JavaScript. */
  action: string;
  /** Where to go after a changed password (the page with its notice). */
  done: string;
  initial: { email: string; errors: AccountErrors<FieldOf<K>>; message: string | null; sent: string | null };
}

const FIELDS = { password: CHANGE_PASSWORD_FIELDS, email: CHANGE_EMAIL_FIELDS } as const;

export default function SecurityForm<K extends Kind>({ kind, locale, t, action, done, initial }: Props<K>) {
  type F = FieldOf<K>;
  const prefix = `security-${kind}`;
  const ids = (field: string) => fieldIds(prefix, field);
  const statusId = `${prefix}-status`;
  const order = FIELDS[kind] as readonly F[];
  const schema = kind === 'password' ? changePasswordSchema : changeEmailSchema;
  const form = useCheckedForm<F, FormErrorCode>({
    order,
    initialValues: kind === 'password' ? { currentPassword: '', password: '', confirmPassword: '' } : { email: initial.email, currentPassword: '' },
    initialErrors: initial.errors,
    check: (v) => {
      const r = validate<typeof schema, F>(schema, { ...v, lang: locale });
      return r.success ? {} : r.errors;
    },
    idOf: (f) => ids(f).control,
  });
  const text = kind === 'password' ? t.password : t.email;
  const { busy, status, submit } = useSubmit({
    form,
    send: (data) => (kind === 'password' ? actions.account.changePassword(data) : actions.account.changeEmail(data)),
    fieldErrors: (fields) => accountErrorsFromFields<F>(fields),
    conflict: { email: 'emailTaken' } as AccountErrors<F>,
    statusId,
    connection: t.forms.connection,
    done: (answer) => {
      if (kind === 'password') return location.assign(done);
      form.reset({ email: '', currentPassword: '' });
      return { text: answer.message, ok: true };
    },
    initial: initial.sent ? { text: initial.sent, ok: true } : initial.message ? { text: initial.message, ok: false } : null,
  });

  const error = (f: F) => {
    const code = form.errors[f];
    return code ? accountErrorText(t, f, code) : undefined;
  };
  const input = (f: F, label: string, type: 'password' | 'email', autoComplete: string) => (
    <Field ids={ids(f)} label={label} error={error(f)}>
      <input id={ids(f).control} type={type} autoComplete={autoComplete} required spellCheck={false} {...form.control(f)} {...described(ids(f), false, error(f))} />
    </Field>
  );

  return (
    <form className="account-form" aria-label={text.heading} method="post" action={action} noValidate onSubmit={submit} aria-busy={busy || undefined} data-enhanced={form.enhanced ? 'true' : undefined}>
      <input type="hidden" name="lang" value={locale} />
      <FormStatus id={statusId} status={status} />
      {kind === 'password' ? (
        <>
          {input('currentPassword' as F, t.fields.currentPassword, 'password', 'current-password')}
          {input('password' as F, t.password.newPassword, 'password', 'new-password')}
          {input('confirmPassword' as F, t.fields.confirmPassword, 'password', 'new-password')}
        </>
      ) : (
        <>
          {input('email' as F, t.email.newEmail, 'email', 'email')}
          {input('currentPassword' as F, t.fields.currentPassword, 'password', 'current-password')}
        </>
      )}
      <button type="submit" className="button" disabled={busy}>
        {busy ? text.submitting : text.submit}
      </button>
    </form>
  );
}
