/**
 * Step: a failure of any later step or of the page is logged once with the request id; the database
 * out of reach answers "busy" (an action in its caller's shape, a page with the busy page); anything
 * else goes on to Astro's server-error page, which shows the request id.
 */
import type { MiddlewareHandler } from 'astro';
import { actionRequest } from '~/lib/http/action-answer';
import { databaseBusy } from '~/lib/db/unavailable';
import { splitLocale } from '~/lib/paths';
import { busyAction, busyPage } from './busy';
import { logOnce } from './log-once';
import { passOf } from './pass';

export const failures: MiddlewareHandler = async (ctx, next) => {
  // An action's input as posted, kept to answer a failure in the language it names.
  const input = actionRequest(ctx.request.method, ctx.url) && !ctx.request.bodyUsed ? ctx.request.clone() : null;
  passOf(ctx).input = input;
  try {
    return await next();
  } catch (err) {
    logOnce(ctx, err, 'page');
    // An action (its session could not be checked, say) is answered in its caller's shape.
    if (input && databaseBusy(err)) return busyAction(ctx, input, err);
    // A page the database could not serve gets the busy page, rendered from here: thrown on, Astro would
    // log it again, stack and all, for every request of an outage (the outage watch tells it once).
    if (databaseBusy(err)) return busyPage(ctx, err, splitLocale(ctx.originPathname).locale);
    throw err;
  }
};
