/**
 * Step: a posted action (RPC `/_actions/…` or a form's `?_action=`) runs here, so that an unexpected
 * failure never reaches the browser: Astro would answer with the error's own message (SQL and its
 * parameters included). It is logged with the request id and replaced by a sentence quoting that id;
 * the database out of reach answers "busy". Astro's action functions come as a parameter (`index.ts`),
 * so the step runs without Astro in its tests.
 */
import type { MiddlewareHandler, APIContext } from 'astro';
import type { ActionError, getActionContext } from 'astro:actions';
import type { DatabaseBusy } from '../actions/define';
import { unexpectedErrorMessage } from '~/lib/http/errors';
import { BUSY_RETRY_AFTER_SECONDS, databaseBusy } from '~/lib/db/unavailable';
import { messages } from '~/i18n';
import { actionLanguage, busyAction } from './busy';
import { answerLanguage } from './locale';
import { logOnce } from './log-once';
import { passOf } from './pass';

/** What the step needs of Astro's actions and the academy's `defineAction`. */
export interface AstroActions {
  getActionContext: typeof getActionContext;
  ActionError: typeof ActionError;
  DatabaseBusy: typeof DatabaseBusy;
}

/** False for a JSON request whose body is not JSON (the only body Astro fails on with a 500). */
async function readableBody(request: Request): Promise<boolean> {
  const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') return true;
  const text = await request.clone().text();
  if (text === '') return true;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

type ActionResult = Awaited<ReturnType<NonNullable<ReturnType<typeof getActionContext>['action']>['handler']>>;

/** Runs the posted action, if any: its answer (RPC, or a failure), or `undefined` to render the page with its result. */
async function runAction(astro: AstroActions, ctx: APIContext, input: Request | null): Promise<Response | undefined> {
  const { ActionError, DatabaseBusy } = astro;
  const { action, setActionResult, serializeActionResult } = astro.getActionContext(ctx);
  if (!action) return undefined;
  let result: ActionResult;
  let failure: unknown = null;
  if (action.calledFrom === 'rpc' && !(await readableBody(ctx.request))) {
    // Astro would answer a body it cannot parse with a 500 (malformed JSON) or an empty 415.
    result = { data: undefined, error: new ActionError({ code: 'BAD_REQUEST', message: messages(answerLanguage(ctx)).unreadableBody }) };
  } else {
    try {
      result = await action.handler();
      // Astro turns anything an action throws, other than an ActionError, into this code.
      if (result.error?.code === 'INTERNAL_SERVER_ERROR' || result.error instanceof DatabaseBusy) failure = result.error;
      else if (result.error?.code === 'CONTENT_TOO_LARGE' && /^Request body exceeds/.test(result.error.message)) {
        // Astro refused the body by its size (`security.actionBodySizeLimit`) before reading it: say so in words.
        result = { data: undefined, error: new ActionError({ code: 'CONTENT_TOO_LARGE', message: messages(answerLanguage(ctx)).bodyTooLarge }) };
      } else if (result.error?.code === 'UNSUPPORTED_MEDIA_TYPE' && (!result.error.message || /^This action only accepts/.test(result.error.message))) {
        // Astro's own (English, or none); a refused photo's sentence is already the person's language.
        result = { data: undefined, error: new ActionError({ code: 'UNSUPPORTED_MEDIA_TYPE', message: messages(answerLanguage(ctx)).unreadableBody }) };
      }
    } catch (err) {
      failure = err;
    }
  }
  if (failure !== null) {
    logOnce(ctx, failure, `action ${action.name}`);
    // The database not answering in time (every connection busy, PostgreSQL restarting) is no fault of
    // the request: 503, "busy, try again in a few seconds", rather than 500.
    if (failure instanceof DatabaseBusy || databaseBusy(failure)) return busyAction(ctx, input, failure);
    result = { data: undefined, error: new ActionError({ code: 'INTERNAL_SERVER_ERROR', message: unexpectedErrorMessage(await actionLanguage(ctx, input), ctx.locals.requestId ?? '-') }) };
  }
  const serialized = serializeActionResult(result!);
  if (action.calledFrom === 'rpc') {
    if (serialized.type === 'empty') return new Response(null, { status: serialized.status });
    const retryAfter = serialized.status === 503 ? BUSY_RETRY_AFTER_SECONDS : serialized.status === 429 ? ctx.locals.retryAfterSeconds : undefined;
    const retry: Record<string, string> = retryAfter !== undefined ? { 'Retry-After': String(retryAfter) } : {};
    return new Response(serialized.body, { status: serialized.status, headers: { 'Content-Type': serialized.contentType, 'Cache-Control': 'no-store', ...retry } });
  }
  setActionResult(action.name, serialized);
  return undefined;
}

/** The step, with Astro's action functions. */
export function actions(astro: AstroActions): MiddlewareHandler {
  return async (ctx, next) => {
    if (ctx.request.method === 'POST') {
      const answer = await runAction(astro, ctx, passOf(ctx).input);
      if (answer) return answer;
    }
    return next();
  };
}
