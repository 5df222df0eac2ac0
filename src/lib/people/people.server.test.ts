/**
 * The people area on the seeded database: the search by name (accents and case aside), e-mail and IBO
 * code (the people it referred and its own account); a person's page with what their own pages show;
 * blocking (no login with a sentence for the right password, sessions gone on every process, never
 * oneself or the last administrator); a course granted once with its reason, refused for a course held,
 * unknown or unpublished; user types; every change audited in the same transaction.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../db/testing';
import type { DbHandle } from '../db/client';
import * as s from '../db/schema';
import { auditOf } from '../privacy/audit.server';
import { CatalogStore } from '../catalog/catalog.server';
import { authenticate } from '../identity/account.server';
import { createSession, readSession } from '../identity/session.server';
import { SessionCache } from '../identity/session-cache.server';
import { blockPerson, endPersonSessions, grantCourse, loadPerson, searchPeople, setPersonType, unblockPerson } from './people.server';

const databases = await testDatabases();

describe.each(databases)('people in the back office ($name)', (database) => {
  let handle: DbHandle;
  let adminId: number;
  let learnerId: number;
  let graduateId: number;
  const idOf = async (email: string) => (await handle.db.select({ id: s.users.id }).from(s.users).where(eq(s.users.email, email)))[0]!.id;
  const find = (q: string) => searchPeople(handle.db, { q, page: 1 });

  beforeAll(async () => {
    handle = await database.create({ seed: true });
    adminId = await idOf('admin@academia.example');
    learnerId = await idOf('learner@academia.example');
    graduateId = await idOf('graduate@academia.example');
    const [ibo] = await handle.db.select({ id: s.ibos.id }).from(s.ibos).where(eq(s.ibos.code, 'HORIZONTE01'));
    await handle.db.update(s.users).set({ referredByIboId: ibo!.id }).where(eq(s.users.id, learnerId));
  });
  afterAll(async () => {
    await handle.close();
  });

  it('finds people by name without minding accents or case, by e-mail, and by IBO code', async () => {
    expect((await find('laura mendez')).lines.map((l) => l.id)).toContain(learnerId);
    expect((await find('MÉNDEZ')).lines.map((l) => l.id)).toContain(learnerId);
    expect((await find('learner@academia')).lines.map((l) => l.id)).toEqual([learnerId]);
    const byCode = await find('horizonte01');
    // The people it referred (the learner here, two of the demo's), and the IBO's own account.
    expect(byCode.lines.map((l) => l.email).sort()).toEqual(['ibo.horizonte@academia.example', 'learner@academia.example', 'raul.diaz@academia.example', 'sara.leon@academia.example']);
    expect(byCode.lines.find((l) => l.id === learnerId)).toMatchObject({ referredBy: 'HORIZONTE01', type: 'learner', blocked: false });
    expect(byCode.lines.find((l) => l.id !== learnerId)!.ownCode).toBe('HORIZONTE01');
    // A typed wildcard is matched as itself.
    expect((await find('%')).total).toBe(0);
    expect((await find('nadie-con-este-nombre')).lines).toEqual([]);
    const everyone = await find('');
    expect(everyone.total).toBeGreaterThan(5);
    expect(everyone.lines[0]!.createdAt.getTime()).toBeGreaterThanOrEqual(everyone.lines.at(-1)!.createdAt.getTime());
  });

  it("shows a person's page with what their own pages compute, and nothing for an unknown id", async () => {
    const catalog = await new CatalogStore(handle.db).get();
    const page = (await loadPerson(handle.db, catalog, graduateId, 'en'))!;
    expect(page.person.email).toBe('graduate@academia.example');
    expect(page.courses.some((c) => c.completed && c.progress.percent === 100)).toBe(true);
    expect(page.certificates.length).toBeGreaterThan(0);
    expect(page.attempts.some((a) => a.passed === true && a.score !== null)).toBe(true);
    const buyer = (await loadPerson(handle.db, catalog, await idOf('buyer@academia.example'), 'es'))!;
    expect(buyer.orders.length).toBeGreaterThan(0);
    expect(buyer.grantable.map((c) => c.id)).not.toContain(10);
    expect(await loadPerson(handle.db, catalog, 2_000_000_000, 'es')).toBeNull();
  });

  it('blocks a person: the right password is told so, their sessions end on every process, and unblocking lets them in again', async () => {
    const { token } = await createSession(handle.db, { kind: 'user', userId: learnerId });
    const cache = new SessionCache(handle.db);
    expect((await cache.read(token))?.user?.id).toBe(learnerId);

    const outcome = await blockPerson(handle.db, adminId, learnerId);
    expect(outcome).toMatchObject({ status: 'blocked', changed: [{ session: { userId: learnerId } }] });
    // The change told to every process makes each cache forget the person's sessions.
    if (outcome.status === 'blocked') for (const c of outcome.changed) if ('session' in c) cache.forget(c.session);
    expect(await cache.read(token)).toBeNull();
    expect(await handle.db.select().from(s.sessions).where(eq(s.sessions.userId, learnerId))).toEqual([]);
    expect(await authenticate(handle.db, 'learner@academia.example', 'Aprende2026', 1024)).toEqual({ status: 'blocked' });
    // A wrong password learns nothing about the block.
    expect(await authenticate(handle.db, 'learner@academia.example', 'wrong-password', 1024)).toEqual({ status: 'invalid' });
    // A session opened while the block was being written reads as none.
    const late = await createSession(handle.db, { kind: 'user', userId: learnerId });
    expect(await readSession(handle.db, late.token)).toBeNull();
    expect((await blockPerson(handle.db, adminId, learnerId)).status).toBe('alreadyBlocked');
    expect((await find('learner@academia')).lines[0]!.blocked).toBe(true);

    expect(await unblockPerson(handle.db, adminId, learnerId)).toEqual({ status: 'unblocked' });
    expect(await unblockPerson(handle.db, adminId, learnerId)).toEqual({ status: 'notBlocked' });
    expect((await authenticate(handle.db, 'learner@academia.example', 'Aprende2026', 1024)).status).toBe('ok');
    expect((await auditOf(handle.db, `user:${learnerId}`)).map((e) => [e.action, e.actor])).toEqual([
      ['people.blocked', `user:${adminId}`],
      ['people.unblocked', `user:${adminId}`],
    ]);
  });

  it('never blocks oneself or the last administrator, nor makes them a type that cannot log in', async () => {
    expect(await blockPerson(handle.db, adminId, adminId)).toEqual({ status: 'self' });
    expect(await blockPerson(handle.db, learnerId, adminId)).toEqual({ status: 'lastAdministrator' });
    expect(await setPersonType(handle.db, learnerId, adminId, 'refused')).toEqual({ status: 'lastAdministrator' });
    expect(await setPersonType(handle.db, adminId, adminId, 'prospect')).toEqual({ status: 'self' });
    const [admin] = await handle.db.select().from(s.users).where(eq(s.users.id, adminId));
    expect(admin!.blockedAt).toBeNull();
    expect(await auditOf(handle.db, `user:${adminId}`, 'people.blocked')).toEqual([]);
  });

  it('changes a user type with its before and after in the audit trail', async () => {
    expect(await setPersonType(handle.db, adminId, graduateId, 'refused')).toMatchObject({ status: 'changed' });
    expect(await setPersonType(handle.db, adminId, graduateId, 'refused')).toMatchObject({ status: 'unchanged' });
    expect(await setPersonType(handle.db, adminId, graduateId, 'learner')).toMatchObject({ status: 'changed' });
    expect((await auditOf(handle.db, `user:${graduateId}`, 'people.type.changed')).map((e) => [e.before, e.after])).toEqual([
      [{ type: 'learner' }, { type: 'refused' }],
      [{ type: 'refused' }, { type: 'learner' }],
    ]);
  });

  it('grants a published course once, with its reason; a course held, unknown or unpublished is refused with nothing written', async () => {
    const held = new Set((await handle.db.select().from(s.purchaseAccess).where(eq(s.purchaseAccess.userId, learnerId))).map((r) => r.courseId));
    const published = await handle.db.select({ id: s.courses.id }).from(s.courses).where(and(eq(s.courses.hidden, false), eq(s.courses.isTest, false)));
    const [course, hiddenCourse] = published.map((c) => c.id).filter((id) => !held.has(id));
    const outcome = await grantCourse(handle.db, adminId, learnerId, course!, 'Compensación por una caída del servicio');
    expect(outcome).toMatchObject({ status: 'granted', changed: [{ person: { userId: learnerId } }] });
    expect(await grantCourse(handle.db, adminId, learnerId, course!, 'Otra vez')).toEqual({ status: 'held' });
    expect(await grantCourse(handle.db, adminId, learnerId, 999_999, 'Curso inexistente')).toEqual({ status: 'unknownCourse' });
    await handle.db.update(s.courses).set({ hidden: true }).where(eq(s.courses.id, hiddenCourse!));
    expect(await grantCourse(handle.db, adminId, learnerId, hiddenCourse!, 'Curso oculto')).toEqual({ status: 'unpublished' });
    await handle.db.update(s.courses).set({ hidden: false }).where(eq(s.courses.id, hiddenCourse!));
    expect(await grantCourse(handle.db, adminId, 2_000_000_000, course!, 'Nadie')).toEqual({ status: 'unknown' });

    const grants = await handle.db.select().from(s.courseGrants).where(eq(s.courseGrants.userId, learnerId));
    expect(grants).toHaveLength(1);
    expect(grants[0]).toMatchObject({ courseId: course, reason: 'Compensación por una caída del servicio', grantedBy: adminId });
    const events = await auditOf(handle.db, `user:${learnerId}`, 'people.course.granted');
    expect(events.map((e) => e.after)).toEqual([{ course, grant: `grant:${grants[0]!.id}` }]);
    // The reason is staff's free text: kept with the grant, not in the audit trail.
    expect(JSON.stringify(events)).not.toContain('Compensación');
    const catalog = await new CatalogStore(handle.db).get();
    const page = (await loadPerson(handle.db, catalog, learnerId, 'es'))!;
    expect(page.grants.map((g) => [g.courseId, g.reason, g.grantedBy])).toEqual([[course, 'Compensación por una caída del servicio', 'Andrés Salazar']]);
    expect(page.grantable.map((c) => c.id)).not.toContain(course);
  });

  it('ends every session of a person and records how many', async () => {
    await createSession(handle.db, { kind: 'user', userId: graduateId });
    await createSession(handle.db, { kind: 'user', userId: graduateId });
    const outcome = await endPersonSessions(handle.db, adminId, graduateId);
    expect(outcome).toMatchObject({ status: 'ok', ended: 2 });
    expect(await handle.db.select().from(s.sessions).where(eq(s.sessions.userId, graduateId))).toEqual([]);
    expect((await auditOf(handle.db, `user:${graduateId}`, 'people.sessions.ended')).map((e) => e.after)).toEqual([{ ended: 2 }]);
    expect(await endPersonSessions(handle.db, adminId, 2_000_000_000)).toEqual({ status: 'unknown' });
  });
});
