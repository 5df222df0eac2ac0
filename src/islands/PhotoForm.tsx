/**
 * The profile photo form: a file and a button, posted as a multipart form to `account.setPhoto` (it
 * works without JavaScript; the server checks every rule). Hydrated, it shows the chosen photo as the
 * server will keep it (the centre of it, cropped to a square) and refuses a file too large or of
 * another type before sending it.
 */
import { useEffect, useState, type ChangeEvent, type SubmitEvent } from 'react';
import { PHOTO_ACCEPT, PHOTO_MAX_BYTES } from '~/lib/identity/photo';
import type { IdentityMessages } from '~/lib/identity/account';
import { described, Field, fieldIds } from './forms/form-kit';
import '~/styles/forms.css';

interface Props {
  locale: string;
  t: IdentityMessages['photo'];
  /** Where the form posts. */
  action: string;
  /** The sentence of a refused post, when the page shows one. */
  message: string | null;
}

const ACCEPTED = new Set(PHOTO_ACCEPT.split(','));

export default function PhotoForm({ locale, t, action, message: initial }: Props) {
  const ids = fieldIds('photo', 'photo');
  const [preview, setPreview] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(initial);
  const [busy, setBusy] = useState(false);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  function choose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.currentTarget.files?.[0];
    setPreview(null);
    setMessage(null);
    if (!file) return;
    if (file.size > PHOTO_MAX_BYTES) setMessage(t.errors.tooLarge);
    else if (!ACCEPTED.has(file.type)) setMessage(t.errors.notImage);
    else setPreview(URL.createObjectURL(file));
  }

  function submit(event: SubmitEvent<HTMLFormElement>) {
    const file = (event.currentTarget.elements.namedItem('photo') as HTMLInputElement | null)?.files?.[0];
    if (!file) {
      event.preventDefault();
      setMessage(t.errors.missing);
      return;
    }
    if (message) {
      event.preventDefault();
      return;
    }
    setBusy(true);
  }

  return (
    <form className="photo-form" aria-label={t.title} method="post" action={action} encType="multipart/form-data" onSubmit={submit} aria-busy={busy || undefined}>
      <input type="hidden" name="lang" value={locale} />
      <Field ids={ids} label={t.choose} error={message ?? undefined}>
        <input id={ids.control} type="file" name="photo" accept={PHOTO_ACCEPT} required onChange={choose} {...described(ids, false, message ?? undefined)} />
      </Field>
      {preview && (
        <figure className="photo-preview">
          <img src={preview} alt="" width={96} height={96} />
          <figcaption>{t.preview}</figcaption>
        </figure>
      )}
      <button type="submit" className="button" disabled={busy}>
        {busy ? t.saving : t.save}
      </button>
    </form>
  );
}
