/**
 * The runtime's caches: what a logged-in request reads without a query, and how a change (log out, a
 * password reset, a completed course, a catalogue edit) makes them read again at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { testDatabases } from '../db/testing';
import type { DbHandle } from '../db/client';
import * as s from '../db/schema';
import { createSession, hashToken } from '../identity/session.server';
import { testRuntime } from '../testing/runtime';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signingKeyFile, type Runtime } from './runtime.server';

const [pglite] = await testDatabases();

describe('the runtime', () => {
  let handle: DbHandle;
  let runtime: Runtime;
  let userId: number;
  let contactId: number;

  beforeAll(async () => {
    handle = await pglite!.create({ seed: true });
    runtime = await testRuntime(handle);
    const [user] = await handle.db.select().from(s.users).where(eq(s.users.email, 'learner@academia.example'));
    userId = user!.id;
    contactId = (await handle.db.select().from(s.contacts).where(eq(s.contacts.userId, userId)))[0]!.id;
  });
  afterAll(async () => {
    await runtime?.close();
    await handle?.close();
  });

  it("starts on a database it cannot listen to, and then reads the IBOs' counts of changes at every request", async () => {
    // Embedded: told of every committed change, so a kept business page is checked only after one.
    expect(runtime.businessClock).toBeTypeOf('function');
    const deaf = await testRuntime({ ...handle, listen: () => Promise.reject(new Error('the database is out of reach')) });
    try {
      expect(deaf.businessClock).toBeUndefined();
      expect(await deaf.changeCounts([0])).toBe(await runtime.changeCounts([0]));
    } finally {
      await deaf.close();
    }
  });

  it('keeps stored files in <DATA_DIR>/files by default, and in the bucket when STORAGE=s3', async () => {
    expect(runtime.storage.kind).toBe('local');
    await runtime.storage.put('docs/runtime.pdf', Buffer.from('%PDF-'));
    expect(existsSync(join(runtime.config.dataDir, 'files/docs/runtime.pdf'))).toBe(true);
    // The S3 client connects on its first request: building the runtime needs no store.
    const other = await testRuntime(handle, { env: { STORAGE: 's3', S3_BUCKET: 'academy', S3_ENDPOINT: 'http://127.0.0.1:9' } });
    expect(other.storage.kind).toBe('s3');
    await other.close();
  });

  it('reads a session once, and again as soon as it ended anywhere', async () => {
    const { token } = await createSession(handle.db, { kind: 'user', userId });
    const first = await runtime.sessions.read(token);
    expect(first?.user?.id).toBe(userId);
    // Ended in the database only (by hand): the kept session still answers, for at most its time limit.
    await handle.db.delete(s.sessions).where(eq(s.sessions.tokenHash, hashToken(token)));
    expect(await runtime.sessions.read(token)).toBe(first);
    // Ended through the runtime (log out): forgotten at once.
    await runtime.sessionChanged({ tokenHash: hashToken(token) });
    expect(await runtime.sessions.read(token)).toBeNull();
  });

  it("forgets every session of a user after a password reset, and keeps others'", async () => {
    const mine = await createSession(handle.db, { kind: 'user', userId });
    const [other] = await handle.db.select().from(s.users).where(eq(s.users.email, 'buyer@academia.example'));
    const theirs = await createSession(handle.db, { kind: 'user', userId: other!.id });
    await runtime.sessions.read(mine.token);
    await runtime.sessions.read(theirs.token);
    await handle.db.delete(s.sessions).where(eq(s.sessions.userId, userId));
    await runtime.sessionChanged({ userId });
    expect(await runtime.sessions.read(mine.token)).toBeNull();
    expect((await runtime.sessions.read(theirs.token))?.user?.id).toBe(other!.id);
  });

  it('does not keep unknown tokens (a flood of forged cookies cannot push real sessions out)', async () => {
    const before = runtime.sessions.size;
    for (let i = 0; i < 20; i++) expect(await runtime.sessions.read(`forged-${i}`)).toBeNull();
    expect(runtime.sessions.size).toBe(before);
    expect(await runtime.sessions.read('x'.repeat(101))).toBeNull();
  });

  it('keeps a viewer until what the person may see changes', async () => {
    const identity = { kind: 'learner' as const, userId, contactId };
    const viewer = await runtime.store.viewer(identity);
    expect(viewer.purchased.has(10)).toBe(false);
    expect(await runtime.store.viewer(identity)).toBe(viewer);
    await handle.db.insert(s.purchaseAccess).values({ userId, courseId: 10 });
    expect((await runtime.store.viewer(identity)).purchased.has(10)).toBe(false);
    await runtime.personChanged({ userId });
    expect((await runtime.store.viewer(identity)).purchased.has(10)).toBe(true);
  });

  it('forgets a viewer when the tracker stores a completed lesson (a completed course unlocks the next)', async () => {
    const identity = { kind: 'learner' as const, userId, contactId };
    const before = await runtime.store.viewer(identity);
    const catalog = await runtime.catalog.get();
    const course = catalog.byId.get(31)!;
    const lesson = course.modules[0]!.lessons[0]!;
    const who = { contactId, createdBy: userId };
    const track = (event: string, Avance: number, at: number) => runtime.tracker.track(who, course, event, { Identificador: lesson.id, Avance }, at);
    // Played through at normal speed, a report every second and a half: the credit clock pays for it.
    let at = Date.now() - (lesson.durationSeconds + 30) * 1000;
    await track('tracking play', 0, at);
    for (let pos = 1.5; pos < lesson.durationSeconds; pos += 1.5) await track('tracking', pos, (at += 1500));
    const ack = await track('tracking end', lesson.durationSeconds, at + 1500);
    expect(ack).toMatchObject({ ok: true, completed: true });
    expect(await runtime.store.viewer(identity)).not.toBe(before);
  });

  it("makes a person's own pages stale the moment their progress is stored, or anything of theirs changes, and nobody else's", async () => {
    const me = { userId, contactId };
    const someone = { userId: userId + 1000, contactId: contactId + 1000 };
    const catalog = await runtime.catalog.get();
    const course = catalog.byId.get(1)!;
    const lesson = course.modules[0]!.lessons[1]!;
    let stamp = runtime.personStamps.now();
    const ack = await runtime.tracker.track({ contactId, createdBy: userId }, course, 'tracking', { Identificador: lesson.id, Avance: 1 }, Date.now());
    expect(ack).toMatchObject({ ok: true });
    expect(runtime.personStamps.fresh(me, stamp)).toBe(false);
    expect(runtime.personStamps.fresh(someone, stamp)).toBe(true);
    // A refused event stores nothing and changes nothing.
    stamp = runtime.personStamps.now();
    expect(await runtime.tracker.track({ contactId, createdBy: userId }, course, 'tracking', { Identificador: 999_999, Avance: 1 }, Date.now())).toMatchObject({ ok: false });
    expect(runtime.personStamps.fresh(me, stamp)).toBe(true);
    // A purchase, a completion… announced for the user.
    await runtime.personChanged({ userId });
    expect(runtime.personStamps.fresh(me, stamp)).toBe(false);
    expect(runtime.personStamps.fresh(someone, stamp)).toBe(true);
    // Another process's progress notice (here published by hand) names contacts.
    stamp = runtime.personStamps.now();
    await runtime.bus.publish('person', { progress: [contactId, 'not an id'] });
    expect(runtime.personStamps.fresh(me, stamp)).toBe(false);
    expect(runtime.personStamps.fresh(someone, stamp)).toBe(true);
  });

  it('drops the catalogue snapshot and kept pages when the catalogue changes', async () => {
    const snapshot = await runtime.catalog.get();
    const version = runtime.catalog.version;
    runtime.pages.set('http://localhost/courses?', version, { status: 200, headers: [], body: 'kept' });
    await handle.db.update(s.courses).set({ nameEs: 'Curso renombrado' }).where(eq(s.courses.id, 1));
    await runtime.catalogChanged();
    expect(runtime.catalog.version).toBe(version + 1);
    expect(runtime.pages.get('http://localhost/courses?', runtime.catalog.version)).toBeUndefined();
    const fresh = await runtime.catalog.get();
    expect(fresh).not.toBe(snapshot);
    expect(fresh.byId.get(1)!.nameEs).toBe('Curso renombrado');
  });

  it("keeps each course's exam until the catalogue changes, then reads the changed pool", async () => {
    const exam = await runtime.exams.get(1);
    expect(await runtime.exams.get(1)).toBe(exam);
    expect(await runtime.exams.get(999_999)).toBeNull();
    const question = exam!.pool[0]!;
    await handle.db.update(s.questions).set({ promptEs: 'Pregunta cambiada' }).where(eq(s.questions.id, question.id));
    // Unchanged until the catalogue says so (one query saved per answer), then the new text.
    expect((await runtime.exams.get(1))!.pool[0]!.promptEs).toBe(question.promptEs);
    await runtime.catalogChanged();
    const fresh = await runtime.exams.get(1);
    expect(fresh).not.toBe(exam);
    expect(fresh!.pool.find((q) => q.id === question.id)!.promptEs).toBe('Pregunta cambiada');
  });
});

describe('the certificate signing key', () => {
  const jwk = { kty: 'OKP', crv: 'Ed25519', d: 'nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' };

  it('is created in the data folder on first start and reused on the next; CERTIFICATE_SIGNING_KEY wins; a bad one stops the start', async () => {
    const handle = await pglite!.create();
    const dataDir = mkdtempSync(join(tmpdir(), 'academy-key-'));
    try {
      const first = await testRuntime(handle, { config: { dataDir } });
      await first.close();
      const file = signingKeyFile(dataDir)!;
      expect(existsSync(file)).toBe(true);
      expect(statSync(file).mode & 0o077).toBe(0);
      const second = await testRuntime(handle, { config: { dataDir } });
      await second.close();
      expect(second.signingKey.kid).toBe(first.signingKey.kid);
      const given = await testRuntime(handle, { config: { dataDir }, env: { CERTIFICATE_SIGNING_KEY: JSON.stringify(jwk) } });
      await given.close();
      expect(given.signingKey.publicJwk.x).toBe(jwk.x);
      expect(given.signingKey.kid).not.toBe(first.signingKey.kid);
      await expect(testRuntime(handle, { config: { dataDir, certificateSigningKey: JSON.stringify({ ...jwk, x: first.signingKey.publicJwk.x }) } })).rejects.toThrow(/not a JSON Ed25519 private JWK/);
      expect(signingKeyFile('memory://')).toBeNull();
    } finally {
      await handle.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
