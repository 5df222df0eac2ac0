/** The server's own short answers (no page): health, refusals and failures, in the reader's language. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerLocale } from '../../src/lib/http/locale';
import type { Locale } from '../../src/i18n';

/** Several values of a header as one. */
export function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The first item of a header's first value. */
export function firstValue(value: string | string[] | undefined): string | undefined {
  return (Array.isArray(value) ? value[0] : value)?.split(',')[0]?.trim() || undefined;
}

/** The language of an answer without a page: the address's `/en/` prefix, else `?lang=` or Accept-Language. */
export function answerLanguage(req: IncomingMessage, url: URL): Locale {
  if (/^\/en(\/|$)/.test(url.pathname)) return 'en';
  return answerLocale(url.searchParams.get('lang'), firstValue(req.headers['accept-language']) ?? null);
}

/** A health check's whole answer: up (200) or down (503), nothing else. */
export function healthAnswer(res: ServerResponse, status: 'up' | 'down'): void {
  res.statusCode = status === 'up' ? 200 : 503;
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Cache-Control', 'no-store');
  res.end(JSON.stringify({ status }));
}

export function plainAnswer(res: ServerResponse, status: number, body: string, locale: Locale): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Content-Language', locale);
  res.setHeader('Cache-Control', 'no-store');
  res.end(body);
}

export function jsonAnswer(res: ServerResponse, error: { status: number; body: string }, locale: Locale): void {
  res.statusCode = error.status;
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Language', locale);
  res.setHeader('Cache-Control', 'no-store');
  res.end(error.body);
}
