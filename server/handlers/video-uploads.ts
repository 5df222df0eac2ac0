/**
 * Handler: the resumable video uploads (tus) of the library, answered before Astro with the same rules
 * as its actions: a known Host (checked earlier), same-site changes only, a session whose account holds
 * the editor role with a proved second factor (`accessVerdict`, the one policy), an upload id only for
 * the person who created it (a forged id: 404; another person's: 403), and a limit on new uploads per
 * account. Refusals are sentences in the uploader's language.
 */
import type { Server as TusServer } from '@tus/server';
import type { Runtime } from '../../src/lib/runtime/runtime.server';
import { accessRefusalStatus, accessVerdict, callerOf } from '../../src/lib/access/policy';
import { crossSiteMutation } from '../../src/lib/http/csrf';
import { requestOrigin } from '../../src/lib/http/origin';
import { SESSION_COOKIE } from '../../src/lib/http/page-cache';
import { cookieValue } from '../../src/lib/http/cookies';
import { minutesToWait } from '../../src/lib/http/action-limits';
import { messages, plural } from '../../src/i18n';
import { paths } from '../../src/lib/paths';
import { LOCALE_HEADER, UPLOADER_HEADER, createUploadServer } from '../../src/lib/videos/uploads.server';
import { UPLOAD_ID, uploadOwner } from '../../src/lib/videos';
import { answerLanguage, plainAnswer } from './answers';
import { encrypted } from './host';
import type { Handler } from './exchange';

const PREFIX = paths.videoUploads;

/** The upload id of an address under the endpoint (`undefined`: the endpoint itself). */
function idOf(pathname: string): string | undefined | null {
  if (pathname === PREFIX || pathname === `${PREFIX}/`) return undefined;
  if (!pathname.startsWith(`${PREFIX}/`)) return null;
  return pathname.slice(PREFIX.length + 1);
}

export function videoUploads(runtime: Runtime, opts: { queued?: (videoId: number) => void } = {}): Handler {
  let tus: TusServer | null = null;
  return async ({ req, res, url }) => {
    const id = idOf(url.pathname);
    if (id === null) return false;
    const locale = answerLanguage(req, url);
    const t = messages(locale);
    const method = (req.headers['x-http-method-override'] as string | undefined)?.toUpperCase() ?? req.method ?? 'GET';
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    if (crossSiteMutation(method, headers, requestOrigin(req.headers, encrypted(req), runtime.config.trustProxy))) {
      plainAnswer(res, 403, t.crossSite, locale);
      return true;
    }
    const session = await runtime.sessions.read(cookieValue(req.headers.cookie, SESSION_COOKIE));
    const verdict = accessVerdict('editor', callerOf(session));
    if (verdict !== 'allowed' || !session?.user) {
      const status = verdict === 'allowed' ? 401 : accessRefusalStatus(verdict);
      plainAnswer(res, status, status === 401 ? t.videos.refusals.login : t.videos.refusals.forbidden, locale);
      return true;
    }
    const userId = session.user.id;
    if (id !== undefined) {
      const owner = UPLOAD_ID.test(id) ? await uploadOwner(runtime.db, id) : null;
      if (!owner) {
        plainAnswer(res, 404, t.videos.refusals.unknownUpload, locale);
        return true;
      }
      if (owner.ownerId !== userId) {
        plainAnswer(res, 403, t.videos.refusals.notYours, locale);
        return true;
      }
    } else if (method === 'POST') {
      const hit = await runtime.rateLimiter.hit('videoUploadsPerAccount', `user:${userId}`);
      if (!hit.ok) {
        res.setHeader('Retry-After', String(hit.retryAfterSeconds));
        plainAnswer(res, 429, plural(locale, t.videos.refusals.tooMany, minutesToWait(hit.retryAfterSeconds)), locale);
        return true;
      }
    }
    // Only this handler says who uploads, and in which language (the upload server reads the raw headers).
    const own = new Set([UPLOADER_HEADER, LOCALE_HEADER]);
    const kept: string[] = [];
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) if (!own.has(req.rawHeaders[i]!.toLowerCase())) kept.push(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    req.rawHeaders.splice(0, req.rawHeaders.length, ...kept, UPLOADER_HEADER, String(userId), LOCALE_HEADER, locale);
    req.headers[UPLOADER_HEADER] = String(userId);
    req.headers[LOCALE_HEADER] = locale;
    tus ??= createUploadServer({ db: runtime.db, config: runtime.config, storage: runtime.storage, workerId: runtime.workerId, logger: runtime.logger, queued: opts.queued });
    res.setHeader('Cache-Control', 'no-store');
    await tus.handle(req, res);
    return true;
  };
}
