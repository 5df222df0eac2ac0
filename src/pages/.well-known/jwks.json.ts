/** The public keys certificates are signed with (JSON Web Key Set): anyone checks a credential with these alone. */
import type { APIRoute } from 'astro';
import { jwks } from '~/lib/certificates';

export const prerender = false;

export const GET: APIRoute = ({ locals }) =>
  new Response(JSON.stringify(jwks([locals.runtime.signingKey.publicJwk])), {
    headers: { 'Content-Type': 'application/jwk-set+json', 'Cache-Control': 'public, max-age=300', 'Access-Control-Allow-Origin': '*' },
  });
