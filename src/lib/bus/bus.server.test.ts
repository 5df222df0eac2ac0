/**
 * The bus between processes, on its real transports: PostgreSQL LISTEN/NOTIFY and Redis pub/sub (each
 * skipped, saying so, when the local service does not answer). Two buses stand for two processes.
 */
import { Writable } from 'node:stream';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../http/log.server';
import { createPostgresDatabase, postgresAvailable } from '../db/testing';
import { redisReachable } from '../testing/services';
import { startTcpProxy, type TcpProxy } from '../testing/tcp-proxy';
import { createBus, type Bus, type BusOptions } from './bus.server';
import { RESYNC } from './bus';

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const pgUp = await postgresAvailable();
const redisUp = await redisReachable(redisUrl);
if (!pgUp) console.warn('PostgreSQL not reachable: the LISTEN/NOTIFY bus tests are skipped.');
if (!redisUp) console.warn(`Redis not reachable at ${redisUrl}: the Redis bus tests are skipped.`);

/** A logger whose lines the test reads. */
function capturingLogger() {
  const lines: { level: string; msg: string }[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: createLogger('debug', stream), lines };
}

/** Everything a bus delivered, per topic. */
function record(bus: Bus) {
  const got: { topic: string; data: unknown }[] = [];
  for (const topic of ['catalog', 'session', 'person'] as const) bus.subscribe(topic, (data) => got.push({ topic, data }));
  return got;
}

describe('local bus (embedded database: one process)', () => {
  it('delivers to this process at once, and stops after unsubscribe', async () => {
    const { logger } = capturingLogger();
    const bus = createBus({ kind: 'local' }, logger);
    await bus.ready();
    const got: unknown[] = [];
    const off = bus.subscribe('catalog', (d) => got.push(d));
    await bus.publish('catalog', { n: 1 });
    expect(got).toEqual([{ n: 1 }]);
    off();
    await bus.publish('catalog', { n: 2 });
    expect(got).toEqual([{ n: 1 }]);
    await bus.close();
  });

  it('a failing subscriber is logged and does not stop the others', async () => {
    const { logger, lines } = capturingLogger();
    const bus = createBus({ kind: 'local' }, logger);
    const got: unknown[] = [];
    bus.subscribe('person', () => {
      throw new Error('boom');
    });
    bus.subscribe('person', (d) => got.push(d));
    await bus.publish('person', { userId: 1 });
    expect(got).toEqual([{ userId: 1 }]);
    expect(lines.some((l) => l.level === 'error' && l.msg === 'bus subscriber failed')).toBe(true);
  });
});

interface Transport {
  name: 'postgres' | 'redis';
  up: boolean;
  /** The service's address, to reach directly or through a proxy. */
  target(): { host: string; port: number };
  options(port?: number): BusOptions;
  /** Sends a raw text on the bus's channel, as something else might. */
  sendRaw(text: string): Promise<void>;
}

let pgDb: { url: string; drop(): Promise<void> } | null = null;
beforeAll(async () => {
  if (pgUp) pgDb = await createPostgresDatabase();
});
afterAll(async () => {
  await pgDb?.drop();
});

const withPort = (url: string, port?: number) => {
  const u = new URL(url);
  if (port !== undefined) {
    u.hostname = '127.0.0.1';
    u.port = String(port);
  }
  return u.href;
};

const transports: Transport[] = [
  {
    name: 'postgres',
    up: pgUp,
    target: () => ({ host: new URL(pgDb!.url).hostname, port: Number(new URL(pgDb!.url).port || 5432) }),
    options: (port) => ({ kind: 'postgres', databaseUrl: withPort(pgDb!.url, port) }),
    async sendRaw(text) {
      const c = new pg.Client({ connectionString: pgDb!.url });
      await c.connect();
      await c.query('select pg_notify($1, $2)', ['academy_bus', text]);
      await c.end();
    },
  },
  {
    name: 'redis',
    up: redisUp,
    target: () => ({ host: new URL(redisUrl).hostname, port: Number(new URL(redisUrl).port || 6379) }),
    options: (port) => ({ kind: 'redis', redisUrl: withPort(redisUrl, port) }),
    async sendRaw(text) {
      const { default: Redis } = await import('ioredis');
      const r = new Redis(redisUrl);
      await r.publish('academy:bus', text);
      r.disconnect();
    },
  },
];

