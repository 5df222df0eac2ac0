/**
 * What one pass of the middleware learns in one step and reads in a later one. An English page passes
 * twice (as `/en/…`, then rewritten to the Spanish route) and the error page again: each pass has its own.
 */
import type { APIContext } from 'astro';

export interface Pass {
  /** An action's input as posted, copied before anything reads the body, to answer a failure in the language it names. */
  input: Request | null;
  /** The session cookie was forged, expired or revoked and is being dropped: nothing is kept or answered from the cache. */
  droppedCookie: boolean;
}

const passes = new WeakMap<APIContext, Pass>();

/** This pass's state (created on first use). */
export function passOf(ctx: APIContext): Pass {
  let pass = passes.get(ctx);
  if (!pass) {
    pass = { input: null, droppedCookie: false };
    passes.set(ctx, pass);
  }
  return pass;
}
