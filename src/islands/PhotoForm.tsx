/**
 * The profile photo form: a file and a button, posted as a multipart form to `account.setPhoto` (it
 * works without JavaScript: the server keeps the centre of the picture). Hydrated, it refuses a file
 * too large or of another type before sending it and lays a square frame over the chosen picture, to
 * move and resize by pointer or keyboard; the square (in the picture's pixels) is posted with the file,
 * and a preview shows what will be kept. The server checks the square against the real picture.
 */
import { useEffect, useRef, useState, type ChangeEvent, type SubmitEvent } from 'react';
import { format } from '~/i18n/format';
import { CROP_FIELDS, PHOTO_ACCEPT, PHOTO_MAX_BYTES } from '~/lib/identity/photo';
import type { IdentityMessages } from '~/lib/identity/account';
import { described, Field, fieldIds } from './forms/form-kit';
import { useCropFrame } from './photo/useCropFrame';
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
/** The side of the round preview, in CSS pixels. */
const PREVIEW_SIDE = 96;

export default function PhotoForm({ locale, t, action, message: initial }: Props) {
  const ids = fieldIds('photo', 'photo');
  const [picture, setPicture] = useState<{ url: string; width: number; height: number } | null>(null);
  const [message, setMessage] = useState<string | null>(initial);
  const [busy, setBusy] = useState(false);
  const frame = useCropFrame();
  const { reset } = frame;
  const shown = useRef<HTMLImageElement | null>(null);
  useEffect(() => () => void (picture && URL.revokeObjectURL(picture.url)), [picture]);

  function choose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.currentTarget.files?.[0];
    setPicture(null);
    reset(null);
    setMessage(null);
    if (!file) return;
    if (file.size > PHOTO_MAX_BYTES) return setMessage(t.errors.tooLarge);
    if (!ACCEPTED.has(file.type)) return setMessage(t.errors.notImage);
    const url = URL.createObjectURL(file);
    // Its size as the browser shows it upright: the square is measured in those pixels, as the server turns it too.
    const probe = new Image();
    probe.onload = () => {
      const size = { width: probe.naturalWidth, height: probe.naturalHeight };
      setPicture({ url, ...size });
      reset(size);
    };
    probe.onerror = () => {
      URL.revokeObjectURL(url);
      setMessage(t.errors.unreadable);
    };
    probe.src = url;
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

  /** Picture pixels per screen pixel, as the picture is drawn now. */
  const scale = () => (picture && shown.current ? picture.width / (shown.current.getBoundingClientRect().width || picture.width) : 1);
  const crop = frame.crop;
  const percent = (n: number, of: number) => `${(n / of) * 100}%`;
  const zoom = crop ? PREVIEW_SIDE / crop.size : 1;

  return (
    <form className="photo-form" aria-label={t.title} method="post" action={action} encType="multipart/form-data" onSubmit={submit} aria-busy={busy || undefined}>
      <input type="hidden" name="lang" value={locale} />
      <Field ids={ids} label={t.choose} error={message ?? undefined}>
        <input id={ids.control} type="file" name="photo" accept={PHOTO_ACCEPT} required onChange={choose} {...described(ids, false, message ?? undefined)} />
      </Field>
      {picture && crop && (
        <div className="photo-crop">
          <input type="hidden" name={CROP_FIELDS.x} value={crop.x} />
          <input type="hidden" name={CROP_FIELDS.y} value={crop.y} />
          <input type="hidden" name={CROP_FIELDS.size} value={crop.size} />
          <div className="photo-crop-stage">
            <img ref={shown} src={picture.url} alt="" width={picture.width} height={picture.height} draggable={false} />
            <div
              className="photo-crop-frame"
              tabIndex={0}
              role="group"
              aria-label={t.cropLabel}
              aria-roledescription={t.cropRole}
              aria-describedby="photo-crop-help photo-crop-position"
              style={{ left: percent(crop.x, picture.width), top: percent(crop.y, picture.height), width: percent(crop.size, picture.width), height: percent(crop.size, picture.height) }}
              onKeyDown={frame.onKeyDown}
              onPointerDown={(e) => frame.onPointerDown(e, 'move', scale())}
              onPointerMove={frame.onPointerMove}
              onPointerUp={frame.onPointerUp}
              onPointerCancel={frame.onPointerUp}
            >
              <span
                className="photo-crop-handle"
                title={t.cropHandle}
                aria-hidden="true"
                onPointerDown={(e) => frame.onPointerDown(e, 'resize', scale())}
                onPointerMove={frame.onPointerMove}
                onPointerUp={frame.onPointerUp}
                onPointerCancel={frame.onPointerUp}
              />
            </div>
          </div>
          <p id="photo-crop-help" className="form-note">
            {t.cropHelp}
          </p>
          <p id="photo-crop-position" className="sr-only" aria-live="polite">
            {format(t.cropPosition, { size: crop.size, x: crop.x, y: crop.y })}
          </p>
          <figure className="photo-preview">
            <span className="photo-preview-window">
              <img src={picture.url} alt="" style={{ width: picture.width * zoom, height: picture.height * zoom, transform: `translate(${-crop.x * zoom}px, ${-crop.y * zoom}px)` }} />
            </span>
            <figcaption>{t.preview}</figcaption>
          </figure>
        </div>
      )}
      <button type="submit" className="button" disabled={busy}>
        {busy ? t.saving : t.save}
      </button>
    </form>
  );
}
