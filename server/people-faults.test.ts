/**
 * `kill -9` while support grants a course, ends a person's sessions, changes their user type or blocks
 * them (`backoffice-faults.child.ts` running `grantCourse`, `endPersonSessions`, `setPersonType` or
 * `blockPerson` on a data folder, killing itself at a step): after the change is written and after its
 * audit event is written, both inside the transaction. The person is at every moment as they were, with
 * no event, or changed with exactly one event; the grant replayed after the crashes grants once, and a
 * replay after it succeeded is refused (`held`) with nothing more written. On PGlite, and on PostgreSQL
 * when it answers (each a copy of the run's seeded database; the kill points in turn, see `share`).
 */
import { describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import * as s from '../src/lib/db/schema';
import { expectNothingLeftAtEach, faultDatabases, useFaultTarget, runWrite, withDb } from '../src/lib/testing/fault-runs';

const NOW = Date.parse('2026-11-27T12:00:00Z');
const REASON = 'Compensación por la caída del 26 de noviembre';

describe.each(await faultDatabases())('kill -9 while support grants a course, ends sessions, changes a type or blocks a person on $name', ({ name, up, share }) => {
  const target = useFaultTarget('people-faults', { name, up });

  it.skipIf(!up)('a grant, ended sessions, a new type and a block are written with their audit event, or not at all; a replay never grants twice', async () => {
    const { actor, person, course } = await withDb(target(), async ({ db }) => {
      const idOf = async (email: string) => (await db.select({ id: s.users.id }).from(s.users).where(eq(s.users.email, email)))[0]!.id;
      const person = await idOf('learner@academia.example');
      const held = new Set((await db.select().from(s.purchaseAccess).where(eq(s.purchaseAccess.userId, person))).map((r) => r.courseId));
      const open = await db.select({ id: s.courses.id }).from(s.courses).where(and(eq(s.courses.hidden, false), eq(s.courses.isTest, false)));
      return { actor: await idOf('admin@academia.example'), person, course: open.map((c) => c.id).find((id) => !held.has(id))! };
    });
    const state = () =>
      withDb(target(), async ({ db }) => ({
        access: (await db.select().from(s.purchaseAccess).where(and(eq(s.purchaseAccess.userId, person), eq(s.purchaseAccess.courseId, course)))).length,
        grants: (await db.select().from(s.courseGrants).where(eq(s.courseGrants.userId, person))).map((g) => [g.courseId, g.reason]),
        blockedAt: (await db.select({ at: s.users.blockedAt }).from(s.users).where(eq(s.users.id, person)))[0]!.at,
        type: (await db.select({ type: s.users.userType }).from(s.users).where(eq(s.users.id, person)))[0]!.type,
        sessions: (await db.select().from(s.sessions).where(eq(s.sessions.userId, person))).length,
        events: (await db.select().from(s.auditEvents).where(eq(s.auditEvents.subject, `user:${person}`)).orderBy(asc(s.auditEvents.id))).map((e) => e.action),
      }));
    const before = await state();
    expect(before).toMatchObject({ access: 0, grants: [], blockedAt: null, events: [] });

    const grant = { actor, person, course, reason: REASON };
    await expectNothingLeftAtEach('people-grant', target(), share(['access-written', 'audit-written']), { now: NOW, args: grant }, state, before);
    expect(await runWrite('people-grant', target(), { now: NOW, args: grant })).toMatchObject({ end: 'done', result: { status: 'granted' } });
    const granted = await state();
    expect(granted).toMatchObject({ access: 1, grants: [[course, REASON]], events: ['people.course.granted'] });
    // The same grant replayed (the answer was lost with a crash after the commit): refused, nothing doubled.
    expect(await runWrite('people-grant', target(), { now: NOW + 1000, args: grant })).toMatchObject({ end: 'done', result: { status: 'held' } });
    expect(await state()).toEqual(granted);

    const openTwo = (tag: string) =>
      withDb(target(), async ({ db }) => {
        for (const h of ['a', 'b']) await db.insert(s.sessions).values({ tokenHash: `fault-session-${tag}-${h}`, kind: 'user', userId: person, expiresAt: new Date(NOW + 86_400_000) });
      });

    // Ending the sessions, two open: killed at each step, both still open; then both end, audited once.
    await openTwo('end');
    const twoOpen = await state();
    expect(twoOpen.sessions).toBe(2);
    const endAll = { actor, person };
    await expectNothingLeftAtEach('people-end-sessions', target(), share(['sessions-deleted', 'audit-written']), { now: NOW, args: endAll }, state, twoOpen);
    expect(await runWrite('people-end-sessions', target(), { now: NOW, args: endAll })).toMatchObject({ end: 'done', result: { status: 'ok', ended: 2 } });
    const ended = await state();
    expect(ended).toEqual({ ...twoOpen, sessions: 0, events: [...granted.events, 'people.sessions.ended'] });

    // A new user type (refused: no more logins): killed at each step, still a learner; then changed, audited once.
    const refuse = { actor, person, type: 'refused' };
    await expectNothingLeftAtEach('people-set-type', target(), share(['type-written', 'audit-written']), { now: NOW, args: refuse }, state, ended);
    expect(await runWrite('people-set-type', target(), { now: NOW, args: refuse })).toMatchObject({ end: 'done', result: { status: 'changed' } });
    expect(await state()).toEqual({ ...ended, type: s.USER_TYPE.refused, events: [...ended.events, 'people.type.changed'] });
    expect(await runWrite('people-set-type', target(), { now: NOW, args: { ...refuse, type: 'learner' } })).toMatchObject({ end: 'done', result: { status: 'changed' } });

    // Blocking, with two sessions open.
    await openTwo('block');
    const open = await state();
    expect(open.sessions).toBe(2);
    const block = { actor, person };
    await expectNothingLeftAtEach('people-block', target(), share(['block-written', 'audit-written']), { now: NOW, args: block }, state, open);
    expect(await runWrite('people-block', target(), { now: NOW, args: block })).toMatchObject({ end: 'done', result: { status: 'blocked' } });
    const blocked = await state();
    expect(blocked).toMatchObject({ blockedAt: new Date(NOW), sessions: 0, type: s.USER_TYPE.learner, events: ['people.course.granted', 'people.sessions.ended', 'people.type.changed', 'people.type.changed', 'people.blocked'] });
    expect(await runWrite('people-block', target(), { now: NOW + 1000, args: block })).toMatchObject({ end: 'done', result: { status: 'alreadyBlocked' } });
    expect(await state()).toEqual(blocked);
  }, 900_000);
});
