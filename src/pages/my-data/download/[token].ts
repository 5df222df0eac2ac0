/**
 * An archive of one's data (`/my-data/download/{token}`, the link mailed when it is ready): served only
 * to the session of the account it belongs to, while the link is valid. Someone else's link, a forged
 * or unknown one: 404; an expired one: 410; each with a sentence in the link's language. The middleware
 * sends visitors and IBO sessions to the login page, which brings them back.
 */
import { Readable } from 'node:stream';
import type { APIRoute } from 'astro';
import { messages, toLocale } from '~/i18n';
import { exportForDownload } from '~/lib/privacy';
import { splitLocale } from '~/lib/paths';

export const prerender = false;

export const GET: APIRoute = async ({ params, url, locals }) => {
  const locale = toLocale(url.searchParams.get('lang') ?? splitLocale(url.pathname).locale);
  const t = messages(locale).myData.download;
  const userId = locals.identity?.userId ?? null;
  const { db, storage } = locals.runtime;
  const found = userId === null ? { state: 'missing' as const } : await exportForDownload(db, storage, params.token ?? '', userId);
  const headers = { 'Content-Language': locale, 'Cache-Control': 'private, no-store', 'Referrer-Policy': 'no-referrer' };
  // Gone from the storage since it was asked about: as if it had never been there.
  const read = found.state === 'ready' && found.stored ? await storage.get(found.stored.key) : null;
  if (!read) {
    const status = found.state === 'expired' ? 410 : 404;
    return new Response(status === 410 ? t.expired : t.notFound, { status, headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8' } });
  }
  return new Response(Readable.toWeb(read.body as Readable) as ReadableStream, {
    headers: { ...headers, 'Content-Type': 'application/zip', 'Content-Length': String(read.object.sizeBytes), 'Content-Disposition': `attachment; filename="my-data-${found.exportId}.zip"` },
  });
};
