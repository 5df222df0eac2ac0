/**
 * How long a kept session is believed: its full time limit while the bus has listened without a break
 * since it was read, a second otherwise (the bus down: a log out elsewhere may not be heard).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../db/testing';
import type { DbHandle } from '../db/client';
import * as s from '../db/schema';
import { createSession, destroySession } from './session.server';
import { SessionCache, UNTRUSTED_TTL_MS } from './session-cache.server';

const [pglite] = await testDatabases();

describe('the session cache and the bus', () => {
  let handle: DbHandle;
  let userId: number;
  let clock = Date.now();
  const now = () => clock;

  beforeAll(async () => {
    handle = await pglite!.create();
    const [user] = await handle.db.insert(s.users).values({ email: 'kept@test.example', firstName: 'Kept', lastName: 'Session' }).returning();
    userId = user!.id;
  });
  afterAll(async () => {
    await handle?.close();
  });

  async function endedBehindItsBack(cache: SessionCache): Promise<{ token: string }> {
    const { token } = await createSession(handle.db, { kind: 'user', userId }, new Date(clock));
    expect((await cache.read(token))?.user?.id).toBe(userId);
    // Ended elsewhere; no notice reaches this cache.
    await destroySession(handle.db, token);
    return { token };
  }

  it('keeps a session for its time limit while the bus has listened since the read', async () => {
    const since = clock - 5000;
    const cache = new SessionCache(handle.db, { now, trustedSince: () => since });
    const { token } = await endedBehindItsBack(cache);
    clock += 30_000;
    expect(await cache.read(token)).not.toBeNull();
  });

  it('reads it again after a second while the bus is down', async () => {
    let since: number | null = clock - 5000;
    const cache = new SessionCache(handle.db, { now, trustedSince: () => since });
    const { token } = await endedBehindItsBack(cache);
    since = null;
    clock += UNTRUSTED_TTL_MS / 2;
    // Within the second, still the kept answer (a burst of requests costs one query).
    expect(await cache.read(token)).not.toBeNull();
    clock += UNTRUSTED_TTL_MS;
    expect(await cache.read(token)).toBeNull();
  });

  it('does not believe a session read before the bus listened again', async () => {
    let since: number | null = clock - 5000;
    const cache = new SessionCache(handle.db, { now, trustedSince: () => since });
    const { token } = await endedBehindItsBack(cache);
    // Down and back: notices sent meanwhile may be lost, this session among them.
    since = clock + 10;
    clock += 2 * UNTRUSTED_TTL_MS;
    expect(await cache.read(token)).toBeNull();
  });
});
