/**
 * A suspension takes effect on every process at once. Two runtimes (two app processes) on one
 * PostgreSQL database and its bus (LISTEN/NOTIFY); process B holds an IBO session in its cache (kept for
 * a minute). The IBO is suspended through process A, which tells its change as the action kit does:
 * B refuses the session within a notice's time, and B's affiliate link and typed code refuse the code.
 * Reinstated through A, the code opens again on B. Skipped, saying why, without PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createPostgresDatabase, postgresAvailable } from '../db/testing';
import { openDatabase, type DbHandle } from '../db/client';
import * as s from '../db/schema';
import { createSession } from '../identity/session.server';
import { checkIboCode, enterThroughLink } from '../identity/ibo.server';
import { testRuntime } from '../testing/runtime';
import { tellChanges } from '../runtime/changes';
import type { Runtime } from '../runtime/runtime.server';
import { saveIbo, setIboStatus } from './ibos.server';

const pgUp = await postgresAvailable();
if (!pgUp) console.warn('The suspension-on-every-process test is skipped: it needs PostgreSQL.');

/** A notice is heard in milliseconds; the kept session would otherwise be believed for a minute. */
const NOTICE_MS = 5_000;

describe.skipIf(!pgUp)('an IBO suspended through one process', () => {
  let database: { url: string; drop(): Promise<void> };
  const handles: DbHandle[] = [];
  const runtimes: Runtime[] = [];
  let a: Runtime;
  let b: Runtime;
  let adminId: number;
  let iboId: number;

  beforeAll(async () => {
    database = await createPostgresDatabase({ prefix: 'academy_ibo_suspension', from: 'seeded' });
    for (let i = 0; i < 2; i++) {
      const handle = await openDatabase({ databaseUrl: database.url, dataDir: 'unused' });
      handles.push(handle);
      runtimes.push(await testRuntime(handle, { env: { DATABASE_URL: database.url } }));
    }
    [a, b] = runtimes as [Runtime, Runtime];
    adminId = (await a.db.select({ id: s.users.id }).from(s.users).where(eq(s.users.email, 'admin@academia.example')))[0]!.id;
    const made = await saveIbo(a.db, adminId, null, {
      code: 'DOSPROC1',
      companyName: 'Dos Procesos',
      businessId: null,
      contactName: 'Ana',
      contactEmail: 'ana@example.com',
      contactPhone: '',
      accountEmail: 'buyer@academia.example',
      sponsorCode: null,
    });
    if (made.status !== 'ok') throw new Error(made.status);
    iboId = made.ibo.id;
  }, 120_000);

  afterAll(async () => {
    for (const r of runtimes) await r.close().catch(() => undefined);
    for (const h of handles) await h.close().catch(() => undefined);
    await database?.drop();
  });

  it('is refused by the other process at once: its kept session, its link and its typed code', async () => {
    const { token } = await createSession(a.db, { kind: 'ibo', iboId });
    expect((await b.sessions.read(token))?.ibo?.code).toBe('DOSPROC1');
    expect((await checkIboCode(b.db, b.rateLimiter, 'dosproc1', 'test:b')).status).toBe('ok');

    const outcome = await setIboStatus(a.db, adminId, iboId, 'suspended');
    if (outcome.status !== 'ok') throw new Error(outcome.status);
    // The row is gone, yet B still believes what it kept: only the notice can make it forget.
    expect((await b.sessions.read(token))?.ibo?.code).toBe('DOSPROC1');
    const told = Date.now();
    await tellChanges(a, outcome.changed);
    await expect.poll(() => b.sessions.read(token), { timeout: NOTICE_MS, interval: 20 }).toBeNull();
    expect(Date.now() - told).toBeLessThan(NOTICE_MS);

    expect((await checkIboCode(b.db, b.rateLimiter, 'DOSPROC1', 'test:b')).status).toBe('invalid');
    const link = await enterThroughLink(b.db, b.rateLimiter, { rawCode: 'DOSPROC1', address: 'test:b', visitorId: undefined, currentToken: undefined, learnerLoggedIn: false });
    expect(link.status).toBe('invalid');
  });

  it('opens again on the other process once reinstated', async () => {
    const outcome = await setIboStatus(a.db, adminId, iboId, 'active');
    if (outcome.status !== 'ok') throw new Error(outcome.status);
    await tellChanges(a, outcome.changed);
    const link = await enterThroughLink(b.db, b.rateLimiter, { rawCode: 'dosproc1', address: 'test:b2', visitorId: undefined, currentToken: undefined, learnerLoggedIn: false });
    expect(link.status).toBe('ok');
    if (link.status === 'ok' && link.session) expect((await b.sessions.read(link.session.token))?.ibo?.code).toBe('DOSPROC1');
  });
});
