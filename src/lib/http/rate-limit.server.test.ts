/**
 * Rate limits when Redis is away: unreachable at start (a closed port, or a proxy refusing every
 * connection) and lost later (a TCP proxy that is cut). Limits still hold from memory, nothing
 * throws to the caller, one warning line is logged per outage, and counting goes back to Redis when
 * it returns. The Redis tests are skipped when no Redis answers on 127.0.0.1:6379 (`TEST_REDIS_URL`).
 */
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { Redis } from 'ioredis';
import { closedPort, startTcpProxy, type TcpProxy } from '../testing/tcp-proxy';
import { createRateLimiter, type RateLimiter } from './rate-limit.server';
import type { LimitName } from './rate-limit';
import { redisReachable } from '../testing/services';

const redisUrl = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
const redisUp = await redisReachable(redisUrl.href);
if (!redisUp) console.warn(`Redis not reachable at ${redisUrl.host}: the rate-limit tests against a live Redis are skipped.`);

const NAME: LimitName = 'resetPerAccount';
const POINTS = 3;
const spec = () => ({ points: POINTS, durationSeconds: 600 });
const uniqueKey = (label: string) => `${label}-${process.pid}-${Math.random().toString(36).slice(2)}`;

/** Uses up the limit of `key` and checks the next attempt is refused with a retry time. */
async function expectLimitHolds(limiter: RateLimiter, key: string, alreadyUsed = 0) {
  for (let i = alreadyUsed; i < POINTS; i++) expect(await limiter.hit(NAME, key)).toEqual({ ok: true });
  const refused = await limiter.hit(NAME, key);
  expect(refused.ok).toBe(false);
  if (!refused.ok) expect(refused.retryAfterSeconds).toBeGreaterThan(500);
}

let warnings: string[];
let limiter: RateLimiter | null;
let proxy: TcpProxy | null;
let printed: MockInstance[];

beforeEach(() => {
  warnings = [];
  limiter = null;
  proxy = null;
  // Anything else printed (ioredis prints each failed reconnection when nobody listens) is a log line too.
  printed = [vi.spyOn(console, 'error'), vi.spyOn(console, 'warn'), vi.spyOn(console, 'log')];
});

afterEach(async () => {
  for (const spy of printed) spy.mockRestore();
  await limiter?.close();
  await proxy?.close();
});

/** Every line logged: the limiter's warnings and anything printed to the console. */
const logged = () => [...warnings, ...printed.flatMap((spy) => spy.mock.calls.map((args) => args.map(String).join(' ')))];
const make = (url: string) => (limiter = createRateLimiter({ redisUrl: url, spec, warn: (line) => warnings.push(line) }));

