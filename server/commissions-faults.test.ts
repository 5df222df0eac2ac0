/**
 * `kill -9` while an administrator records an IBO's payout or sets a commission rate
 * (`backoffice-faults.child.ts` running `recordPayout` / `setCommissionRate` on a copy of the seeded
 * database, killing itself at a step): after the payout's row is written, after the entries it covers are
 * marked settled, after its audit event, all inside one transaction. At every moment either nothing of
 * the payout exists (no row, every entry unpaid, no audit event) or all of it; the same form sent again
 * after the crash pays once, and once more pays nothing (one payout, never two). A rate killed mid-way
 * leaves the rate in force as it was. The commission entries themselves are written by the database's
 * own trigger function inside each payment's and refund's transaction (migration 0039), so a kill there
 * cannot separate them from the payment or the refund. On PGlite, and on PostgreSQL when it answers.
 */
import { describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import * as s from '../src/lib/db/schema';
import { iboRef } from '../src/lib/ibos/ibos';
import { rateRef } from '../src/lib/commissions/commissions';
import { expectNothingLeftAtEach, faultDatabases, useFaultTarget, runWrite, withDb } from '../src/lib/testing/fault-runs';

const NOW = Date.parse('2026-11-27T12:00:00Z');
const DAY = 86_400_000;
const PAYOUT_STEPS = ['payout-written', 'entries-settled', 'audit-written'];
const RATE_STEPS = ['rate-written', 'audit-written'];

describe.each(await faultDatabases())('kill -9 while commissions are paid or their rates set on $name', ({ name, up, share }) => {
  const target = useFaultTarget('commissions-faults', { name, up });

  it.skipIf(!up)("a payout writes its row, settles the IBO's approved entries and records its audit event together or not at all; a retry pays once", async () => {
    const { actor, ibo } = await withDb(target(), async ({ db }) => {
      const actor = (await db.select({ id: s.users.id }).from(s.users).where(eq(s.users.email, 'admin@academia.example')))[0]!.id;
      const ibo = (await db.select({ id: s.ibos.id }).from(s.ibos).where(eq(s.ibos.code, 'MUNDO2026')))[0]!.id;
      // Two orders the IBO referred: one paid 40 days ago (approved), one 2 days ago (pending).
      for (const [days, cents] of [
        [40, 5000],
        [2, 3000],
      ] as const) {
        const [u] = await db.insert(s.users).values({ email: `pago.caido.${days}@example.com`, firstName: 'Pago', lastName: 'Caído' }).returning();
        const at = new Date(NOW - days * DAY);
        const [o] = await db.insert(s.orders).values({ userId: u!.id, status: 'paid', subtotalCents: cents, discountCents: 0, totalCents: cents, idempotencyKey: `fault-commission-${days}`, paidAt: at, createdAt: at, referringIboId: ibo }).returning();
        await db.insert(s.orderItems).values({ orderId: o!.id, productKind: 'course', productId: 6, productCode: 'C6', titleEs: 'Curso', titleEn: 'Course', priceCents: cents });
      }
      return { actor, ibo };
    });
    const state = () =>
      withDb(target(), async ({ db }) => ({
        payouts: (await db.select().from(s.commissionPayouts).where(eq(s.commissionPayouts.iboId, ibo)).orderBy(asc(s.commissionPayouts.id))).map((p) => `${p.amountCents}:${p.entries}:${p.reference}`),
        entries: (await db.select().from(s.commissions).where(eq(s.commissions.iboId, ibo)).orderBy(asc(s.commissions.id))).map((c) => `${c.kind}:${c.amountCents}:${c.payoutId === null ? 'unpaid' : 'paid'}`),
        events: (await db.select().from(s.auditEvents).where(eq(s.auditEvents.subject, iboRef(ibo))).orderBy(asc(s.auditEvents.id))).map((e) => e.action),
      }));
    const before = await state();
    // 20 % of 50.00 approved, 20 % of 30.00 pending (the seed's default rates).
    expect(before).toEqual({ payouts: [], entries: ['earned:1000:unpaid', 'earned:600:unpaid'], events: [] });

    const payout = { actor, ibo, key: 'fault-payout-key-0001', reference: 'TRF-FAULT' };
    await expectNothingLeftAtEach('commission-payout', target(), share(PAYOUT_STEPS), { now: NOW, args: payout }, state, before);
    expect(await runWrite('commission-payout', target(), { now: NOW, args: payout })).toMatchObject({ end: 'done', result: { status: 'ok', repeated: false, amountCents: 1000 } });
    const paid = await state();
    expect(paid).toEqual({ payouts: ['1000:1:TRF-FAULT'], entries: ['earned:1000:paid', 'earned:600:unpaid'], events: ['commissions.payout'] });
    // The same form again: answered as done, nothing more; a new form: nothing approved is left.
    expect(await runWrite('commission-payout', target(), { now: NOW + 1000, args: payout })).toMatchObject({ end: 'done', result: { status: 'ok', repeated: true, amountCents: 1000 } });
    expect(await runWrite('commission-payout', target(), { now: NOW + 1000, args: { ...payout, key: 'fault-payout-key-0002' } })).toMatchObject({ end: 'done', result: { status: 'refused', refusal: 'nothingDue' } });
    expect(await state()).toEqual(paid);
  }, 900_000);

  it.skipIf(!up)('a rate killed mid-way leaves the rate in force as it was; once done, one rate and one audit event', async () => {
    const actor = await withDb(target(), async ({ db }) => (await db.select({ id: s.users.id }).from(s.users).where(eq(s.users.email, 'admin@academia.example')))[0]!.id);
    const state = () =>
      withDb(target(), async ({ db }) => ({
        rates: (await db.select().from(s.commissionRates).where(eq(s.commissionRates.productKind, 'book')).orderBy(asc(s.commissionRates.id))).map((r) => r.rateBp),
        events: (await db.select().from(s.auditEvents).where(eq(s.auditEvents.subject, rateRef('book')))).map((e) => e.action),
      }));
    const before = await state();
    expect(before).toEqual({ rates: [1000], events: [] });
    const args = { actor, kind: 'book', rate: 1250 };
    await expectNothingLeftAtEach('commission-rate', target(), share(RATE_STEPS), { now: NOW, args }, state, before);
    expect(await runWrite('commission-rate', target(), { now: NOW, args })).toMatchObject({ end: 'done', result: { unchanged: false } });
    expect(await state()).toEqual({ rates: [1000, 1250], events: ['commissions.rateSet'] });
  }, 900_000);
});
