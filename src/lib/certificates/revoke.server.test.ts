/** A revocation drops every kept page at once (the verification page is kept for everyone). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../db/testing';
import type { DbHandle } from '../db/client';
import { testRuntime } from '../testing/runtime';
import type { Runtime } from '../runtime/runtime.server';
import { certificateByCode } from './certificates.server';
import { revokeEverywhere } from './revoke.server';

const pglite = (await testDatabases()).find((d) => d.name === 'pglite')!;
/** The seed's certificate (the graduate's, course 2). */
const CODE = 'ACAD-GRAD-2026-0000-0002';

describe('revoking a certificate', () => {
  let handle: DbHandle;
  let runtime: Runtime;

  beforeAll(async () => {
    handle = await pglite.create({ seed: true });
    runtime = await testRuntime(handle);
  });

  afterAll(async () => {
    await runtime?.close();
    await handle?.close();
  });

  it('drops the kept verification page in this process and tells the others, once', async () => {
    const certificate = (await certificateByCode(handle.db, CODE))!;
    const key = `https://academia.example/verify/${CODE}?`;
    runtime.pages.set(key, runtime.catalog.version, { status: 200, headers: [], body: '<p>válido</p>' });
    const told: unknown[] = [];
    runtime.bus.subscribe('catalog', (data) => told.push(data));

    expect(await revokeEverywhere(runtime, certificate.id, Date.now())).toBe(true);
    expect((await certificateByCode(handle.db, CODE))!.revokedAt).not.toBeNull();
    expect(runtime.pages.get(key, runtime.catalog.version)).toBeUndefined();
    expect(told).toHaveLength(1);

    // Already revoked: nothing changes, nobody is told.
    const version = runtime.catalog.version;
    expect(await revokeEverywhere(runtime, certificate.id, Date.now())).toBe(false);
    expect(runtime.catalog.version).toBe(version);
    expect(told).toHaveLength(1);
  });
});
