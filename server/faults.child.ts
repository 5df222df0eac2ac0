/**
 * Fault-test fixture (`server/faults.test.ts`): the production server without the Astro build, i.e.
 * the `node:http` server of `app.ts` with socket.io and the progress tracker, on the database that
 * `DATABASE_URL` / `DATA_DIR` name (migrated, and seeded when new, as `npm run serve` does).
 *
 * With `FAULTS_VIEWERS=N` it first adds N learners with a session each and prints
 * `fixture { "viewers": [{ "token", "contactId" }, …], "lessons": [lesson ids of course 1] }`. Then it
 * prints `listening <port>` once it listens on 127.0.0.1 (port `PORT`, 0 for any). SIGTERM stops it
 * cleanly.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { readConfig } from '../src/lib/config/config';
import type { Db } from '../src/lib/db/client';
import { createRuntime } from '../src/lib/runtime/runtime.server';
import * as s from '../src/lib/db/schema';
import { hashToken, newToken } from '../src/lib/identity/session.server';
import { loadCatalog } from '../src/lib/catalog/catalog.server';
import { createApp } from './app';
import { fail, prepareDatabase } from './index';

/** Adds `count` learners (user, contact, one-hour session) and returns their session tokens and contacts. */
async function addViewers(db: Db, count: number): Promise<{ token: string; contactId: number }[]> {
  const users = await db
    .insert(s.users)
    .values(Array.from({ length: count }, (_, i) => ({ email: `faults${i}@test.example`, firstName: 'Fault', lastName: String(i) })))
    .returning({ id: s.users.id, email: s.users.email });
  const contacts = await db
    .insert(s.contacts)
    .values(users.map((u) => ({ userId: u.id, firstName: 'Fault', lastName: u.email, email: u.email })))
    .returning({ id: s.contacts.id, userId: s.contacts.userId });
  const tokens = users.map(() => newToken());
  const expiresAt = new Date(Date.now() + 3600_000);
  await db.insert(s.sessions).values(users.map((u, i) => ({ tokenHash: hashToken(tokens[i]!), kind: 'user' as const, userId: u.id, expiresAt })));
  const contactOf = new Map(contacts.map((c) => [c.userId, c.id]));
  return users.map((u, i) => ({ token: tokens[i]!, contactId: contactOf.get(u.id)! }));
}

try {
  const config = readConfig();
  const handle = await prepareDatabase(config);
  const runtime = await createRuntime(config, { database: handle });
  const viewers = Number(process.env.FAULTS_VIEWERS ?? 0);
  if (viewers > 0) {
    const lessons = (await loadCatalog(handle.db)).byId.get(1)!.modules.flatMap((m) => m.lessons.map((l) => l.id));
    console.log(`fixture ${JSON.stringify({ viewers: await addViewers(handle.db, viewers), lessons })}`);
  }
  // No built site: an empty client folder inside the data folder (which the test removes).
  const clientDir = join(config.dataDir, 'client');
  mkdirSync(clientDir, { recursive: true });
  const app = createApp({ runtime, astroHandler: (_req, _res, next) => next?.(), clientDir });
  await new Promise<void>((resolve) => app.server.listen(config.port, '127.0.0.1', resolve));
  console.log(`listening ${(app.server.address() as AddressInfo).port}`);
  process.once('SIGTERM', async () => {
    await app.close(2000);
    await runtime.close();
    await handle.close();
    process.exit(0);
  });
} catch (err) {
  fail(err);
}
