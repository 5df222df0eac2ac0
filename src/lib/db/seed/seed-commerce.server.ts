/** Seeds commerce: payment form lists, demo coupons and the demo purchases with their payments and access. */
import { inArray, sql } from 'drizzle-orm';
import * as s from '../schema';
import * as catalogue from './catalogue';
import * as people from './people';
import { priceToCents } from '../../commerce/money';
import { buildPaymentPayload } from '../../commerce/payload';
import { periodEnd } from '../../commerce/membership';
import type { DemoCourse } from './demo-catalogue.server';
import { excluded, type Tx } from './seed-kit.server';

/** Writes the identification types, coupons and demo orders (of the demo `courses` and books) of the accounts in `userId` (by email). */
export async function seedCommerce(tx: Tx, userId: Map<string, number>, courses: readonly DemoCourse[]) {
  // Payment form lists and demo coupons (a coupon's uses are real orders': re-seeding keeps them).
  await tx
    .insert(s.identificationTypes)
    .values(catalogue.identificationTypes.map((t, i) => ({ id: t.id, nameEs: t.name.es, nameEn: t.name.en, position: i })))
    .onConflictDoUpdate({ target: s.identificationTypes.id, set: excluded(s.identificationTypes, ['nameEs', 'nameEn', 'position']) });
  await tx
    .insert(s.coupons)
    .values(people.coupons.map((c) => ({ code: c.code, kind: c.kind, percent: c.percent ?? null, amountCents: c.amountCents ?? null, expiresAt: c.expiresAt, maxUses: c.maxUses, uses: c.uses, minimumTotalCents: c.minimumTotalCents })))
    .onConflictDoNothing();

  // The default commission rates, unless rates were ever set (re-seeding never overrides an administrator's).
  const [rates] = await tx.select({ n: sql<number>`count(*)::int` }).from(s.commissionRates);
  if (!rates?.n) await tx.insert(s.commissionRates).values(people.defaultCommissionRates.map((r) => ({ productKind: r.kind, rateBp: r.rateBp, effectiveFrom: new Date(0) })));

  // Demo purchases: real paid orders (one per product, days apart) with their payment attempt and the
  // access they granted, as a checkout with the sandbox's approved test card would have left them.
  const day = 24 * 3_600_000;
  const iboIds = new Map((await tx.select({ id: s.ibos.id, code: s.ibos.code }).from(s.ibos)).map((b) => [b.code, b.id]));
  for (const o of people.demoOrders) {
    const uid = userId.get(o.email)!;
    const course = o.kind === 'course' ? courses.find((c) => c.id === o.productId)! : null;
    const book = o.kind === 'book' ? catalogue.books.find((b) => b.id === o.productId)! : null;
    const product = course ? { id: course.id, code: course.archive.course.code, title: course.archive.course.name } : { id: book!.id, code: book!.code, title: book!.title };
    const cents = course ? course.archive.course.priceCents : priceToCents(book!.price);
    const at = new Date(Date.now() - o.daysAgo * day);
    const [order] = await tx
      .insert(s.orders)
      .values({
        userId: uid,
        status: 'paid',
        subtotalCents: cents,
        discountCents: 0,
        totalCents: cents,
        language: 'es',
        // Courses keep the key earlier seeds gave them, so re-seeding finds their orders.
        idempotencyKey: o.kind === 'course' ? `seed:${o.email}:${o.productId}` : `seed:${o.email}:${o.kind}-${o.productId}`,
        cardBrand: 'visa',
        cardLast4: '4242',
        cardExpiryMonth: 12,
        cardExpiryYear: 2030,
        createdAt: at,
        paidAt: at,
        referringIboId: o.ibo ? (iboIds.get(o.ibo) ?? null) : null,
      })
      .onConflictDoNothing()
      .returning({ id: s.orders.id });
    if (!order) continue;
    await tx.insert(s.orderItems).values({ orderId: order.id, productKind: o.kind, productId: product.id, productCode: product.code, titleEs: product.title.es, titleEn: product.title.en, priceCents: cents });
    const payload = buildPaymentPayload({ lines: [{ kind: o.kind, productCode: product.code, cents }], language: 'es', token: `tok_sandbox_a_visa_4242_122030_seed-${order.id}` });
    await tx.insert(s.paymentAttempts).values({ orderId: order.id, attemptNumber: 1, gateway: 'sandbox', idempotencyKey: `order-${order.id}-attempt-1`, chargeId: `ch_sandbox_seed-${order.id}`, status: 'approved', amountCents: cents, payload, createdAt: at, finishedAt: at });
    // The sandbox's own record of that charge, so the back office can refund it through the gateway.
    await tx
      .insert(s.sandboxCharges)
      .values({ idempotencyKey: `order-${order.id}-attempt-1`, fingerprint: JSON.stringify([cents, 'USD', payload.payment.token]), status: 'approved', chargeId: `ch_sandbox_seed-${order.id}`, amountCents: cents, currency: 'USD', token: payload.payment.token, createdAt: at })
      .onConflictDoNothing();
    // A course's order grants its purchase access; a book's is owned through the paid order itself.
    if (o.kind === 'course') {
      await tx
        .insert(s.purchaseAccess)
        .values({ userId: uid, courseId: product.id, orderId: order.id, grantedAt: at })
        .onConflictDoUpdate({ target: [s.purchaseAccess.userId, s.purchaseAccess.courseId], set: { orderId: order.id } });
    }
  }
  // Demo memberships: the plan's paid order (its payment attempt) and the membership it started.
  for (const d of people.demoMemberships) {
    const uid = userId.get(d.email)!;
    const plan = catalogue.plans.find((p) => p.id === d.planId)!;
    const cents = priceToCents(plan.price);
    const at = new Date(Date.now() - d.daysAgo * day);
    const [order] = await tx
      .insert(s.orders)
      .values({ userId: uid, status: 'paid', subtotalCents: cents, discountCents: 0, totalCents: cents, language: 'es', idempotencyKey: `seed:${d.email}:plan-${plan.id}`, cardBrand: 'visa', cardLast4: '4242', cardExpiryMonth: 12, cardExpiryYear: 2030, createdAt: at, paidAt: at })
      .onConflictDoNothing()
      .returning({ id: s.orders.id });
    if (!order) continue;
    await tx.insert(s.orderItems).values({ orderId: order.id, productKind: 'plan', productId: plan.id, productCode: plan.code, titleEs: plan.name.es, titleEn: plan.name.en, priceCents: cents });
    const token = `tok_sandbox_a_visa_4242_122030_seed-${order.id}`;
    const payload = buildPaymentPayload({ lines: [{ kind: 'plan', productCode: plan.code, cents }], language: 'es', token });
    await tx.insert(s.paymentAttempts).values({ orderId: order.id, attemptNumber: 1, gateway: 'sandbox', idempotencyKey: `order-${order.id}-attempt-1`, chargeId: `ch_sandbox_seed-${order.id}`, status: 'approved', amountCents: cents, payload, createdAt: at, finishedAt: at });
    await tx.insert(s.memberships).values({ userId: uid, planId: plan.id, orderId: order.id, startsAt: at, endsAt: periodEnd(at, plan.period), period: plan.period, priceCents: cents, gateway: 'sandbox', gatewayToken: token, cardBrand: 'visa', cardLast4: '4242' });
  }
  // The single order earlier versions of the seed wrote for all of the buyer's courses: replaced by the ones above.
  const legacy = await tx.select({ id: s.orders.id }).from(s.orders).where(sql`${s.orders.idempotencyKey} like 'seed:%' and ${s.orders.idempotencyKey} not like 'seed:%:%'`);
  if (legacy.length > 0) await tx.delete(s.orders).where(inArray(s.orders.id, legacy.map((l) => l.id)));
}
