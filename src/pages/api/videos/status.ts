/** The state of the library's videos as JSON, for the editors' library page while videos convert: GET /api/videos/status?lang=es|en. */
import type { APIRoute } from 'astro';
import { format, messages } from '~/i18n';
import { accessRefusalStatus, accessVerdict, callerOf } from '~/lib/access/policy';
import { requestLocale } from '~/lib/http/locale';
import { clock, videoStatuses } from '~/lib/videos';

export const prerender = false;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', Vary: 'Cookie' } });

export const GET: APIRoute = async ({ url, request, locals }) => {
  const locale = requestLocale(url, request.headers);
  const t = messages(locale).videos;
  const verdict = accessVerdict('editor', callerOf(locals.session));
  if (verdict !== 'allowed') return json({ error: verdict === 'unauthorized' ? t.refusals.login : t.refusals.forbidden }, accessRefusalStatus(verdict));
  const rows = await videoStatuses(locals.runtime.db);
  return json({
    at: new Date().toISOString(),
    videos: rows.map((v) => ({
      id: v.id,
      title: v.title,
      state: v.state,
      progress: v.progress,
      mediaFileId: v.mediaFileId,
      duration: v.durationSeconds === null ? null : clock(v.durationSeconds),
      label: v.state === 'failed' ? format(t.states.failed, { reason: t.failures[(v.failure ?? 'transcode') as keyof typeof t.failures] ?? t.failures.transcode }) : format(t.states[v.state], { percent: v.progress }),
    })),
  });
};
