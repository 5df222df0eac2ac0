/**
 * "My data" on a seeded database: an archive asked for, built by the scheduler and mailed once, its
 * file list, its link for its owner only and not after it expired; a deletion asked for with the
 * password, once, cancelled by a login, and when due: everything removed or anonymized but orders and
 * receipts, sessions ended, certificates verifiable without a name. The audit trail has no personal data.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../db/client';
import * as s from '../db/schema';
import { testDatabases, testHashCost } from '../db/testing';
import { testRuntime } from '../testing/runtime';
import type { Runtime } from '../runtime/runtime.server';
import { authenticate } from '../identity/account.server';
import { createSession } from '../identity/session.server';
import { savePhoto } from '../identity/photo.server';
import sharp from 'sharp';
import { auditEvents } from '../db/schema';
import { LEASE_MS } from '../jobs/jobs';
import { DEMO_LEARNER_ARCHIVE } from './archive.testing';
import { auditOf, cancelDeletion, collectArchive, exportKey, exportForDownload, pendingDeletion, requestDeletion, requestExport, userRef, zipNames } from './index';

const databases = await testDatabases();
const DAY = 86_400_000;


describe.each(databases)('my data on $name', ({ create }) => {
  let handle: DbHandle;
  let runtime: Runtime;
  const idOf = async (email: string) => (await handle.db.select({ id: s.users.id }).from(s.users).where(eq(s.users.email, email)))[0]!.id;
  const outbox = () => {
    try {
      return readdirSync(runtime.config.mail.outboxDir).map((f) => readFileSync(join(runtime.config.mail.outboxDir, f), 'utf8'));
    } catch {
      return [];
    }
  };

  beforeAll(async () => {
    handle = await create({ seed: true });
    runtime = await testRuntime(handle);
  });
  /** The bytes the storage keeps under `key`. */
  const storedBytes = async (key: string) => {
    const chunks: Buffer[] = [];
    for await (const chunk of (await runtime.storage.get(key))!.body) chunks.push(Buffer.from(chunk as Uint8Array));
    return Buffer.concat(chunks);
  };
  afterAll(async () => {
    await runtime?.close();
    await handle?.close();
  });

  it('builds the demo learner’s archive in a job, mails its link once, and serves it to her only', async () => {
    const learner = await idOf('learner@academia.example');
    const other = await idOf('buyer@academia.example');
    const { exportId } = await requestExport(handle.db, runtime.exportLinks, { userId: learner, locale: 'en', origin: 'https://academy.example' });
    const token = runtime.exportLinks.token(exportId);
    expect((await exportForDownload(handle.db, runtime.storage, token, learner)).state).toBe('pending');
    expect((await runtime.scheduler.runDue()).jobs).toBe(1);
    expect((await handle.db.select({ error: s.jobs.lastError }).from(s.jobs).where(sql`${s.jobs.doneAt} is null`)).map((j) => j.error)).toEqual([]);
    expect((await runtime.scheduler.runDue(new Date(Date.now() + LEASE_MS + 1000))).jobs).toBe(0);

    const archive = await storedBytes(exportKey(exportId));
    expect(zipNames(archive)).toEqual(DEMO_LEARNER_ARCHIVE);
    const mails = outbox().filter((m) => m.includes(`data-export-${exportId}@`));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain('Your data archive is ready');
    expect(mails[0]!.replace(/=\r?\n/g, '').replace(/=3D/g, '=')).toContain(`/my-data/download/${token}?lang=en`);
    // Only the hash of the token is stored.
    const [row] = await handle.db.select().from(s.dataExports).where(eq(s.dataExports.id, exportId));
    expect(row!.tokenHash).not.toContain(token);
    expect(row!.mailedAt).not.toBeNull();

    const mine = await exportForDownload(handle.db, runtime.storage, token, learner);
    expect(mine.state).toBe('ready');
    expect(mine.stored).toMatchObject({ key: exportKey(exportId), sizeBytes: archive.length });
    // Someone else's session with her link, a forged token: nothing.
    expect(await exportForDownload(handle.db, runtime.storage, token, other)).toEqual({ state: 'missing' });
    expect(await exportForDownload(handle.db, runtime.storage, `${token}x`, learner)).toEqual({ state: 'missing' });
    // Seven days later: expired.
    expect((await exportForDownload(handle.db, runtime.storage, token, learner, new Date(Date.now() + 7 * DAY + 60_000))).state).toBe('expired');
  });

  it('puts the whole profile in the archive, the preferred language and the choice about IBOs too', async () => {
    const learner = await idOf('learner@academia.example');
    await handle.db.update(s.users).set({ locale: 'en', gender: 'F' }).where(eq(s.users.id, learner));
    const content = await collectArchive(handle.db, learner, { locale: 'es', origin: 'https://academy.example' });
    expect(content!.tables.profile).toEqual([expect.objectContaining({ email: 'learner@academia.example', gender: 'F', preferredLanguage: 'en', iboSharing: null })]);
    await handle.db.update(s.users).set({ iboSharing: true }).where(eq(s.users.id, learner));
    const chosen = await collectArchive(handle.db, learner, { locale: 'es', origin: 'https://academy.example' });
    expect(chosen!.tables.profile).toEqual([expect.objectContaining({ iboSharing: true })]);
    await handle.db.update(s.users).set({ iboSharing: null }).where(eq(s.users.id, learner));
  });

  it('puts certificates with their PDFs and orders with their receipts in the archive', async () => {
    const graduate = await idOf('graduate@academia.example');
    const buyer = await idOf('buyer@academia.example');
    const a = await requestExport(handle.db, runtime.exportLinks, { userId: graduate, locale: 'es', origin: 'https://academy.example' });
    const b = await requestExport(handle.db, runtime.exportLinks, { userId: buyer, locale: 'es', origin: 'https://academy.example' });
    expect((await runtime.scheduler.runDue()).jobs).toBe(2);
    const graduateFiles = zipNames(await storedBytes(exportKey(a.exportId)));
    expect(graduateFiles).toContain('certificates/ACAD-GRAD-2026-0000-0002.pdf');
    expect(graduateFiles.filter((f) => f.startsWith('certificates/')).length).toBeGreaterThan(0);
    const buyerFiles = zipNames(await storedBytes(exportKey(b.exportId)));
    expect(buyerFiles.filter((f) => f.startsWith('receipts/')).length).toBeGreaterThan(0);
  });

  it('mails the archive in the language the person chose in their profile, though asked for from a Spanish page', async () => {
    const learner = await idOf('ibo.rutas@academia.example');
    await handle.db.update(s.users).set({ locale: 'en' }).where(eq(s.users.id, learner));
    const { exportId } = await requestExport(handle.db, runtime.exportLinks, { userId: learner, locale: 'es', origin: 'https://academy.example' });
    expect((await runtime.scheduler.runDue()).jobs).toBe(1);
    const mails = outbox().filter((m) => m.includes(`data-export-${exportId}@`));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain('Your data archive is ready');
    expect(mails[0]!.replace(/=\r?\n/g, '').replace(/=3D/g, '=')).toContain(`?lang=en`);
  });

  it('asks for the password, schedules one deletion in 14 days, and a login cancels it', async () => {
    const learner = await idOf('ready@academia.example');
    expect(await requestDeletion(handle.db, { userId: learner, password: 'wrong-password' })).toEqual({ status: 'wrongPassword' });
    expect(await pendingDeletion(handle.db, learner)).toBeNull();
    const now = new Date();
    const first = await requestDeletion(handle.db, { userId: learner, password: 'Examen2026', now });
    expect(first).toEqual({ status: 'scheduled', dueAt: new Date(now.getTime() + 14 * DAY) });
    const twice = await Promise.all([requestDeletion(handle.db, { userId: learner, password: 'Examen2026' }), requestDeletion(handle.db, { userId: learner, password: 'Examen2026' })]);
    expect(twice.map((o) => o.status)).toEqual(['alreadyScheduled', 'alreadyScheduled']);
    expect(await handle.db.select().from(s.jobs).where(sql`${s.jobs.key} like ${`account-deletion:${learner}`}`)).toHaveLength(1);
    expect(await cancelDeletion(handle.db, learner)).toBe(true);
    expect(await pendingDeletion(handle.db, learner)).toBeNull();
    expect(await cancelDeletion(handle.db, learner)).toBe(false);
    // Nothing ran at the old date.
    expect((await runtime.scheduler.runDue(new Date(now.getTime() + 15 * DAY))).jobs).toBe(0);
    expect((await authenticate(handle.db, 'ready@academia.example', 'Examen2026', testHashCost)).status).toBe('ok');
    const trail = await auditOf(handle.db, userRef(learner));
    expect(trail.map((e) => e.action)).toEqual(['privacy.deletion.scheduled', 'privacy.deletion.cancelled']);
  });

  it('when due, removes or anonymizes the person, keeps orders without a name, ends sessions, keeps certificates verifiable', async () => {
    const graduate = await idOf('graduate@academia.example');
    const buyer = await idOf('buyer@academia.example');
    await createSession(handle.db, { kind: 'user', userId: graduate });
    await createSession(handle.db, { kind: 'user', userId: buyer });
    // The graduate has a profile photo: its file goes with the account.
    const png = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#08a' } }).png().toBuffer();
    expect((await savePhoto(handle.db, runtime.storage, graduate, { size: png.length, bytes: png })).status).toBe('ok');
    const photosOf = async (id: number) => {
      const keys: string[] = [];
      for await (const key of runtime.storage.list(`photos/${id}-`)) keys.push(key);
      return keys;
    };
    expect(await photosOf(graduate)).toHaveLength(1);
    const now = new Date();
    await requestDeletion(handle.db, { userId: graduate, password: 'Gradua2026', now });
    await requestDeletion(handle.db, { userId: buyer, password: 'Compra2026', now });
    const ordersBefore = await handle.db.select().from(s.orders).where(eq(s.orders.userId, buyer));
    expect((await runtime.scheduler.runDue(new Date(now.getTime() + 13 * DAY))).jobs).toBe(0);
    expect((await runtime.scheduler.runDue(new Date(now.getTime() + 14 * DAY + 1000))).jobs).toBe(2);

    const [g] = await handle.db.select().from(s.users).where(eq(s.users.id, graduate));
    // A nameless account is shown to no IBO.
    expect(g).toMatchObject({ firstName: '', lastName: '', passwordHash: null, gender: null, birthDate: null, imageUrl: null, iboSharing: false });
    expect(g!.email).toBe(`deleted-user-${graduate}@deleted.invalid`);
    expect(await photosOf(graduate)).toEqual([]);
    expect((await authenticate(handle.db, 'graduate@academia.example', 'Gradua2026', testHashCost)).status).toBe('invalid');
    expect(await handle.db.select().from(s.sessions).where(eq(s.sessions.userId, graduate))).toEqual([]);
    const [contact] = await handle.db.select().from(s.contacts).where(eq(s.contacts.userId, graduate));
    expect(contact).toMatchObject({ firstName: '', lastName: '' });
    expect(await handle.db.select().from(s.tracking).where(eq(s.tracking.contactId, contact!.id))).toEqual([]);
    expect(await handle.db.select().from(s.examAttempts).where(eq(s.examAttempts.contactId, contact!.id))).toEqual([]);
    expect(await handle.db.select().from(s.dataExports).where(eq(s.dataExports.userId, graduate))).toEqual([]);
    // Certificates stay, without a name.
    const kept = await handle.db.select().from(s.certificates).where(eq(s.certificates.contactId, contact!.id));
    expect(kept).toHaveLength(1);
    expect(kept.every((c) => c.holderName === '' && c.credential === null)).toBe(true);
    // Orders stay (the law), tied to an account with no name; access and memberships go.
    const ordersAfter = await handle.db.select().from(s.orders).where(eq(s.orders.userId, buyer));
    expect(ordersAfter.map((o) => o.id)).toEqual(ordersBefore.map((o) => o.id));
    expect(await handle.db.select().from(s.purchaseAccess).where(eq(s.purchaseAccess.userId, buyer))).toEqual([]);

    // The trail names nobody.
    const events = await handle.db.select().from(auditEvents);
    const text = JSON.stringify(events);
    for (const personal of ['graduate@academia.example', 'Mateo', 'Gutiérrez', 'buyer@academia.example', 'Tomás', 'Rivera', 'Gradua2026']) expect(text).not.toContain(personal);
    expect((await auditOf(handle.db, userRef(buyer), 'privacy.deletion.done'))[0]!.after).toMatchObject({ ordersKept: ordersBefore.length });
    // Running again (a resumed job) changes nothing more.
    expect((await runtime.scheduler.runDue(new Date(now.getTime() + 15 * DAY))).jobs).toBe(0);
    expect(await auditOf(handle.db, userRef(graduate), 'privacy.deletion.done')).toHaveLength(1);
  });

  it('never leaves the academy without an administrator: of two asking at once one is refused, and a due deletion of the last one is held', async () => {
    const admin = await idOf('admin@academia.example');
    const editor = await idOf('editor@academia.example');
    await handle.db.insert(s.staffRoles).values({ userId: editor, role: 'administrator' });
    const now = new Date();
    const both = await Promise.all([requestDeletion(handle.db, { userId: admin, password: 'Admin2026', now }), requestDeletion(handle.db, { userId: editor, password: 'Edita2026', now })]);
    expect(both.map((o) => o.status).sort()).toEqual(['lastAdministrator', 'scheduled']);
    const [leaving, staying] = both[0]!.status === 'scheduled' ? [admin, editor] : [editor, admin];
    // Asking again, the one staying is still refused: the other is leaving.
    expect(await requestDeletion(handle.db, { userId: staying, password: staying === admin ? 'Admin2026' : 'Edita2026', now })).toEqual({ status: 'lastAdministrator' });
    // Before the due date the one staying stops being an administrator: the leaving one is now the last.
    await handle.db.delete(s.staffRoles).where(and(eq(s.staffRoles.userId, staying), eq(s.staffRoles.role, 'administrator')));
    expect((await runtime.scheduler.runDue(new Date(now.getTime() + 14 * DAY + 1000))).jobs).toBe(1);
    const [kept] = await handle.db.select().from(s.users).where(eq(s.users.id, leaving));
    expect(kept!.email).toBe(leaving === admin ? 'admin@academia.example' : 'editor@academia.example');
    expect(kept!.passwordHash).not.toBeNull();
    expect(await handle.db.select({ role: s.staffRoles.role }).from(s.staffRoles).where(eq(s.staffRoles.userId, leaving))).toContainEqual({ role: 'administrator' });
    expect((await auditOf(handle.db, userRef(leaving))).map((e) => e.action)).toEqual(['privacy.deletion.scheduled', 'privacy.deletion.held']);
    expect(await pendingDeletion(handle.db, leaving)).toBeNull();
  });
});
