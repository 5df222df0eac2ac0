/** The caller's IBO commission statement of a month as a PDF (owners of an active IBO; see `statementAnswer`): GET /mybusiness/statements/2026-05.pdf?lang=es|en. */
import type { APIRoute } from 'astro';
import { statementAnswer } from '~/lib/commissions/statement.server';

export const prerender = false;

export const GET: APIRoute = ({ url, request, locals, params }) => statementAnswer({ url, headers: request.headers, session: locals.session, db: locals.runtime.db, month: params.month }, 'pdf');
