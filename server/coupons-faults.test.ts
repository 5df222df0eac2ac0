/**
 * `kill -9` while finance changes a coupon (`backoffice-faults.child.ts` running `saveCoupon` or
 * `expireCoupon` on a data folder, killing itself at a step): after the coupon is written and after its
 * audit event is written, both inside the transaction. The coupon is at every
 * moment as it was, with no event, or changed with exactly one event; the change made again afterwards
 * works. On PGlite, and on PostgreSQL when it answers (each a copy of the run's seeded database).
 */
import { describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import * as s from '../src/lib/db/schema';
import { readCouponForm } from '../src/lib/commerce/coupon-form';
import { saveCoupon } from '../src/lib/commerce/coupons.server';
import { expectNothingLeftAtEach, faultDatabases, useFaultTarget, runWrite, withDb } from '../src/lib/testing/fault-runs';

const NOW = Date.parse('2026-11-27T12:00:00Z');
const FORM = { code: 'CAIDA-15', kind: 'percent', percent: '15', startsAt: '', endsAt: '2027-06-30T00:00', maxUses: '' };

describe.each(await faultDatabases())('kill -9 while a coupon is changed on $name', ({ name, up, share }) => {
  const target = useFaultTarget('coupons-faults', { name, up });

  it.skipIf(!up)('an edit and an expiry are written with their audit event, or not at all', async () => {
    const { actor, coupon } = await withDb(target(), async ({ db }) => {
      const actor = (await db.select({ id: s.users.id }).from(s.users).where(eq(s.users.email, 'admin@academia.example')))[0]!.id;
      const form = readCouponForm(FORM, new Date(NOW));
      if (!form.ok) throw new Error('form refused');
      const made = await saveCoupon(db, actor, null, form.value, new Date(NOW));
      if (made.status !== 'ok') throw new Error(made.status);
      return { actor, coupon: made.coupon.id };
    });
    const state = () =>
      withDb(target(), async ({ db }) => ({
        coupon: (await db.select().from(s.coupons).where(eq(s.coupons.id, coupon)))[0]!,
        events: (await db.select().from(s.auditEvents).where(eq(s.auditEvents.subject, `coupon:${coupon}`)).orderBy(asc(s.auditEvents.id))).map((e) => e.action),
      }));
    const before = await state();
    expect(before.events).toEqual(['coupons.created']);

    // The edit: 15 % → 30 % with a limit of 5 uses.
    const save = { actor, coupon, form: { ...FORM, percent: '30', maxUses: '5' } };
    await expectNothingLeftAtEach('coupon-save', target(), share(['coupon-written', 'audit-written']), { now: NOW, args: save }, state, before);
    expect(await runWrite('coupon-save', target(), { now: NOW, args: save })).toMatchObject({ end: 'done', result: { status: 'ok', created: false } });
    const edited = await state();
    expect(edited.coupon).toMatchObject({ percent: 30, maxUses: 5 });
    expect(edited.events).toEqual(['coupons.created', 'coupons.updated']);

    // Expiring it now.
    const expire = { actor, coupon };
    await expectNothingLeftAtEach('coupon-expire', target(), share(['coupon-written', 'audit-written']), { now: NOW, args: expire }, state, edited);
    expect(await runWrite('coupon-expire', target(), { now: NOW, args: expire })).toMatchObject({ end: 'done', result: { status: 'expired' } });
    const expired = await state();
    expect(expired.coupon.expiresAt).toEqual(new Date(NOW));
    expect(expired.events).toEqual(['coupons.created', 'coupons.updated', 'coupons.expired']);
    // Asked again (the button posted twice): nothing more written.
    expect(await runWrite('coupon-expire', target(), { now: NOW + 1000, args: expire })).toMatchObject({ end: 'done', result: { status: 'alreadyExpired' } });
    expect(await state()).toEqual(expired);
  }, 600_000);
});
