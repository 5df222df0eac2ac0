/** A revocation drops every kept page at once (the verification page is kept for everyone). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../db/testing';
import type { DbHandle } from '../db/client';
import { testRuntime } from '../testing/runtime';
import type { Runtime } from '../runtime/runtime.server';
import { readdir, readFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { certificates, users } from '../db/schema';
import { requestDeletion } from '../privacy';
import { join } from 'node:path';
import { certificateByCode } from './certificates.server';
import { revokeEverywhere, revokeWithReason } from './revoke.server';

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

  it('a revocation stored by a process that died before telling anyone: its job tells every process and e-mails the holder', async () => {
    const code = 'ACAD-DEAD-2026-0000-0001';
    const certificate = (await certificateByCode(handle.db, 'ACAD-GRAD-2026-0000-0002'))!;
    await handle.db.insert(certificates).values({ contactId: certificate.contactId, courseId: 1, code, holderName: certificate.holderName, issuedAt: new Date() });
    const key = `https://academia.example/verify/${code}?`;
    runtime.pages.set(key, runtime.catalog.version, { status: 200, headers: [], body: '<p>válido</p>' });
    const told: unknown[] = [];
    runtime.bus.subscribe('catalog', (data) => told.push(data));

    // The transaction commits; the process dies before the action tells anyone (its `changed` is lost).
    const outcome = await revokeWithReason(handle.db, { code, reason: 'Revocado antes de la caída.', actorUserId: 1, origin: 'https://academia.example', now: new Date() });
    expect(outcome.status).toBe('revoked');
    expect(runtime.pages.get(key, runtime.catalog.version)).toBeDefined();

    // Any process's scheduler runs the job the transaction left.
    expect((await runtime.scheduler.runDue(new Date(Date.now() + 1000))).jobs).toBeGreaterThanOrEqual(1);
    expect(told.length).toBeGreaterThanOrEqual(1);
    expect(runtime.pages.get(key, runtime.catalog.version)).toBeUndefined();
    const outbox = runtime.config.mail.outboxDir;
    const mails = await Promise.all((await readdir(outbox)).filter((f) => f.endsWith('.eml')).map((f) => readFile(join(outbox, f), 'utf8')));
    expect(mails.filter((m) => m.replace(/=\r?\n/g, '').includes('Revocado antes de la ca=C3=ADda.'))).toHaveLength(1);
    // Done once: running again sends nothing more.
    await runtime.scheduler.runDue(new Date(Date.now() + 60_000));
    const again = await Promise.all((await readdir(outbox)).filter((f) => f.endsWith('.eml')).map((f) => readFile(join(outbox, f), 'utf8')));
    expect(again).toHaveLength(mails.length);
  });

  it("forgets the reasons with the holder's name when their account is deleted", async () => {
    const [graduate] = await handle.db.select({ id: users.id }).from(users).where(eq(users.email, 'graduate@academia.example'));
    const held = async () => handle.db.select({ reason: certificates.revokedReason, name: certificates.holderName }).from(certificates).where(eq(certificates.code, 'ACAD-DEAD-2026-0000-0001'));
    expect(await held()).toEqual([{ reason: 'Revocado antes de la caída.', name: expect.any(String) }]);
    const now = new Date();
    await requestDeletion(handle.db, { userId: graduate!.id, password: 'Gradua2026', now });
    await runtime.scheduler.runDue(new Date(now.getTime() + 15 * 86_400_000));
    expect(await held()).toEqual([{ reason: null, name: '' }]);
  });
});
