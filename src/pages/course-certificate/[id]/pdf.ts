/**
 * The logged-in person's certificate as a printable PDF, in the language `lang` names (the page's),
 * downloaded as an attachment. 404 (in that language) when they hold no certificate of that course;
 * the middleware sends visitors and IBO sessions to the login page.
 */
import type { APIRoute } from 'astro';
import { catalogContext } from '~/lib/app.server';
import { certificateFacts, certificatePdf, loadOwnCertificate } from '~/lib/certificates';
import { messages, toLocale } from '~/i18n';
import { slug } from '~/lib/paths';

export const prerender = false;

export const GET: APIRoute = async ({ params, url, locals }) => {
  const locale = toLocale(url.searchParams.get('lang') ?? undefined);
  const t = messages(locale);
  const { db, catalog, viewer } = await catalogContext(locals);
  const found = await loadOwnCertificate(db, catalog, viewer, params.id);
  if (!found) return new Response(t.notFound.message, { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Language': locale, 'Cache-Control': 'private, no-store' } });
  const facts = certificateFacts(found.certificate, found.course, locale, locals.runtime.siteOrigin(url), t.meta.siteName);
  const pdf = await certificatePdf(facts);
  const name = `${locale === 'en' ? 'certificate' : 'certificado'}-${slug(facts.courseName)}.pdf`;
  return new Response(new Uint8Array(pdf), {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="${name}"`,
      'Content-Language': locale,
      'Cache-Control': 'private, no-store',
    },
  });
};
