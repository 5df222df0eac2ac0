/**
 * Coupons managed by finance staff, on PGlite (and PostgreSQL when it answers): created, edited and
 * expired with their audit events (before and after), a code taken or a limit below the uses so far
 * refused with nothing written, the code kept once orders used it, the orders' own discounts kept
 * through an edit, and the uses listed without the buyer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { testDatabases } from '../db/testing';
import type { DbHandle } from '../db/client';
import * as s from '../db/schema';
import { auditOf } from '../privacy/audit.server';
import { readCouponForm, type CouponDraft } from './coupon-form';
import { couponUses, expireCoupon, findCoupon, loadCouponsPage, saveCoupon } from './coupons.server';
import { readCoupon } from './orders.server';
import { applyCoupon } from './coupon';

const databases = await testDatabases();
const NOW = new Date('2026-11-27T12:00:00Z');

function draft(over: Record<string, unknown> = {}): CouponDraft {
  const read = readCouponForm({ code: 'navidad-15', kind: 'percent', percent: '15', startsAt: '2026-12-01T00:00', endsAt: '2027-01-06T00:00', maxUses: '', ...over }, NOW);
  if (!read.ok) throw new Error(JSON.stringify(read.problem));
  return read.value;
}

describe.each(databases)('coupons managed by finance on $name', ({ create }) => {
  let handle: DbHandle;
  let adminId: number;
  let buyerId: number;

  beforeAll(async () => {
    handle = await create({ seed: true });
    const [admin] = await handle.db.select().from(s.users).where(eq(s.users.email, 'admin@academia.example'));
    adminId = admin!.id;
    const [buyer] = await handle.db.insert(s.users).values({ email: `cupones.${Math.random().toString(36).slice(2)}@example.com`, firstName: 'Cupón', lastName: 'Prueba' }).returning();
    buyerId = buyer!.id;
  });
  afterAll(async () => handle?.close());

  /** An order that used `code` with `discountCents` off, as checkout writes it (and the use it counted). */
  async function orderWith(code: string, discountCents: number, status: 'paid' | 'pending' = 'paid') {
    const [order] = await handle.db
      .insert(s.orders)
      .values({ userId: buyerId, status, subtotalCents: 2000, discountCents, totalCents: 2000 - discountCents, couponCode: code, idempotencyKey: Math.random().toString(36), createdAt: NOW })
      .returning();
    const [c] = await handle.db.select().from(s.coupons).where(eq(s.coupons.code, code));
    await handle.db.update(s.coupons).set({ uses: c!.uses + 1 }).where(eq(s.coupons.id, c!.id));
    await handle.db.insert(s.couponRedemptions).values({ orderId: order!.id, couponId: c!.id, userId: buyerId, discountCents, createdAt: NOW });
    return order!;
  }

  it('creates a coupon, lists it first, and audits it', async () => {
    // Created after the seeded coupons: first in the list.
    const out = await saveCoupon(handle.db, adminId, null, draft(), new Date(Date.now() + 1000));
    expect(out).toMatchObject({ status: 'ok', created: true, coupon: { code: 'NAVIDAD-15', kind: 'percent', percent: 15, amountCents: null, uses: 0, maxUses: null } });
    if (out.status !== 'ok') return;
    expect(out.coupon.startsAt).toEqual(new Date('2026-12-01T00:00:00Z'));
    expect(out.coupon.expiresAt).toEqual(new Date('2027-01-06T00:00:00Z'));
    const page = await loadCouponsPage(handle.db, null);
    expect(page.coupons[0]!.code).toBe('NAVIDAD-15');
    const [event] = await auditOf(handle.db, `coupon:${out.coupon.id}`);
    expect(event).toMatchObject({ action: 'coupons.created', actor: `user:${adminId}`, before: null, after: { code: 'NAVIDAD-15', percent: 15, startsAt: '2026-12-01T00:00:00.000Z' } });
  });

  it('refuses a code another coupon has (in any case typed), writing nothing', async () => {
    const before = await handle.db.select().from(s.coupons);
    expect(await saveCoupon(handle.db, adminId, null, draft({ code: 'Navidad-15', kind: 'fixed', amount: '5' }), NOW)).toEqual({ status: 'taken', code: 'NAVIDAD-15' });
    expect(await saveCoupon(handle.db, adminId, null, draft({ code: 'bienvenida10' }), NOW)).toEqual({ status: 'taken', code: 'BIENVENIDA10' });
    expect(await handle.db.select().from(s.coupons)).toEqual(before);
  });

  it('edits a coupon that orders used: their discounts stay, the code stays, the limit never drops below the uses', async () => {
    const made = await saveCoupon(handle.db, adminId, null, draft({ code: 'USADO', startsAt: '' }), NOW);
    if (made.status !== 'ok') throw new Error(made.status);
    const first = await orderWith('USADO', 300);
    await orderWith('USADO', 300, 'pending');
    // 15 % → a fixed $5.00: later checkouts get $5.00, the orders keep their $3.00.
    const edited = await saveCoupon(handle.db, adminId, made.coupon.id, draft({ code: 'USADO', startsAt: '', kind: 'fixed', amount: '5.00', maxUses: '2' }), NOW);
    expect(edited).toMatchObject({ status: 'ok', created: false, coupon: { kind: 'fixed', amountCents: 500, percent: null, maxUses: 2, uses: 2 } });
    const [kept] = await handle.db.select().from(s.orders).where(eq(s.orders.id, first.id));
    expect(kept).toMatchObject({ discountCents: 300, totalCents: 1700, couponCode: 'USADO' });
    const stored = await readCoupon(handle.db, 'USADO');
    expect(applyCoupon(2000, stored!.coupon, NOW, 0)).toEqual({ ok: true, discountCents: 500, totalCents: 1500 });

    const rowBefore = await findCoupon(handle.db, made.coupon.id);
    expect(await saveCoupon(handle.db, adminId, made.coupon.id, draft({ code: 'USADO', startsAt: '', maxUses: '1' }), NOW)).toEqual({ status: 'belowUses', uses: 2 });
    expect(await saveCoupon(handle.db, adminId, made.coupon.id, draft({ code: 'OTRO', startsAt: '' }), NOW)).toEqual({ status: 'codeLocked', code: 'USADO' });
    expect(await findCoupon(handle.db, made.coupon.id)).toEqual(rowBefore);

    const events = await auditOf(handle.db, `coupon:${made.coupon.id}`);
    expect(events.map((e) => e.action)).toEqual(['coupons.created', 'coupons.updated']);
    expect(events[1]).toMatchObject({ before: { kind: 'percent', percent: 15, maxUses: null }, after: { kind: 'fixed', amountCents: 500, maxUses: 2 } });

    const uses = await couponUses(handle.db, made.coupon.id);
    expect(uses).toMatchObject({ total: 2, page: 1, pages: 1 });
    expect(uses.uses[0]).toEqual({ orderId: expect.any(Number), at: NOW, buyer: { id: expect.any(Number), name: expect.any(String), email: expect.stringContaining('@') }, totalCents: 1700, discountCents: 300, status: expect.stringMatching(/^(paid|pending)$/) });
    // A page past the last is the last; another coupon's uses are not these.
    expect((await couponUses(handle.db, made.coupon.id, 99)).uses).toHaveLength(2);
    expect((await couponUses(handle.db, 999_999)).total).toBe(0);
    const page = await loadCouponsPage(handle.db, String(made.coupon.id));
    expect(page.editing).toMatchObject({ coupon: { code: 'USADO' }, uses: { total: 2, uses: [{ discountCents: 300 }, { discountCents: 300 }] } });
  });

  it('renames a coupon no order used', async () => {
    const made = await saveCoupon(handle.db, adminId, null, draft({ code: 'BORRADOR' }), NOW);
    if (made.status !== 'ok') throw new Error(made.status);
    expect(await saveCoupon(handle.db, adminId, made.coupon.id, draft({ code: 'definitivo' }), NOW)).toMatchObject({ status: 'ok', coupon: { code: 'DEFINITIVO' } });
  });

  it('expires a coupon now: checkout refuses it from then on; a second expiry changes nothing', async () => {
    const made = await saveCoupon(handle.db, adminId, null, draft({ code: 'FUGAZ', startsAt: '2026-12-10T00:00' }), NOW);
    if (made.status !== 'ok') throw new Error(made.status);
    const out = await expireCoupon(handle.db, adminId, made.coupon.id, NOW);
    expect(out).toMatchObject({ status: 'expired', coupon: { expiresAt: NOW, startsAt: NOW } });
    const stored = await readCoupon(handle.db, 'FUGAZ');
    expect(applyCoupon(2000, stored!.coupon, NOW, stored!.uses)).toEqual({ ok: false, reason: 'expired' });
    expect(await expireCoupon(handle.db, adminId, made.coupon.id, new Date(NOW.getTime() + 1000))).toMatchObject({ status: 'alreadyExpired' });
    const events = await auditOf(handle.db, `coupon:${made.coupon.id}`);
    expect(events.map((e) => e.action)).toEqual(['coupons.created', 'coupons.expired']);
    expect(events[1]).toMatchObject({ before: { expiresAt: '2027-01-06T00:00:00.000Z' }, after: { expiresAt: NOW.toISOString() } });
  });

  it('keeps a start after the end out of the table, whoever writes it', async () => {
    await expect(handle.db.insert(s.coupons).values({ code: 'AL-REVES', kind: 'percent', percent: 10, startsAt: new Date('2027-02-01T00:00:00Z'), expiresAt: new Date('2027-01-01T00:00:00Z') })).rejects.toThrow();
    expect(await handle.db.select().from(s.coupons).where(eq(s.coupons.code, 'AL-REVES'))).toEqual([]);
  });

  it('answers unknown for a coupon that does not exist', async () => {
    expect(await saveCoupon(handle.db, adminId, 999_999, draft({ code: 'NADIE' }), NOW)).toEqual({ status: 'unknown' });
    expect(await expireCoupon(handle.db, adminId, 999_999, NOW)).toEqual({ status: 'unknown' });
    expect((await loadCouponsPage(handle.db, '999999')).editing).toBe('unknown');
    expect((await loadCouponsPage(handle.db, 'abc')).editing).toBe('unknown');
  });
});
