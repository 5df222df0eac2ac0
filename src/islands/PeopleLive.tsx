/**
 * The live part of an IBO's people page: says that the list updates by itself, and announces (in a
 * polite live region) who made progress when it does (see `people-live-client.ts`). Without
 * JavaScript the page is the same list, read when it is opened.
 */
import { useEffect, useState } from 'react';
import { format } from '~/i18n/format';
import type { Locale } from '~/i18n/locales';
import { startPeopleLive } from '~/lib/business/people-live-client';

interface Props {
  locale: Locale;
  words: { live: string; update: string; updateSomeone: string };
}

export default function PeopleLive({ locale, words }: Props) {
  const [said, setSaid] = useState('');
  useEffect(() => {
    const live = startPeopleLive((name) => setSaid(name ? format(words.update, { name }) : words.updateSomeone));
    return () => live.close();
  }, [words]);
  return (
    <p className="biz-hint biz-live" lang={locale}>
      {words.live} <span role="status" aria-live="polite" data-live-said>{said}</span>
    </p>
  );
}
