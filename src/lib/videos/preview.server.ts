/**
 * The editors' preview of a library video: its HLS files, poster and caption tracks from storage, only
 * for a session holding the editor role with a proved second factor (a learner or a visitor gets the
 * refusal in words). Nothing here is reachable by a guessable public path.
 */
import type { APIContext, APIRoute } from 'astro';
import { messages } from '~/i18n';
import { accessRefusalStatus, accessVerdict, callerOf } from '../access/policy';
import { requestLocale } from '../http/locale';
import { mediaAsk, methodNotAllowed, resourceIdSchema, textAnswer, HLS_PATH } from '../media/media';
import { serveStored } from '../media/media.server';
import { previewFacts } from './videos.server';

/** The storage key and type of a preview file's name, or null for any other name. */
export function previewFile(videoId: number, file: string): { key: string; mimeType: string } | null {
  if (HLS_PATH.test(file)) return { key: `videos/${videoId}/${file}`, mimeType: file.endsWith('.ts') ? 'video/mp2t' : 'application/vnd.apple.mpegurl' };
  if (file === 'poster.jpg') return { key: `videos/${videoId}/poster.jpg`, mimeType: 'image/jpeg' };
  const caption = /^captions-(es|en)\.vtt$/.exec(file);
  return caption ? { key: `videos/${videoId}/${file}`, mimeType: 'text/vtt' } : null;
}

/** The GET, HEAD and ALL handlers of `/media/video/{id}/{file}`. */
export function previewRoutes(): { GET: APIRoute; HEAD: APIRoute; ALL: APIRoute } {
  const answer = async ({ request, url, params, locals }: APIContext, method: 'GET' | 'HEAD'): Promise<Response> => {
    const locale = requestLocale(url, request.headers);
    const t = messages(locale);
    const verdict = accessVerdict('editor', callerOf(locals.session));
    if (verdict !== 'allowed') return textAnswer(accessRefusalStatus(verdict), verdict === 'unauthorized' ? t.videos.refusals.login : t.videos.refusals.forbidden, locale, method);
    const id = resourceIdSchema.safeParse(params.id);
    if (!id.success) return textAnswer(400, t.media.badId, locale, method);
    const file = previewFile(id.data, String(params.file ?? ''));
    const facts = file ? await previewFacts(locals.runtime.db, id.data) : null;
    if (!file || !facts || !facts.ready) return textAnswer(404, t.media.notFound, locale, method);
    return serveStored(locals.runtime.storage, file.key, file.mimeType, { ...mediaAsk(method, request.headers), locale, ready: locals.clientReady });
  };
  return {
    GET: (ctx) => answer(ctx, 'GET'),
    HEAD: (ctx) => answer(ctx, 'HEAD'),
    ALL: ({ url, request }) => methodNotAllowed(requestLocale(url, request.headers)),
  };
}