describe('rate limits with Redis unreachable at start', () => {
  it('count in memory from a closed port, never throw, and log one line', async () => {
    const port = await closedPort();
    const limits = make(`redis://127.0.0.1:${port}`);
    const key = uniqueKey('closed');
    await expectLimitHolds(limits, key);
    // Other keys are counted apart; forgiving works from memory too.
    expect(await limits.hit(NAME, `${key}-other`)).toEqual({ ok: true });
    await limits.forgive(NAME, key);
    expect(await limits.hit(NAME, key)).toEqual({ ok: true });
    // Many more attempts: still no error, still one line.
    const many = await Promise.all(Array.from({ length: 40 }, (_, i) => limits.hit(NAME, `${key}-${i % 20}`)));
    expect(many.every((r) => r.ok)).toBe(true);
    expect(limits.store()).toBe('memory');
    expect(logged()).toEqual([`rate limits: Redis at 127.0.0.1:${port} is unreachable (ECONNREFUSED); counting in this process's memory until it answers again.`]);
  });

  it('log one line however many times the connection is tried again', async () => {
    proxy = await startTcpProxy({ host: '127.0.0.1', port: await closedPort() });
    proxy.cut(); // refuses every connection
    const limits = make(`redis://127.0.0.1:${proxy.port}`);
    const key = uniqueKey('refused');
    await expectLimitHolds(limits, key);
    const p = proxy;
    await vi.waitFor(
      async () => {
        expect((await limits.hit(NAME, `${key}-x`)).ok).toBeDefined();
        expect(p.refused).toBeGreaterThanOrEqual(4);
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(logged()).toHaveLength(1);
    expect(logged()[0]).toMatch(/^rate limits: Redis at 127\.0\.0\.1:\d+ is unreachable \(.+\); counting in this process's memory until it answers again\.$/);
  });
});

describe.skipIf(!redisUp)('rate limits when Redis is lost and comes back', () => {
  it('count in memory during each outage (one line each) and in Redis again afterwards', async () => {
    proxy = await startTcpProxy({ host: redisUrl.hostname, port: Number(redisUrl.port || 6379) });
    const direct = new Redis(redisUrl.href, { maxRetriesPerRequest: 1 });
    direct.on('error', () => undefined);
    const key = uniqueKey('lost');
    const redisCount = async (k: string) => Number(await direct.get(`academy:${NAME}:${k}`));
    try {
      const limits = make(`redis://127.0.0.1:${proxy.port}`);
      // Redis up: counts are in Redis.
      expect(await limits.hit(NAME, key)).toEqual({ ok: true });
      expect(limits.store()).toBe('redis');
      expect(await redisCount(key)).toBe(1);
      expect(logged()).toEqual([]);

      // Redis lost: the limits still hold, from memory; nothing throws; one line, however long it lasts.
      const p = proxy;
      p.cut();
      const during = uniqueKey('during');
      await expectLimitHolds(limits, during);
      await vi.waitFor(() => expect(p.refused).toBeGreaterThanOrEqual(3), { timeout: 10_000, interval: 50 });
      await expectLimitHolds(limits, uniqueKey('during-again'));
      expect(limits.store()).toBe('memory');
      expect(await redisCount(during)).toBe(0);
      expect(logged()).toHaveLength(1);
      expect(logged()[0]).toMatch(/^rate limits: Redis at 127\.0\.0\.1:\d+ is unreachable \(.+\); counting in this process's memory until it answers again\.$/);

      // Redis back: counting goes back to Redis (where the count from before the outage still is).
      p.restore();
      await vi.waitFor(() => expect(limits.store()).toBe('redis'), { timeout: 10_000, interval: 50 });
      expect(await limits.hit(NAME, key)).toEqual({ ok: true });
      expect(await redisCount(key)).toBe(2);
      await expectLimitHolds(limits, key, 2);
      expect(await redisCount(key)).toBe(POINTS + 1);
      expect(logged()).toHaveLength(1);

      // A second outage: a second line, and only one.
      p.cut();
      await expectLimitHolds(limits, uniqueKey('second'));
      await vi.waitFor(() => expect(p.refused).toBeGreaterThanOrEqual(6), { timeout: 10_000, interval: 50 });
      expect(logged()).toHaveLength(2);
      p.restore();
      await vi.waitFor(() => expect(limits.store()).toBe('redis'), { timeout: 10_000, interval: 50 });
      await limits.forgive(NAME, key);
      expect(await redisCount(key)).toBe(0);
    } finally {
      await direct.del(`academy:${NAME}:${key}`).catch(() => undefined);
      direct.disconnect();
    }
  });

  it('counts in memory when Redis is lost and new connections hang', async () => {
    proxy = await startTcpProxy({ host: redisUrl.hostname, port: Number(redisUrl.port || 6379) });
    const limits = make(`redis://127.0.0.1:${proxy.port}`);
    expect(await limits.hit(NAME, uniqueKey('hang'))).toEqual({ ok: true });
    proxy.hang();
    const started = Date.now();
    await expectLimitHolds(limits, uniqueKey('hang-during'));
    // At most the attempt already on its way waits for the command timeout (1 s); the others do not wait.
    expect(Date.now() - started).toBeLessThan(2500);
    expect(logged()).toHaveLength(1);
  });

  it('counts in memory, after a short wait, when Redis stays connected but stops answering', async () => {
    proxy = await startTcpProxy({ host: redisUrl.hostname, port: Number(redisUrl.port || 6379) });
    const limits = make(`redis://127.0.0.1:${proxy.port}`);
    const key = uniqueKey('stall');
    expect(await limits.hit(NAME, key)).toEqual({ ok: true });
    proxy.stall();
    const started = Date.now();
    // Each attempt waits for the command timeout (1 s), then counts in memory: never for ever.
    await expectLimitHolds(limits, uniqueKey('stall-during'));
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(logged()).toEqual([expect.stringMatching(/^rate limits: Redis at 127\.0\.0\.1:\d+ is not answering; counting in this process's memory until it answers again\.$/)]);
    proxy.restore();
  }, 20_000);
});
