/**
 * The logged-in person's certificate as its signed Open Badges 3.0 credential (a VC-JWT, EdDSA),
 * downloaded as an attachment: the one kept with the certificate, which anyone can check with the
 * published keys (`/.well-known/jwks.json`). 404 when they hold no certificate of that course.
 */
import type { APIRoute } from 'astro';
import { catalogContext } from '~/lib/app.server';
import { certificateCredential, loadOwnCertificate, signCertificate } from '~/lib/certificates';
import { messages, toLocale } from '~/i18n';

export const prerender = false;

export const GET: APIRoute = async ({ params, url, locals }) => {
  const locale = toLocale(url.searchParams.get('lang') ?? undefined);
  const t = messages(locale);
  const { db, catalog, viewer } = await catalogContext(locals);
  const found = await loadOwnCertificate(db, catalog, viewer, params.id);
  if (!found) return new Response(t.notFound.message, { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Language': locale, 'Cache-Control': 'private, no-store' } });
  const { runtime } = locals;
  const jwt = await certificateCredential(db, found.certificate, () =>
    signCertificate(found.certificate, { signingKey: runtime.signingKey, origin: runtime.siteOrigin(url), locale, course: found.course, issuerName: t.meta.siteName }),
  );
  return new Response(jwt, {
    headers: {
      'Content-Type': 'application/vc+jwt',
      'Content-Disposition': `attachment; filename="${found.certificate.code}.jwt"`,
      'Cache-Control': 'private, no-store',
    },
  });
};
