/**
 * The embedded sandbox's charges in the database: what it answered under each idempotency key
 * survives the process (a restart, or another process, finds the charge a dead one made), and the
 * reconciler's question about a key that was never charged closes it for good. One atomic statement
 * per write, so two processes given the same key make one charge between them.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { sandboxCharges, sandboxRefunds } from '../db/schema';
import { sandboxRefundDecision, type SandboxEntry, type SandboxLedger, type SandboxRefundAnswer } from './sandbox';

type Row = typeof sandboxCharges.$inferSelect;

const entryOf = (r: Row): SandboxEntry => ({
  idempotencyKey: r.idempotencyKey,
  fingerprint: r.fingerprint,
  status: r.status,
  chargeId: r.chargeId,
  amountCents: r.amountCents,
  currency: r.currency,
  token: r.token,
  refundKey: r.refundKey,
  refundId: r.refundId,
  refundedCents: r.refundedCents,
});

/** The sandbox ledger of the running academy (the runtime builds one on its database). */
export class DatabaseSandboxLedger implements SandboxLedger {
  constructor(private readonly db: Db) {}

  async byKey(key: string): Promise<SandboxEntry | undefined> {
    const [row] = await this.db.select().from(sandboxCharges).where(eq(sandboxCharges.idempotencyKey, key));
    return row ? entryOf(row) : undefined;
  }

  async byCharge(chargeId: string): Promise<SandboxEntry | undefined> {
    const [row] = await this.db.select().from(sandboxCharges).where(eq(sandboxCharges.chargeId, chargeId));
    return row ? entryOf(row) : undefined;
  }

  async put(entry: SandboxEntry): Promise<{ entry: SandboxEntry; stored: boolean }> {
    const [stored] = await this.db.insert(sandboxCharges).values(entry).onConflictDoNothing({ target: sandboxCharges.idempotencyKey }).returning();
    if (stored) return { entry: entryOf(stored), stored: true };
    const held = await this.byKey(entry.idempotencyKey);
    return { entry: held!, stored: false };
  }

  /** One transaction with the charge locked: two processes refunding it are served one after the other. */
  refund(chargeId: string, refundKey: string, amountCents: number | null, refundId: string): Promise<SandboxRefundAnswer> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.select().from(sandboxCharges).where(eq(sandboxCharges.chargeId, chargeId)).for('update');
      const [earlier] = await tx.select().from(sandboxRefunds).where(eq(sandboxRefunds.idempotencyKey, refundKey));
      const decided = sandboxRefundDecision(row ? entryOf(row) : undefined, earlier?.chargeId === chargeId ? earlier : undefined, amountCents);
      if ('answer' in decided) return decided.answer;
      const made = { idempotencyKey: refundKey, chargeId, refundId, amountCents: decided.make };
      await tx.insert(sandboxRefunds).values(made);
      await tx
        .update(sandboxCharges)
        .set({ refundedCents: row!.refundedCents + decided.make, ...(row!.refundKey === null ? { refundKey, refundId } : {}) })
        .where(eq(sandboxCharges.chargeId, chargeId));
      return { refund: made };
    });
  }
}
