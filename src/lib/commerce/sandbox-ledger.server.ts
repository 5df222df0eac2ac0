/**
 * The embedded sandbox's charges in the database: what it answered under each idempotency key
 * survives the process (a restart, or another process, finds the charge a dead one made), and the
 * reconciler's question about a key that was never charged closes it for good. One atomic statement
 * per write, so two processes given the same key make one charge between them.
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { sandboxCharges } from '../db/schema';
import type { SandboxEntry, SandboxLedger } from './sandbox';

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

  async markRefunded(chargeId: string, refundKey: string, refundId: string): Promise<SandboxEntry | undefined> {
    await this.db
      .update(sandboxCharges)
      .set({ refundKey, refundId })
      .where(and(eq(sandboxCharges.chargeId, chargeId), eq(sandboxCharges.status, 'approved'), isNull(sandboxCharges.refundKey)));
    return this.byCharge(chargeId);
  }
}
