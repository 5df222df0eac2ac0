/**
 * The lock of an unfinished upload across machines sharing the database: one request at a time holds
 * it (renewing its lease), a request of another machine waits until it lets go, a dead machine's lock
 * ends with its lease, a request of the same process asks the holder to stop, a wait too long is
 * refused, and a finished upload is never locked (its row belongs to conversions then).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { ERRORS } from '@tus/server';
import type { DbHandle } from '../db/client';
import { users, videos } from '../db/schema';
import { testDatabases } from '../db/testing';
import { createVideo } from './videos.server';
import { uploadLocker } from './upload-lock.server';

const [pglite] = await testDatabases();
let handle: DbHandle;
const uploadId = 'c'.repeat(32);
const never = new AbortController().signal;
const options = { leaseMs: 300, waitMs: 10_000, pollMs: 10 };

beforeAll(async () => {
  handle = await pglite!.create({ seed: true });
  const [owner] = await handle.db.select({ id: users.id }).from(users).limit(1);
  await createVideo(handle.db, { uploadId, ownerId: owner!.id, title: 'clip', sizeBytes: 10 });
}, 120_000);
afterAll(async () => {
  await handle?.close();
});

const row = async () => (await handle.db.select({ state: videos.state, lockedBy: videos.lockedBy, lockedUntil: videos.lockedUntil }).from(videos).where(eq(videos.uploadId, uploadId)))[0]!;

describe('the lock of an upload', () => {
  it('lets one machine write at a time: another waits while the holder renews its lease, and takes it when it lets go', async () => {
    const a = uploadLocker(handle.db, 'machine-a', options).newLock(uploadId);
    await a.lock(never, () => undefined);
    const first = await row();
    expect(first.lockedBy).toMatch(/^upload:machine-a:/);
    let bHolds = false;
    const b = uploadLocker(handle.db, 'machine-b', options).newLock(uploadId);
    const taking = b.lock(never, () => undefined).then(() => {
      bHolds = true;
    });
    // More than a lease has gone by, renewed by the holder: the other machine still waits.
    await vi.waitFor(async () => expect((await row()).lockedUntil!.getTime()).toBeGreaterThan(first.lockedUntil!.getTime() + options.leaseMs), { timeout: 5000 });
    expect(bHolds).toBe(false);
    await a.unlock();
    await taking;
    expect((await row()).lockedBy).toMatch(/^upload:machine-b:/);
    await b.unlock();
    expect(await row()).toMatchObject({ lockedBy: null, lockedUntil: null });
  });

  it('takes the lock of a machine that died once its lease runs out', async () => {
    await handle.db.update(videos).set({ lockedBy: 'upload:dead:0', lockedUntil: new Date(Date.now() + options.leaseMs) }).where(eq(videos.uploadId, uploadId));
    const c = uploadLocker(handle.db, 'machine-c', options).newLock(uploadId);
    await c.lock(never, () => undefined);
    expect((await row()).lockedBy).toMatch(/^upload:machine-c:/);
    await c.unlock();
  });

  it('asks a request of its own process to stop, and refuses a wait that lasts too long', async () => {
    const here = uploadLocker(handle.db, 'machine-d', options);
    const first = here.newLock(uploadId);
    const stop = vi.fn(() => first.unlock());
    await first.lock(never, stop);
    const second = here.newLock(uploadId);
    await second.lock(never, () => undefined);
    expect(stop).toHaveBeenCalled();
    const impatient = uploadLocker(handle.db, 'machine-e', { ...options, waitMs: 100 }).newLock(uploadId);
    await expect(impatient.lock(never, () => undefined)).rejects.toBe(ERRORS.ERR_LOCK_TIMEOUT);
    await second.unlock();
  });

  it('never locks a finished upload: its row is the conversion’s', async () => {
    await handle.db.update(videos).set({ state: 'queued' }).where(eq(videos.uploadId, uploadId));
    const lock = uploadLocker(handle.db, 'machine-f', options).newLock(uploadId);
    await lock.lock(never, () => undefined);
    expect(await row()).toMatchObject({ state: 'queued', lockedBy: null });
    await lock.unlock();
  });
});