for (const t of transports) {
  describe.skipIf(!t.up)(`${t.name} bus between two processes`, () => {
    it("delivers a message once to each process: at once to the sender's, within a second to the other's", async () => {
      const a = createBus(t.options(), capturingLogger().logger);
      const b = createBus(t.options(), capturingLogger().logger);
      await Promise.all([a.ready(), b.ready()]);
      const gotA = record(a);
      const gotB = record(b);
      await a.publish('session', { userId: 42 });
      expect(gotA).toEqual([{ topic: 'session', data: { userId: 42 } }]);
      await expect.poll(() => gotB, { timeout: 1000 }).toEqual([{ topic: 'session', data: { userId: 42 } }]);
      await b.publish('catalog', {});
      await expect.poll(() => gotA.length, { timeout: 1000 }).toBe(2);
      // Its own message coming back through the transport is not delivered twice.
      await a.publish('person', { contactId: 3 });
      await expect.poll(() => gotB.length, { timeout: 1000 }).toBe(3);
      expect(gotA.filter((m) => m.topic === 'person')).toHaveLength(1);
      await Promise.all([a.close(), b.close()]);
    });

    it('drops text that is not one of its messages, with a warning, and goes on', async () => {
      const { logger, lines } = capturingLogger();
      const b = createBus(t.options(), logger);
      await b.ready();
      const got = record(b);
      await t.sendRaw('DROP TABLE users; --');
      await t.sendRaw(JSON.stringify({ from: 'other', topic: 'payments', data: {} }));
      await t.sendRaw(JSON.stringify({ from: 'other', topic: 'catalog', data: {} }));
      await expect.poll(() => got, { timeout: 1000 }).toEqual([{ topic: 'catalog', data: {} }]);
      expect(lines.filter((l) => l.msg === 'bus: dropped a message that is not one of ours')).toHaveLength(2);
      await b.close();
    });

    it('after a lost connection it reconnects and tells every subscriber to forget what it kept (resync)', async () => {
      let proxy: TcpProxy | null = null;
      try {
        proxy = await startTcpProxy(t.target());
        const { logger, lines } = capturingLogger();
        const b = createBus(t.options(proxy.port), logger);
        const a = createBus(t.options(), capturingLogger().logger);
        await Promise.all([a.ready(), b.ready()]);
        const got = record(b);
        proxy.cut();
        await expect.poll(() => lines.some((l) => /lost the .* connection/.test(l.msg)), { timeout: 5000 }).toBe(true);
        // Changes made while it was away are missed; what it hears on return is "forget everything".
        await a.publish('session', { userId: 1 });
        proxy.restore();
        await expect.poll(() => got.filter((m) => m.data === RESYNC).length, { timeout: 10_000 }).toBe(3);
        expect(new Set(got.filter((m) => m.data === RESYNC).map((m) => m.topic))).toEqual(new Set(['catalog', 'session', 'person']));
        // And it hears changes again.
        await a.publish('person', { userId: 5 });
        await expect.poll(() => got.some((m) => m.topic === 'person' && (m.data as { userId?: number }).userId === 5), { timeout: 2000 }).toBe(true);
        // Publishing while cut is logged, not thrown: this process's own subscribers still hear it.
        proxy.cut();
        const own: unknown[] = [];
        b.subscribe('catalog', (d) => own.push(d));
        await b.publish('catalog', { during: 'outage' });
        expect(own).toEqual([{ during: 'outage' }]);
        proxy.restore();
        await Promise.all([a.close(), b.close()]);
      } finally {
        await proxy?.close();
      }
    }, 120_000);

    it('an address nothing answers on fails start-up with one sentence saying what to fix', async () => {
      const started = Date.now();
      const bus = createBus(t.options(1), capturingLogger().logger);
      const fix = t.name === 'postgres' ? /^Cannot reach PostgreSQL at 127\.0\.0\.1:1 for change notices: start it or fix DATABASE_URL/ : /^Cannot reach Redis at 127\.0\.0\.1:1 for change notices: start it or fix REDIS_URL/;
      await expect(bus.ready()).rejects.toThrow(fix);
      expect(Date.now() - started).toBeLessThan(7000);
      await bus.close();
    }, 15_000);
  });
}
