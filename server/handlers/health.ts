/** Handler: `/healthz` and `/readyz` after checking the database; load balancers and orchestrators learn only up or down (why a check failed goes to the log). */
import { sql } from 'drizzle-orm';
import type { Runtime } from '../../src/lib/runtime/runtime.server';
import { healthAnswer } from './answers';
import type { Handler } from './exchange';

/** True for the health check paths. */
export function healthPath(url: URL): boolean {
  return url.pathname === '/healthz' || url.pathname === '/readyz';
}

export function health(runtime: Runtime): Handler {
  return async ({ res, url }) => {
    if (!healthPath(url)) return false;
    await runtime.db.execute(sql`select 1`);
    healthAnswer(res, 'up');
    return true;
  };
}
