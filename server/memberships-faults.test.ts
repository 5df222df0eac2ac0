/**
 * `kill -9` while finance extends or cancels a membership (`backoffice-faults.child.ts` running
 * `changeMembership` on a copy of the seeded database, killing itself at a step): after the membership's
 * row is written (its end, its cancellation: the renewal the job would charge), after its history line,
 * and after its audit event, all inside the one transaction. At every moment the membership, its
 * renewal, its history and its audit events are as they were, or changed together; the same form sent
 * again after the crash makes the change once, and once more changes nothing (one extension, never two).
 * On PGlite, and on PostgreSQL when it answers.
 */
import { describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import * as s from '../src/lib/db/schema';
import { membershipRef } from '../src/lib/commerce/membership-admin';
import { expectNothingLeftAtEach, faultDatabases, useFaultTarget, runWrite, withDb } from '../src/lib/testing/fault-runs';

const NOW = Date.parse('2026-11-27T12:00:00Z');
const DAY = 86_400_000;
const STEPS = ['membership-written', 'change-written', 'audit-written'];

describe.each(await faultDatabases())('kill -9 while a membership is changed on $name', ({ name, up, share }) => {
  const target = useFaultTarget('memberships-faults', { name, up });

  it.skipIf(!up)('an extension and a cancellation change the row, its renewal, its history and its audit event together or not at all; a retry does not extend twice', async () => {
    const { actor, membership } = await withDb(target(), async ({ db }) => {
      const actor = (await db.select({ id: s.users.id }).from(s.users).where(eq(s.users.email, 'admin@academia.example')))[0]!.id;
      const [u] = await db.insert(s.users).values({ email: 'socia.caida@example.com', firstName: 'Socia', lastName: 'Caída' }).returning();
      const [m] = await db.insert(s.memberships).values({ userId: u!.id, planId: 1, startsAt: new Date(NOW - 10 * DAY), endsAt: new Date(NOW + 20 * DAY), priceCents: 999 }).returning();
      return { actor, membership: m!.id };
    });
    const state = () =>
      withDb(target(), async ({ db }) => {
        const m = (await db.select().from(s.memberships).where(eq(s.memberships.id, membership)))[0]!;
        return {
          // What the renewal job reads: the end, the cancellation, the grace and the next try.
          row: { endsAt: m.endsAt, cancelledAt: m.cancelledAt, graceUntil: m.graceUntil, nextTryAt: m.nextTryAt },
          history: (await db.select().from(s.membershipChanges).where(eq(s.membershipChanges.membershipId, membership)).orderBy(asc(s.membershipChanges.id))).map((c) => `${c.kind}:${c.days ?? ''}`),
          events: (await db.select().from(s.auditEvents).where(eq(s.auditEvents.subject, membershipRef(membership))).orderBy(asc(s.auditEvents.id))).map((e) => e.action),
        };
      });
    const before = await state();
    expect(before).toEqual({ row: { endsAt: new Date(NOW + 20 * DAY), cancelledAt: null, graceUntil: null, nextTryAt: null }, history: [], events: [] });

    // Extend by 30 days: killed at each step, nothing; then the same form twice: one extension.
    const extend = { actor, membership, change: 'extend', days: 30, reason: 'Compensación', key: 'fault-extend-key-0001' };
    await expectNothingLeftAtEach('membership-change', target(), share(STEPS), { now: NOW, args: extend }, state, before);
    expect(await runWrite('membership-change', target(), { now: NOW, args: extend })).toMatchObject({ end: 'done', result: { status: 'ok', repeated: false } });
    const extended = await state();
    expect(extended).toEqual({ row: { ...before.row, endsAt: new Date(NOW + 50 * DAY) }, history: ['extend:30'], events: ['memberships.extended'] });
    expect(await runWrite('membership-change', target(), { now: NOW + 1000, args: extend })).toMatchObject({ end: 'done', result: { status: 'ok', repeated: true } });
    expect(await state()).toEqual(extended);

    // Cancel now: killed at each step, still extended and renewing; then cancelled once.
    const cancel = { actor, membership, change: 'cancelNow', reason: 'Fraude', key: 'fault-cancel-key-0001' };
    // The first and the last step of the transaction (the middle one is proved by the extension above).
    await expectNothingLeftAtEach('membership-change', target(), share([STEPS[0]!, STEPS[2]!]), { now: NOW, args: cancel }, state, extended);
    expect(await runWrite('membership-change', target(), { now: NOW, args: cancel })).toMatchObject({ end: 'done', result: { status: 'ok', repeated: false } });
    const cancelled = await state();
    expect(cancelled).toEqual({ row: { endsAt: new Date(NOW), cancelledAt: new Date(NOW), graceUntil: null, nextTryAt: null }, history: ['extend:30', 'cancelNow:'], events: ['memberships.extended', 'memberships.cancelled'] });
    // The same form again: answered as done; a new one: refused as ended. Nothing more written.
    expect(await runWrite('membership-change', target(), { now: NOW + 1000, args: cancel })).toMatchObject({ end: 'done', result: { status: 'ok', repeated: true } });
    expect(await runWrite('membership-change', target(), { now: NOW + 1000, args: { ...cancel, key: 'fault-cancel-key-0002' } })).toMatchObject({ end: 'done', result: { status: 'refused', refusal: 'ended' } });
    expect(await state()).toEqual(cancelled);
  }, 900_000);
});
