/** The language an answer without a page (an endpoint's error, a refused request) speaks. */
import { DEFAULT_LOCALE, type Locale } from '~/i18n/locales';

/**
 * The language of an error message: the `lang` query parameter when it names a locale, else the best
 * Spanish or English entry of `Accept-Language` (by q-value, then order), else Spanish.
 */
export function answerLocale(queryLang: string | null | undefined, acceptLanguage: string | null | undefined): Locale {
  if (queryLang === 'es' || queryLang === 'en') return queryLang;
  let best: { locale: Locale; q: number } | null = null;
  for (const part of (acceptLanguage ?? '').slice(0, 500).split(',')) {
    const [tag = '', ...params] = part.trim().split(';');
    const primary = tag.trim().toLowerCase().split('-')[0];
    if (primary !== 'es' && primary !== 'en') continue;
    const qParam = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!Number.isFinite(q) || q <= 0 || q > 1) continue;
    if (!best || q > best.q) best = { locale: primary, q };
  }
  return best?.locale ?? DEFAULT_LOCALE;
}

/** The language of an answer's messages: the request's `?lang=` or its Accept-Language (see `answerLocale`). */
export function requestLocale(url: URL, headers: Headers): Locale {
  return answerLocale(url.searchParams.get('lang'), headers.get('accept-language'));
}
