/** The academy as an Open Badges 3.0 issuer (`Profile`): the `issuer.id` every certificate's credential names. */
import type { APIRoute } from 'astro';
import { issuerProfile } from '~/lib/certificates';
import { messages } from '~/i18n';
import { site } from '~/lib/site';

export const prerender = false;

export const GET: APIRoute = ({ url, locals }) =>
  new Response(JSON.stringify(issuerProfile(locals.runtime.siteOrigin(url), messages('es').meta.siteName, site.email)), {
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=3600', 'Access-Control-Allow-Origin': '*' },
  });
