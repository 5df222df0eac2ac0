/** "Busy, try again in a few seconds": the answers to a request the database could not serve in time. */
import type { APIContext } from 'astro';
import { actionInputLocale, busyActionError } from '~/lib/http/action-answer';
import { BUSY_RETRY_AFTER_SECONDS } from '~/lib/db/unavailable';
import { messages, type Locale } from '~/i18n';
import { answerLanguage } from './locale';

/**
 * The language of an action's answer: the `lang` its input carries (read from `input`, a copy of the
 * request taken before the action read it), else the request's `?lang=`, address, referring page or
 * Accept-Language.
 */
export async function actionLanguage(ctx: APIContext, input: Request | null): Promise<Locale> {
  const lang = ctx.url.searchParams.get('lang');
  return (input && (await actionInputLocale(input))) ?? (lang === 'es' || lang === 'en' ? lang : answerLanguage(ctx));
}

/**
 * "Busy, try again in a few seconds" to an action's caller: to a script (`/_actions/…`), Astro's action
 * error shape, 503, `Retry-After`; to a form posted without JavaScript (`?_action=`), which a browser
 * shows as a page, the busy page in the language the form names.
 */
export async function busyAction(ctx: APIContext, input: Request | null, error: unknown): Promise<Response> {
  const locale = await actionLanguage(ctx, input);
  if (!ctx.url.pathname.startsWith('/_actions/')) return busyPage(ctx, error, locale);
  const { status, body } = busyActionError(messages(locale).busy.action);
  return new Response(body, {
    status,
    headers: { 'Content-Type': 'application/json', 'Content-Language': locale, 'Cache-Control': 'no-store', 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) },
  });
}

/** The busy page (503) in `locale`, rendered from here; its "try again" link is the page, without the form's action. */
export function busyPage(ctx: APIContext, error: unknown, locale: Locale): Promise<Response> {
  if (ctx.routePattern === '/500' || ctx.locals.busyPage) throw error;
  const query = new URLSearchParams(ctx.url.search);
  query.delete('_action');
  ctx.locals.busyPage = { error, locale, retryHref: ctx.originPathname.replace(/(.)\/$/, '$1') + (query.size > 0 ? `?${query}` : '') };
  return ctx.rewrite('/500');
}
