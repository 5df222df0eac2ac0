/**
 * A published course as one archive (`application/zip`: `course.json` and the media it uses under
 * `media/`), streamed: each stored file is read from the storage when its turn comes, never all at once.
 * For editors. Refusals are sentences in the language `lang` names: 401 without a logged-in account, 403
 * without the editor role (or its second factor proved), 404 for a course that does not exist, 409 when a
 * file of the course is missing from the storage (checked before the first byte is sent).
 */
import type { APIRoute } from 'astro';
import { format, messages, toLocale } from '~/i18n';
import { staffGate } from '~/lib/staff';
import { archiveStream, auditExport, courseArchive, discardExport, webStream } from '~/lib/course-archive/export.server';

export const prerender = false;

const text = (body: string, status: number, locale: string) =>
  new Response(body, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Language': locale, 'Cache-Control': 'private, no-store' } });

export const GET: APIRoute = async ({ params, url, locals }) => {
  const locale = toLocale(url.searchParams.get('lang') ?? undefined);
  const t = messages(locale);
  const gate = staffGate(locals.session, 'editor');
  if (gate === 'login') return text(t.refusals.login, 401, locale);
  if (gate !== 'allowed') return text(t.refusals.forbidden, 403, locale);
  const courseId = /^[1-9]\d{0,9}$/.test(params.id ?? '') && Number(params.id) <= 2_147_483_647 ? Number(params.id) : 0;
  const { db, storage } = locals.runtime;
  const outcome = courseId > 0 ? await courseArchive(db, storage, courseId) : ({ status: 'unknownCourse' } as const);
  if (outcome.status === 'unknownCourse') return text(t.courseArchive.unknownCourse, 404, locale);
  if (outcome.status === 'missingMedia') return text(format(t.courseArchive.missingMedia, { key: outcome.key }), 409, locale);
  await auditExport(db, locals.session!.user!.id, courseId, outcome.files.length).catch(async (err: unknown) => {
    await discardExport(outcome);
    throw err;
  });
  const name = outcome.archive.course.code.replace(/[^A-Za-z0-9-]/g, '') || `course-${courseId}`;
  return new Response(webStream(archiveStream(storage, outcome), () => discardExport(outcome)), {
    headers: {
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="${name}.zip"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
};
