/**
 * A published revocation list of the certificates' credentials (`/credentials/status/{list}`): a W3C
 * `BitstringStatusListCredential` signed as a VC-JWT with the academy's key, a 1 at the bit of each
 * revoked certificate. Kept a minute per process and dropped by any revocation; verifiers may keep it
 * as long (`ttl`, `Cache-Control`). A list number that is not one: 404.
 */
import type { APIRoute } from 'astro';
import { buildStatusList, certificateUrls, parseStatusList } from '~/lib/certificates';
import { messages, toLocale } from '~/i18n';
import { STATUS_LIST_TTL_SECONDS } from '~/lib/certificates/status-list';

export const prerender = false;

export const GET: APIRoute = async ({ params, url, locals }) => {
  const list = parseStatusList(params.list);
  if (list === null) {
    const locale = toLocale(url.searchParams.get('lang') ?? undefined);
    return new Response(messages(locale).notFound.message, { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Language': locale, 'Cache-Control': 'no-store' } });
  }
  const { runtime } = locals;
  const origin = runtime.siteOrigin(url);
  const version = runtime.catalog.version;
  const now = Date.now();
  const jwt = await runtime.statusLists.get(`${origin} ${list}`, version, now, () =>
    buildStatusList({ db: runtime.db, signingKey: runtime.signingKey, origin, issuerId: certificateUrls(origin, 0, '').issuer }, list, now),
  );
  return new Response(jwt, {
    headers: { 'Content-Type': 'application/vc+jwt', 'Cache-Control': `public, max-age=${STATUS_LIST_TTL_SECONDS}`, 'Access-Control-Allow-Origin': '*' },
  });
};
