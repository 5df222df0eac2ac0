/**
 * `kill -9` during a refund of the back office (PGlite, and PostgreSQL when it answers): the refund runs
 * in a child process (`refund-faults.child.ts`) that kills itself with SIGKILL after the refund was
 * recorded with its gateway key, after the gateway made it, and after it was finished. Then the same form
 * posted again, or the refund reconciler, ends the story; the gateway and the database agree: one refund
 * at the gateway, recorded once, the line's access removed once, one audit record — never a refund
 * recorded that the gateway did not make, never two. The order was referred by an IBO: its commission on
 * the line is cancelled exactly when the refund is recorded as made, once (the database writes it in the
 * refund's own transaction).
 */
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as s from '../src/lib/db/schema';
import { auditOf } from '../src/lib/privacy';
import { SandboxGateway } from '../src/lib/commerce/sandbox';
import { DatabaseSandboxLedger } from '../src/lib/commerce/sandbox-ledger.server';
import { orderRef, REFUND_RECONCILE_AFTER_MS } from '../src/lib/orders';
import { faultDatabases, useFaultTarget, runChild, withDb, type FaultTarget } from '../src/lib/testing/fault-runs';

type Run = { end: 'killed' } | { end: 'done'; result: Record<string, unknown> };

async function run(target: FaultTarget, task: 'refund' | 'reconcile', now: number, at: string, args: object = {}): Promise<Run> {
  const { code, signal, out } = await runChild('refund-faults', { DATA_DIR: target.dataDir, DATABASE_URL: target.databaseUrl ?? '', FAULT_TASK: task, FAULT_AT: at, FAULT_NOW: String(now), FAULT_ARGS: JSON.stringify(args) });
  if (signal === 'SIGKILL') return { end: 'killed' };
  const done = /^done (.+)$/m.exec(out);
  if (code === 0 && done) return { end: 'done', result: JSON.parse(done[1]!) as Record<string, unknown> };
  throw new Error(`the refund run exited with ${code ?? signal}: ${out}`);
}

describe.each(await faultDatabases())('kill -9 during a refund on $name', ({ name, up, share }) => {
  const target = useFaultTarget('refund-faults', { name, up });

  /** A paid order of courses 6 and 12, charged through the sandbox whose ledger is in the target()'s database. */
  const paidOrder = (n: number, now: Date) =>
    withDb(target(), async ({ db }) => {
      const gateway = new SandboxGateway({ ledger: new DatabaseSandboxLedger(db), now: () => now });
      const [admin] = await db.select({ id: s.users.id }).from(s.users).where(eq(s.users.email, 'admin@academia.example'));
      const [u] = await db.insert(s.users).values({ email: `refund.faults.${n}.${Date.now()}@example.com`, firstName: 'Falla', lastName: `Devolución${n}` }).returning();
      const [ibo] = await db.select({ id: s.ibos.id }).from(s.ibos).where(eq(s.ibos.code, 'HORIZONTE01'));
      const [o] = await db.insert(s.orders).values({ userId: u!.id, status: 'paid', subtotalCents: 5000, totalCents: 5000, idempotencyKey: `refund-faults-${n}`, paidAt: now, createdAt: now, referringIboId: ibo!.id }).returning();
      const items = await db
        .insert(s.orderItems)
        .values([6, 12].map((id) => ({ orderId: o!.id, productKind: 'course' as const, productId: id, productCode: `C${id}`, titleEs: `Curso ${id}`, titleEn: `Course ${id}`, priceCents: 2500 })))
        .returning();
      const token = (await gateway.tokenize({ number: '4242 4242 4242 4242', expiryMonth: 12, expiryYear: 2030, cvv: '123' })) as { token: string };
      const charged = await gateway.charge({ amountCents: 5000, currency: 'USD', token: token.token, idempotencyKey: `order-${o!.id}-attempt-1` });
      if (charged.status !== 'approved') throw new Error('not charged');
      await db.insert(s.paymentAttempts).values({ orderId: o!.id, attemptNumber: 1, gateway: 'sandbox', idempotencyKey: `order-${o!.id}-attempt-1`, chargeId: charged.chargeId, status: 'approved', amountCents: 5000 });
      await db.insert(s.purchaseAccess).values([6, 12].map((courseId) => ({ userId: u!.id, courseId, orderId: o!.id })));
      return { orderId: o!.id, userId: u!.id, line: items[0]!.id, adminId: admin!.id };
    });

  const agreed = (o: { orderId: number; userId: number }) =>
    withDb(target(), async ({ db }) => {
      const gatewayRefunds = (await db.select().from(s.sandboxRefunds)).filter((r) => r.idempotencyKey.startsWith(`refund-${o.orderId}-`));
      const recorded = await db.select().from(s.orderRefunds).where(eq(s.orderRefunds.orderId, o.orderId));
      const access = (await db.select().from(s.purchaseAccess).where(eq(s.purchaseAccess.userId, o.userId))).map((a) => a.courseId).sort((a, b) => a - b);
      const audit = await auditOf(db, orderRef(o.orderId), 'orders.refund');
      const commissions = (await db.select().from(s.commissions).where(eq(s.commissions.orderId, o.orderId)).orderBy(s.commissions.id)).map((c) => `${c.kind}:${c.amountCents}`);
      return { gatewayRefunds: gatewayRefunds.map((r) => r.amountCents), recorded: recorded.map((r) => [r.status, r.amountCents, r.gatewayRefundId === gatewayRefunds[0]?.refundId]), access, audit: audit.length, commissions };
    });

  it.skipIf(!up).each(
    share([
      ['recorded', 'the same form posted again'],
      ['gateway-answered', 'the same form posted again'],
      ['gateway-answered', 'the reconciler'],
      ['finished', 'the same form posted again'],
    ] as const),
  )('killed at %s, then %s: one refund at the gateway and in the database, access removed once, one audit record', async (step, then) => {
    const now = Date.now();
    const o = await paidOrder(Math.floor(Math.random() * 1e9), new Date(now));
    const args = { orderId: o.orderId, actorId: o.adminId, lines: [o.line], reason: 'Kill -9', requestKey: `fault-form-key-${o.orderId}-0001` };
    expect(await run(target(), 'refund', now, step, args)).toEqual({ end: 'killed' });
    // Never a refund recorded that the gateway did not make.
    const between = await agreed(o);
    if (between.recorded.some(([status]) => status === 'refunded')) expect(between.gatewayRefunds).toEqual([2500]);
    // The commission follows the refund's record: cancelled if and only if the refund is recorded as made.
    expect(between.commissions).toEqual(between.recorded.some(([status]) => status === 'refunded') ? ['earned:500', 'earned:500', 'cancelled:-500'] : ['earned:500', 'earned:500']);
    const finish = then === 'the reconciler' ? await run(target(), 'reconcile', now + REFUND_RECONCILE_AFTER_MS + 5000, '') : await run(target(), 'refund', now, '', args);
    expect(finish.end).toBe('done');
    expect(await agreed(o)).toEqual({ gatewayRefunds: [2500], recorded: [['refunded', 2500, true]], access: [12], audit: 1, commissions: ['earned:500', 'earned:500', 'cancelled:-500'] });
  }, 600_000);
});
