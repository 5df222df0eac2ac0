/**
 * "Delete my account": the current password and the button that schedules the deletion. Server-rendered
 * it posts to the `privacy.requestDeletion` action and works without JavaScript; hydrated, it checks the
 * field, sends without a post and shows the server's sentence (scheduled, wrong password, already
 * scheduled) in its status line.
 */
import { actions } from 'astro:actions';
import type { Locale } from '~/i18n/locales';
import { accountErrorText, accountErrorsFromFields, currentPasswordSchema, validate, type AccountErrors, type IdentityMessages } from '~/lib/identity/account';
import type { FormErrorCode, FormMessages } from '~/lib/forms/forms';
import { described, Field, fieldIds, FormStatus, useCheckedForm } from './forms/form-kit';
import { useSubmit } from './forms/useSubmit';
import '~/styles/forms.css';

/** The texts the form shows. */
export interface DeleteAccountFormText {
  fields: IdentityMessages['fields'];
  forms: FormMessages;
  password: string;
  passwordHint: string;
  button: string;
}

interface Props {
  locale: Locale;
  t: DeleteAccountFormText;
  /** Where the form posts without JavaScript. */
  action: string;
  /** What the server said after a post without JavaScript. */
  initial: { errors: AccountErrors<'password'>; message: string | null; done: string | null };
}

const PREFIX = 'delete-account';

export default function DeleteAccountForm({ locale, t, action, initial }: Props) {
  const ids = fieldIds(PREFIX, 'password');
  const statusId = `${PREFIX}-status`;
  const form = useCheckedForm<'password', FormErrorCode>({
    order: ['password'],
    initialValues: { password: '' },
    initialErrors: initial.errors,
    check: (v) => {
      const r = validate<typeof currentPasswordSchema, 'password'>(currentPasswordSchema, { ...v, lang: locale });
      return r.success ? {} : r.errors;
    },
    idOf: () => ids.control,
  });
  const { busy, status, submit } = useSubmit({
    form,
    send: (data) => actions.privacy.requestDeletion(data),
    fieldErrors: (fields) => accountErrorsFromFields<'password'>(fields),
    statusId,
    connection: t.forms.connection,
    done: (data) => {
      form.reset({ password: '' });
      return { text: data.message, ok: true };
    },
    initial: initial.done ? { text: initial.done, ok: true } : initial.message ? { text: initial.message, ok: false } : null,
  });

  const code = form.errors.password;
  const error = code ? accountErrorText(t, 'password', code) : undefined;
  return (
    <form className="account-form" aria-label={t.button} method="post" action={action} noValidate onSubmit={submit} aria-busy={busy || undefined} data-enhanced={form.enhanced ? 'true' : undefined}>
      <input type="hidden" name="lang" value={locale} />
      <FormStatus id={statusId} status={status} politeOk />
      <Field ids={ids} label={t.password} hint={t.passwordHint} error={error}>
        <input id={ids.control} type="password" autoComplete="current-password" required maxLength={32} {...form.control('password')} {...described(ids, true, error)} />
      </Field>
      <button type="submit" className="button" disabled={busy}>
        {t.button}
      </button>
    </form>
  );
}
