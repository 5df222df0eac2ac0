/**
 * The share kit of an IBO's business page: the IBO's link and ready message in the language the IBO
 * picks for the message, buttons that share them (WhatsApp, Facebook, e-mail, and the device's share
 * sheet where the browser has one), and a link per course. Copy buttons say "copied" in a live region.
 * Without JavaScript the links, the message and the share buttons still work, in the page's language.
 */
import { useEffect, useRef, useState } from 'react';
import { format } from '~/i18n/format';
import type { Locale } from '~/i18n/locales';
import type { ShareKit as Kit } from '~/lib/business/business';

/** The texts of the kit, in the page's language. */
export interface ShareKitText {
  share: {
    title: string;
    lead: string;
    link: string;
    copy: string;
    copyCourse: string;
    copied: string;
    copyFailed: string;
    messageLanguage: string;
    languages: Record<Locale, string>;
    message: string;
    messageHint: string;
    whatsapp: string;
    whatsappLabel: string;
    facebook: string;
    facebookLabel: string;
    email: string;
    emailLabel: string;
    device: string;
    deviceLabel: string;
    newWindow: string;
  };
  courses: { title: string; lead: string; none: string; open: string; openShort: string };
}

interface Props {
  locale: Locale;
  kit: Kit;
  t: ShareKitText;
}

/** Copies `text`: the Clipboard API, else the selected field (`field`) with the older copy command. */
async function copyText(text: string, field: HTMLInputElement | null): Promise<boolean> {
  try {
    if (navigator.clipboard) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Refused (no permission, not a secure context): try the field below.
  }
  if (!field) return false;
  field.select();
  return document.execCommand('copy');
}

export default function ShareKit({ locale, kit, t }: Props) {
  const [lang, setLang] = useState<Locale>(locale);
  const [mounted, setMounted] = useState(false);
  const [canShare, setCanShare] = useState(false);
  const [status, setStatus] = useState('');
  const linkField = useRef<HTMLInputElement>(null);
  const languages = Object.keys(kit.messages) as Locale[];
  const message = kit.messages[lang];
  const s = t.share;

  useEffect(() => {
    setMounted(true);
    setCanShare(typeof navigator.share === 'function');
  }, []);

  const copy = async (text: string, field: HTMLInputElement | null) => {
    // Emptied first, so the same sentence is announced again on a second copy.
    setStatus('');
    const ok = await copyText(text, field);
    setStatus(ok ? s.copied : s.copyFailed);
    if (!ok) field?.select();
  };

  const share = async () => {
    try {
      await navigator.share({ title: message.subject, text: message.text });
    } catch {
      // Closed without sharing: nothing to say.
    }
  };

  const external = { target: '_blank', rel: 'noopener noreferrer' } as const;

  return (
    <>
      <section className="biz-card" aria-labelledby="biz-share-title">
        <h2 id="biz-share-title">{s.title}</h2>
        <p className="biz-lead">{s.lead}</p>
        {mounted && languages.length > 1 && (
          <fieldset className="biz-languages">
            <legend>{s.messageLanguage}</legend>
            {languages.map((l) => (
              <label key={l}>
                <input type="radio" name="biz-message-language" value={l} checked={lang === l} onChange={() => setLang(l)} />
                <span lang={l}>{s.languages[l]}</span>
              </label>
            ))}
          </fieldset>
        )}
        <label className="biz-label" htmlFor="biz-link">
          {s.link}
        </label>
        <div className="biz-copy-row">
          <input id="biz-link" ref={linkField} className="biz-field" type="url" readOnly value={message.url} dir="ltr" />
          {mounted && (
            <button type="button" className="button button-small" onClick={() => void copy(message.url, linkField.current)}>
              {s.copy}
            </button>
          )}
        </div>
        <p role="status" aria-live="polite" className="biz-status">
          {status}
        </p>
        <label className="biz-label" htmlFor="biz-message">
          {s.message}
        </label>
        <textarea id="biz-message" className="biz-field biz-message" readOnly rows={4} value={message.text} lang={lang} />
        <p className="biz-hint">{s.messageHint}</p>
        <ul className="biz-share" role="list">
          <li>
            <a className="button biz-whatsapp" href={message.targets.whatsapp} aria-label={`${s.whatsappLabel} ${s.newWindow}`} {...external}>
              {s.whatsapp}
            </a>
          </li>
          <li>
            <a className="button biz-facebook" href={message.targets.facebook} aria-label={`${s.facebookLabel} ${s.newWindow}`} {...external}>
              {s.facebook}
            </a>
          </li>
          <li>
            <a className="button button-outline" href={message.targets.email} aria-label={s.emailLabel}>
              {s.email}
            </a>
          </li>
          {canShare && (
            <li>
              <button type="button" className="button button-outline" aria-label={s.deviceLabel} onClick={() => void share()}>
                {s.device}
              </button>
            </li>
          )}
        </ul>
      </section>
      <section className="biz-card" aria-labelledby="biz-courses-title">
        <h2 id="biz-courses-title">{t.courses.title}</h2>
        <p className="biz-lead">{t.courses.lead}</p>
        {kit.courses.length === 0 ? (
          <p>{t.courses.none}</p>
        ) : (
          <ul className="biz-courses" role="list">
            {kit.courses.map((c) => (
              <li key={c.id} data-course-id={c.id}>
                <span className="biz-course-name">{c.name}</span>
                <span className="biz-course-url" dir="ltr">
                  {c.urls[lang]}
                </span>
                <span className="biz-course-actions">
                  {mounted && (
                    <button type="button" className="button button-small button-outline" aria-label={format(s.copyCourse, { course: c.name })} onClick={() => void copy(c.urls[lang], null)}>
                      {s.copy}
                    </button>
                  )}
                  <a className="button button-small button-outline" href={c.urls[lang]} aria-label={format(t.courses.open, { course: c.name })}>
                    {t.courses.openShort}
                  </a>
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
