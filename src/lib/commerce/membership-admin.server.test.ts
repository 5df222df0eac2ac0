/**
 * Memberships changed by finance staff, on PGlite (and PostgreSQL when it answers): extended (the end and
 * the renewal move together), cancelled at the period's end and that undone, cancelled now (the plan's
 * categories close at once, no renewal is charged); each with its history line (the reason) and its
 * audit event in the same transaction; the same form twice is one change; every refusal writes nothing.
 * The list searches by e-mail or name, filters by plan and state, and pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { testDatabases } from '../db/testing';
import type { DbHandle } from '../db/client';
import * as s from '../db/schema';
import { loadViewer } from '../access';
import { auditOf } from '../privacy/audit.server';
import { SandboxGateway } from './sandbox';
import { renewDueMemberships } from './memberships.server';
import { changeMembership, listMembershipsForStaff, loadMembershipForStaff } from './membership-admin.server';
import { membershipRef } from './membership-admin';

const databases = await testDatabases();
const NOW = new Date('2026-11-27T12:00:00Z');
const DAY = 86_400_000;
const later = (days: number) => new Date(NOW.getTime() + days * DAY);

describe.each(databases)('memberships run by finance on $name', ({ create }) => {
  let handle: DbHandle;
  let adminId: number;
  let n = 0;
  const tag = Math.random().toString(36).slice(2, 8);

  /** A member holding plan `planId` (its period ends in `days` days), with a sandbox card. */
  const member = async (days = 20, planId = 1, over: Partial<typeof s.memberships.$inferInsert> = {}) => {
    n++;
    const [u] = await handle.db.insert(s.users).values({ email: `socio.${tag}.${n}@example.com`, firstName: 'Socio', lastName: `Prueba ${tag} ${n}` }).returning();
    const [c] = await handle.db.insert(s.contacts).values({ userId: u!.id, firstName: 'Socio', lastName: 'Prueba', email: u!.email }).returning();
    const [m] = await handle.db
      .insert(s.memberships)
      .values({ userId: u!.id, planId, startsAt: later(days - 30), endsAt: later(days), period: 'month', priceCents: 999, gateway: 'sandbox', gatewayToken: 'tok_sandbox_a_visa_4242_122030_test', cardBrand: 'visa', cardLast4: '4242', ...over })
      .returning();
    return { userId: u!.id, contactId: c!.id, id: m!.id, email: u!.email };
  };
  const row = async (id: number) => (await handle.db.select().from(s.memberships).where(eq(s.memberships.id, id)))[0]!;
  const history = (id: number) => handle.db.select().from(s.membershipChanges).where(eq(s.membershipChanges.membershipId, id)).orderBy(asc(s.membershipChanges.id));
  const categories = async (who: { userId: number; contactId: number }, at: Date) => [...(await loadViewer(handle.db, { kind: 'learner', ...who }, at)).membershipCategories].sort();
  const key = () => `form-${Math.random().toString(36).slice(2)}-${Date.now()}`;
  /** Everything a refusal must leave as it was. */
  const snapshot = async (id: number) => ({ row: await row(id), history: await history(id), audit: await auditOf(handle.db, membershipRef(id)) });

  beforeAll(async () => {
    handle = await create({ seed: true });
    adminId = (await handle.db.select().from(s.users).where(eq(s.users.email, 'admin@academia.example')))[0]!.id;
  });
  afterAll(async () => handle?.close());

  it('extends a membership: the end and the renewal move, with the reason in its history and one audit event; the same form again changes nothing', async () => {
    const m = await member(20);
    const form = { days: 30, reason: 'Compensación por caída del servicio', key: key() };
    const out = await changeMembership(handle.db, adminId, m.id, 'extend', form, NOW);
    expect(out).toMatchObject({ status: 'ok', repeated: false, membership: { endsAt: later(50) }, change: { kind: 'extend', days: 30, reason: form.reason, endsBefore: later(20), endsAfter: later(50) }, changed: [{ person: { userId: m.userId } }] });
    const [event] = await auditOf(handle.db, membershipRef(m.id));
    expect(event).toMatchObject({ action: 'memberships.extended', actor: `user:${adminId}`, before: { state: 'active', endsAt: later(20).toISOString() }, after: { state: 'active', endsAt: later(50).toISOString(), days: 30 } });
    // The reason stays out of the audit log (free text): the history has it.
    expect(JSON.stringify(event)).not.toContain('Compensación');
    // Posted again (a double click, a retry): the first change, answered again.
    expect(await changeMembership(handle.db, adminId, m.id, 'extend', form, NOW)).toMatchObject({ status: 'ok', repeated: true, membership: { endsAt: later(50) } });
    expect(await history(m.id)).toHaveLength(1);
    expect(await auditOf(handle.db, membershipRef(m.id))).toHaveLength(1);

    // The renewal moved with the end: nothing is charged at the old end, the new end renews it.
    const gateway = new SandboxGateway({ now: () => NOW, latencyMs: 1 });
    expect((await renewDueMemberships(handle.db, gateway, later(21))).filter((r) => r.membershipId === m.id)).toEqual([]);
    expect((await renewDueMemberships(handle.db, gateway, later(50.01))).filter((r) => r.membershipId === m.id)).toEqual([{ membershipId: m.id, userId: m.userId, outcome: 'renewed' }]);
  });

  it('cancels at the period end and undoes it; each twice is refused (409) with nothing written', async () => {
    const m = await member(20);
    expect(await changeMembership(handle.db, adminId, m.id, 'cancelAtEnd', { reason: 'Lo pidió por teléfono', key: key() }, NOW)).toMatchObject({ status: 'ok', membership: { cancelledAt: NOW, endsAt: later(20) } });
    expect(await categories(m, later(19))).toEqual([2, 3]);
    let before = await snapshot(m.id);
    expect(await changeMembership(handle.db, adminId, m.id, 'cancelAtEnd', { reason: 'Otra vez', key: key() }, NOW)).toMatchObject({ status: 'refused', refusal: 'alreadyCancelling' });
    expect(await snapshot(m.id)).toEqual(before);
    // No renewal while it is cancelling.
    const gateway = new SandboxGateway({ now: () => NOW, latencyMs: 1 });
    expect((await renewDueMemberships(handle.db, gateway, later(20.01))).filter((r) => r.membershipId === m.id)).toEqual([]);

    expect(await changeMembership(handle.db, adminId, m.id, 'resume', { reason: 'Cambió de idea', key: key() }, NOW)).toMatchObject({ status: 'ok', membership: { cancelledAt: null } });
    before = await snapshot(m.id);
    expect(await changeMembership(handle.db, adminId, m.id, 'resume', { reason: 'Otra vez', key: key() }, NOW)).toMatchObject({ status: 'refused', refusal: 'notCancelling' });
    expect(await snapshot(m.id)).toEqual(before);
    expect((await history(m.id)).map((h) => h.kind)).toEqual(['cancelAtEnd', 'resume']);
    expect((await auditOf(handle.db, membershipRef(m.id))).map((e) => e.action)).toEqual(['memberships.cancelAtEnd', 'memberships.resumed']);
  });

  it('cancels now: the categories close at once, no renewal is ever charged, and every later change is refused as ended', async () => {
    const m = await member(20);
    expect(await categories(m, NOW)).toEqual([2, 3]);
    const out = await changeMembership(handle.db, adminId, m.id, 'cancelNow', { reason: 'Fraude', key: key() }, NOW);
    expect(out).toMatchObject({ status: 'ok', membership: { endsAt: NOW, cancelledAt: NOW, graceUntil: null, nextTryAt: null }, changed: [{ person: { userId: m.userId } }] });
    expect(await categories(m, NOW)).toEqual([]);
    const gateway = new SandboxGateway({ now: () => NOW, latencyMs: 1 });
    expect((await renewDueMemberships(handle.db, gateway, later(21))).filter((r) => r.membershipId === m.id)).toEqual([]);

    const before = await snapshot(m.id);
    for (const change of ['cancelNow', 'extend', 'cancelAtEnd', 'resume'] as const) {
      expect(await changeMembership(handle.db, adminId, m.id, change, { days: 30, reason: 'Tarde', key: key() }, later(0.001)), change).toMatchObject({ status: 'refused', refusal: 'ended' });
    }
    expect(await snapshot(m.id)).toEqual(before);
    expect((await loadMembershipForStaff(handle.db, m.id, later(0.001)))!.state).toBe('lapsed');
  });

  it('lets a membership whose renewal is being retried only be cancelled now, which stops the retries', async () => {
    const m = await member(-1, 1, { graceUntil: later(2), nextTryAt: later(0.5) });
    const before = await snapshot(m.id);
    expect(await changeMembership(handle.db, adminId, m.id, 'extend', { days: 30, reason: 'x', key: key() }, NOW)).toMatchObject({ status: 'refused', refusal: 'grace' });
    expect(await snapshot(m.id)).toEqual(before);
    expect(await categories(m, NOW)).toEqual([2, 3]);
    expect(await changeMembership(handle.db, adminId, m.id, 'cancelNow', { reason: 'Sin tarjeta', key: key() }, NOW)).toMatchObject({ status: 'ok', membership: { graceUntil: null, nextTryAt: null } });
    expect(await categories(m, NOW)).toEqual([]);
    const gateway = new SandboxGateway({ now: () => NOW, latencyMs: 1 });
    expect((await renewDueMemberships(handle.db, gateway, later(1))).filter((r) => r.membershipId === m.id)).toEqual([]);
  });

  it('answers unknown for a membership that does not exist, writing nothing', async () => {
    const events = await handle.db.select().from(s.auditEvents);
    expect(await changeMembership(handle.db, adminId, 2_147_483_647, 'extend', { days: 5, reason: 'x', key: key() }, NOW)).toEqual({ status: 'unknown' });
    expect(await changeMembership(handle.db, adminId, 2_147_483_647, 'cancelNow', { reason: 'x', key: key() }, NOW)).toEqual({ status: 'unknown' });
    expect(await loadMembershipForStaff(handle.db, 2_147_483_647, NOW)).toBeNull();
    expect(await handle.db.select().from(s.auditEvents)).toEqual(events);
  });

  it('lists memberships by e-mail or name, plan and state, a page at a time; a page shows its orders and history', async () => {
    const a = await member(20, 2);
    const b = await member(20, 2);
    const c = await member(20, 2);
    await changeMembership(handle.db, adminId, b.id, 'cancelAtEnd', { reason: 'x', key: key() }, NOW);
    await changeMembership(handle.db, adminId, c.id, 'cancelNow', { reason: 'y', key: key() }, NOW);
    const at = later(0.001);
    const ids = async (f: Parameters<typeof listMembershipsForStaff>[1]) => (await listMembershipsForStaff(handle.db, f, at)).lines.map((l) => l.id).sort((x, y) => x - y);
    expect(await ids({ q: `socio.${tag}`, plan: 2, page: 1 })).toEqual([a.id, b.id, c.id]);
    expect(await ids({ q: a.email.toUpperCase(), page: 1 })).toEqual([a.id]);
    expect(await ids({ q: `Prueba ${tag} ${n - 1}`, page: 1 })).toEqual([b.id]);
    expect(await ids({ q: `socio.${tag}`, plan: 2, state: 'active', page: 1 })).toEqual([a.id]);
    expect(await ids({ q: `socio.${tag}`, plan: 2, state: 'cancelling', page: 1 })).toEqual([b.id]);
    expect(await ids({ q: `socio.${tag}`, plan: 2, state: 'ended', page: 1 })).toEqual([c.id]);
    // LIKE's wildcards typed in the search are letters.
    expect(await ids({ q: '%', page: 1 })).toEqual([]);
    const list = await listMembershipsForStaff(handle.db, { q: `socio.${tag}`, plan: 2, page: 1 }, at);
    expect(list.lines.find((l) => l.id === b.id)).toMatchObject({ state: 'cancelled', plan: { es: 'Profesional' }, member: { email: b.email } });
    expect(list.plans.map((p) => p.id)).toEqual([1, 2, 3]);
    // Pages of 20: a page past the last is the last.
    const many = await listMembershipsForStaff(handle.db, { page: 999 }, at);
    expect(many.page).toBe(many.pages);
    expect(many.total).toBeGreaterThanOrEqual(3);

    const page = await loadMembershipForStaff(handle.db, b.id, at);
    expect(page).toMatchObject({ id: b.id, state: 'cancelled', nextRenewal: null, card: { brand: 'visa', last4: '4242' }, history: [{ kind: 'cancelAtEnd', reason: 'x', actor: expect.any(String) }] });
  });
});
