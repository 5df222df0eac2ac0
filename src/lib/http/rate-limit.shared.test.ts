/**
 * Rate limits counted in the database, as every process sees them: on PGlite and on PostgreSQL (when it
 * answers), a burst of attempts spread over two processes (two limiters, each with its own connection
 * pool, on one database) never passes a limit, with no Redis and with Redis configured but down; the
 * limits that guard money are counted there on every layout; expired counts are purged.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createPostgresDatabase, testDatabases } from '../db/testing';
import { openDatabase, type DbHandle } from '../db/client';
import { rateLimits } from '../db/schema';
import { closedPort } from '../testing/tcp-proxy';
import { createRateLimiter, purgeExpiredRateLimits, type RateLimiter } from './rate-limit.server';
import { LIMITS, type LimitName } from './rate-limit';

const databases = await testDatabases();
const uniqueKey = (label: string) => `${label}-${process.pid}-${Math.random().toString(36).slice(2)}`;

/** `n` attempts at once, spread over `limiters` in turn; how many were let through. */
async function burst(limiters: RateLimiter[], name: LimitName, key: string, n: number): Promise<number> {
  const answers = await Promise.all(Array.from({ length: n }, (_, i) => limiters[i % limiters.length]!.hit(name, key)));
  return answers.filter((a) => a.ok).length;
}

/**
 * Two "processes" on one database: on PostgreSQL two connection pools to one fresh database, as two
 * workers have; PGlite is one process's database, so both limiters share its one handle.
 */
async function twoProcesses(name: 'pglite' | 'postgres', create: () => Promise<DbHandle>): Promise<{ handles: DbHandle[]; close(): Promise<void> }> {
  if (name === 'pglite') {
    const handle = await create();
    return { handles: [handle, handle], close: () => handle.close() };
  }
  const made = await createPostgresDatabase({ prefix: 'academy_limits', from: 'migrated' });
  const first = await openDatabase({ databaseUrl: made.url, dataDir: 'unused' });
  const second = await openDatabase({ databaseUrl: made.url, dataDir: 'unused' });
  return {
    handles: [first, second],
    async close() {
      await first.close();
      await second.close();
      await made.drop();
    },
  };
}

describe.each(databases)('rate limits in the $name database', ({ name, create }) => {
  let processes: { handles: DbHandle[]; close(): Promise<void> };
  let made: RateLimiter[] = [];
  const limiter = (handle: DbHandle, redisUrl?: string, warn: (line: string) => void = () => undefined) => {
    const l = createRateLimiter({ redisUrl, spec: (n) => LIMITS[n], warn, database: { db: handle.db, kind: handle.kind } });
    made.push(l);
    return l;
  };

  beforeAll(async () => {
    processes = await twoProcesses(name, () => create());
  });
  afterEach(async () => {
    for (const l of made) await l.close();
    made = [];
  });
  afterAll(async () => processes?.close());

  it('count refused payments in the database: 40 attempts at once from two processes let exactly 10 through', async () => {
    const both = processes.handles.map((h) => limiter(h));
    const key = uniqueKey('payments');
    expect(both[0]!.store('paymentFailuresPerAccount')).toBe('database');
    expect(await burst(both, 'paymentFailuresPerAccount', key, 40)).toBe(10);
    const [row] = await processes.handles[0]!.db.select().from(rateLimits).where(eq(rateLimits.key, `paymentFailuresPerAccount:${key}`));
    expect(row?.points).toBe(40);
    expect(await both[1]!.used('paymentFailuresPerAccount', key)).toBe(40);
    const refused = await both[1]!.hit('paymentFailuresPerAccount', key);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.retryAfterSeconds).toBeGreaterThan(3590);
  });

  it('give an attempt back to every process, and forgive', async () => {
    const [a, b] = processes.handles.map((h) => limiter(h));
    const key = uniqueKey('back');
    for (let i = 0; i < 10; i++) expect(await a!.hit('couponGuessesPerAccount', key)).toEqual({ ok: true });
    expect((await b!.hit('couponGuessesPerAccount', key)).ok).toBe(false);
    await b!.refund('couponGuessesPerAccount', key);
    await b!.refund('couponGuessesPerAccount', key);
    expect(await a!.used('couponGuessesPerAccount', key)).toBe(9);
    expect(await a!.hit('couponGuessesPerAccount', key)).toEqual({ ok: true });
    expect((await b!.hit('couponGuessesPerAccount', key)).ok).toBe(false);
    await a!.forgive('couponGuessesPerAccount', key);
    expect(await b!.used('couponGuessesPerAccount', key)).toBe(0);
  });

  it.skipIf(name !== 'postgres')('count every limit in PostgreSQL when there is no Redis: the processes share one count', async () => {
    const both = processes.handles.map((h) => limiter(h));
    expect(both[0]!.store()).toBe('database');
    expect(await burst(both, 'loginPerAddress', uniqueKey('login'), 40)).toBe(LIMITS.loginPerAddress.points);
  });

  it('count in the database, shared by the processes, while the configured Redis is down (one warning line each)', async () => {
    const url = `redis://127.0.0.1:${await closedPort()}`;
    const lines: string[] = [];
    const both = processes.handles.map((h) => limiter(h, url, (line) => lines.push(line)));
    const key = uniqueKey('outage');
    expect(await burst(both, 'loginPerAddress', key, 40)).toBe(LIMITS.loginPerAddress.points);
    expect(await burst(both, 'loginPerAccountAddress', key, 14)).toBe(LIMITS.loginPerAccountAddress.points);
    // The wait of logins to an account under attack reads the shared count too.
    await burst(both, 'loginPerAccount', key, 12);
    expect(await both[0]!.used('loginPerAccount', key)).toBe(12);
    expect(both[0]!.store()).toBe('database');
    expect(lines).toEqual(Array.from({ length: 2 }, () => expect.stringMatching(/^rate limits: Redis at 127\.0\.0\.1:\d+ is unreachable \(ECONNREFUSED\); counting in the database until it answers again\.$/)));
  });

  it('purge the counts whose window has passed', async () => {
    const db = processes.handles[0]!.db;
    const past = uniqueKey('past');
    await db.insert(rateLimits).values([
      { key: past, points: 3, expire: new Date(Date.now() - 1000) },
      { key: `${past}-current`, points: 3, expire: new Date(Date.now() + 60_000) },
    ]);
    expect(await purgeExpiredRateLimits(db, new Date())).toBeGreaterThanOrEqual(1);
    const left = (await db.select().from(rateLimits)).map((r) => r.key);
    expect(left).not.toContain(past);
    expect(left).toContain(`${past}-current`);
  });
});
