/** The process's catalogue store when the database stops answering: the last catalogue that loaded is served. */
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../db/testing';
import { CatalogStore } from './catalog.server';

const [pglite] = await testDatabases();

describe('CatalogStore with the database out of reach', () => {
  it('serves the last catalogue that loaded while a reload fails, and has nothing to serve before one loaded', async () => {
    const handle = await pglite!.create({ seed: true });
    const store = new CatalogStore(handle.db);
    const before = await store.get();
    expect(before.courses.length).toBeGreaterThan(0);
    const unloaded = new CatalogStore(handle.db);
    await handle.close();

    // A change was announced (the snapshot dropped) but the database no longer answers.
    store.invalidate();
    await expect(store.get()).resolves.toBe(before);
    // Still the same on the next call (which tries to load again, and fails again).
    await expect(store.get()).resolves.toBe(before);
    // A store that never loaded has nothing to fall back on: the failure is the caller's.
    await expect(unloaded.get()).rejects.toThrow();
  });
});
