/**
 * For tests of the built site (`npm run build`) in this process: the compiled Astro handler behind the
 * production server, on a seeded copy of the test database, listening on a free port of 127.0.0.1.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AddressInfo } from 'node:net';
import type { DbHandle } from '../src/lib/db/client';
import { testDatabases } from '../src/lib/db/testing';
import { testRuntime } from '../src/lib/testing/runtime';
import type { Runtime } from '../src/lib/runtime/runtime.server';
import { createApp, type App, type AstroHandler } from './app';
import { loadPagePolicies } from './static';

const dist = resolve('dist');
const entry = join(dist, 'server/entry.mjs');

/** Whether there is a build to serve. */
export const siteBuilt = existsSync(entry);

export interface BuiltSite {
  base: string;
  site: App;
  runtime: Runtime;
  db: DbHandle;
  close(): Promise<void>;
}

/** Serves the built site on a seeded database copy (production settings, and `env`'s). */
export async function startBuiltSite(opts: { env?: Record<string, string> } = {}): Promise<BuiltSite> {
  const db = await (await testDatabases())[0]!.create({ seed: true });
  const runtime = await testRuntime(db, { env: { NODE_ENV: 'production', ...opts.env } });
  const { handler } = (await import(/* @vite-ignore */ pathToFileURL(entry).href)) as { handler: AstroHandler };
  const site = createApp({ runtime, astroHandler: handler, clientDir: join(dist, 'client'), policies: loadPagePolicies(dist) });
  await new Promise<void>((r) => site.server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(site.server.address() as AddressInfo).port}`;
  return {
    base,
    site,
    runtime,
    db,
    close: async () => {
      await site.close(2000);
      await runtime.close();
      await db.close();
    },
  };
}
