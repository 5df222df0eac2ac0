/** The QR code of the IBO's link as a PNG download (owners of an active IBO; see `qrAnswer`): GET /mybusiness/qr.png?lang=es|en. */
import type { APIRoute } from 'astro';
import { qrAnswer } from '~/lib/business';

export const prerender = false;

export const GET: APIRoute = ({ url, request, locals }) =>
  qrAnswer({ url, headers: request.headers, session: locals.session, db: locals.runtime.db, origin: locals.runtime.siteOrigin(url) }, 'png');
