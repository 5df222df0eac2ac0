/**
 * The media endpoints' handlers: GET and HEAD access-checked on every request with HTTP Range, any
 * other method 405. Errors are plain text in the `lang` query parameter's or Accept-Language's language.
 */
import type { APIContext, APIRoute } from 'astro';
import { messages } from '~/i18n';
import { resolve } from 'node:path';
import { requestLocale } from '../http/locale';
import { mediaAsk, methodNotAllowed, textAnswer, type MediaTarget } from './media';
import { serveMedia } from './media.server';

type Params = APIContext['params'];

/** The GET, HEAD and ALL handlers of an endpoint whose route parameters name a media target. */
export function mediaRoutes(parse: (params: Params) => MediaTarget | { error: 'badId' | 'badLang' }): { GET: APIRoute; HEAD: APIRoute; ALL: APIRoute } {
  const answer = async ({ request, url, params, locals }: APIContext, method: 'GET' | 'HEAD'): Promise<Response> => {
    const locale = requestLocale(url, request.headers);
    const target = parse(params);
    if ('error' in target) return textAnswer(400, messages(locale).media[target.error], locale, method);
    // The production server hands over a drain signal so slow clients pace the reading (server/app.ts).
    return serveMedia(locals.runtime.store, locals.identity, target, { ...mediaAsk(method, request.headers), locale, ready: locals.clientReady }, resolve(locals.runtime.config.mediaDir), locals.runtime.storage);
  };
  return {
    GET: (ctx) => answer(ctx, 'GET'),
    HEAD: (ctx) => answer(ctx, 'HEAD'),
    ALL: ({ url, request }) => methodNotAllowed(requestLocale(url, request.headers)),
  };
}
