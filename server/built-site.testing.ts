/**
 * For tests of the built site (`npm run build`) in this process: the compiled Astro handler behind the
 * production server, on a seeded copy of the test database, listening on a free port of 127.0.0.1; and
 * the ways a test reaches it as a person: logged in through the login action (a session cookie for
 * `fetch`), or as a browser of its own loopback address with its own cookie jar (`Client`).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AddressInfo } from 'node:net';
import type { DbHandle } from '../src/lib/db/client';
import { testDatabases } from '../src/lib/db/testing';
import { testRuntime } from '../src/lib/testing/runtime';
import { stockMedia } from '../src/lib/media/stock.server';
import type { Runtime } from '../src/lib/runtime/runtime.server';
import { Client } from '../tests/e2e/support/http';
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
  /** Logs a person in through the login action, as the site's script does: the Cookie header of their session. */
  logIn(email: string, password: string, lang?: string): Promise<string>;
  /** GET `path` with `cookie` (none: a visitor), redirects not followed. */
  get(path: string, cookie?: string): Promise<Response>;
  /** A browser of its own loopback address (127.0.0.x: its own per-address limits), closed with the site. */
  client(): Client;
  /** `client()`, logged in through the login action. */
  loggedInClient(email: string, password: string, lang?: string): Promise<Client>;
  close(): Promise<void>;
}

/** The cookies an answer sets, as the value of a Cookie header (`session=…; cart=…`). */
export function cookiesOf(answer: Response): string {
  return answer.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

/** The first loopback address's last byte a site's clients take (127.0.0.1 is the test's own `fetch`). */
const FIRST_CLIENT = 10;

/** Serves the built site on a seeded database copy (production settings, and `env`'s). */
export async function startBuiltSite(opts: { env?: Record<string, string> } = {}): Promise<BuiltSite> {
  const db = await (await testDatabases())[0]!.create({ seed: true });
  const runtime = await testRuntime(db, { env: { NODE_ENV: 'production', ...opts.env } });
  // As a started server does: the lesson media of the media folder are copied into its storage.
  await stockMedia(runtime.db, runtime.storage, resolve(runtime.config.mediaDir));
  const { handler } = (await import(/* @vite-ignore */ pathToFileURL(entry).href)) as { handler: AstroHandler };
  const site = createApp({ runtime, astroHandler: handler, clientDir: join(dist, 'client'), policies: loadPagePolicies(dist) });
  await new Promise<void>((r) => site.server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(site.server.address() as AddressInfo).port}`;
  const clients: Client[] = [];
  const client = () => {
    const last = FIRST_CLIENT + clients.length;
    if (last > 254) throw new Error('out of loopback addresses for clients');
    const c = new Client(base, `127.0.0.${last}`);
    clients.push(c);
    return c;
  };
  return {
    base,
    site,
    runtime,
    db,
    logIn: async (email, password, lang = 'es') => {
      const answer = await fetch(`${base}/_actions/auth.login`, {
        method: 'POST',
        headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email, password, lang }),
      });
      if (answer.status !== 200) throw new Error(`${email} could not log in (${answer.status}): ${await answer.text()}`);
      return cookiesOf(answer);
    },
    get: (path, cookie) => fetch(base + path, { headers: cookie ? { cookie } : {}, redirect: 'manual' }),
    client,
    loggedInClient: async (email, password, lang = 'es') => {
      const c = client();
      const answer = await c.post('/_actions/auth.login', { form: { email, password, lang } });
      if (answer.status !== 200) throw new Error(`${email} could not log in (${answer.status}): ${answer.body}`);
      return c;
    },
    close: async () => {
      for (const c of clients) c.close();
      await site.close(2000);
      await runtime.close();
      await db.close();
    },
  };
}
