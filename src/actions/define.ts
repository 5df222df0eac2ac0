/**
 * `defineAction` for every action of the academy: Astro's, with one addition. An action that fails
 * because the database did not answer in time (every connection busy, PostgreSQL restarting), or whose
 * transaction kept colliding with another's (a deadlock outlasting its retries), throws
 * `DatabaseBusy` instead, which the middleware answers with 503 and "busy, try again in a few seconds"
 * in the reader's language, rather than 500. Astro itself would keep only the error's message, and a
 * failed query's message does not say why it failed (the driver's error is its cause).
 */
import { ActionError, defineAction as astroDefineAction, type ActionAPIContext } from 'astro:actions';
import { databaseBusy } from '~/lib/db/unavailable';

/** An action refused because the database could not be reached in time; its message is for the log only. */
export class DatabaseBusy extends ActionError {}

/** The messages of an error and its causes, for the log. */
function describe(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 6; e = e.cause, depth++) parts.push(e.message);
  return parts.join(' ← ');
}

type Handler = (input: unknown, ctx: ActionAPIContext) => unknown;

export const defineAction = ((options: { handler: Handler }) =>
  astroDefineAction({
    ...options,
    handler: async (input: unknown, ctx: ActionAPIContext) => {
      try {
        return await options.handler(input, ctx);
      } catch (err) {
        // The driver's error stays its cause: the outage watch recognises it (and logs it once per outage).
        if (!(err instanceof ActionError) && databaseBusy(err)) throw Object.assign(new DatabaseBusy({ code: 'SERVICE_UNAVAILABLE', message: describe(err) }), { cause: err });
        throw err;
      }
    },
  } as never)) as unknown as typeof astroDefineAction;
