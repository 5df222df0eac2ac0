/**
 * Fault-test fixture (`server/refund-faults.test.ts`): one refund of the back office (`FAULT_TASK=refund`,
 * its input in `FAULT_ARGS`) or one run of the refund reconciler (`FAULT_TASK=reconcile`) at `FAULT_NOW`,
 * on the database of `DATA_DIR` (or `DATABASE_URL`), through the sandbox gateway whose ledger is in that
 * database. With `FAULT_AT=<step>` it kills itself with SIGKILL when the refund reaches that step: no
 * shutdown code runs, as when a machine dies. Prints `step <name>` at each step and `done <json>` at the end.
 */
import { openDatabase, SMALL_SHARED_BUFFERS } from '../src/lib/db/client';
import { SandboxGateway } from '../src/lib/commerce/sandbox';
import { DatabaseSandboxLedger } from '../src/lib/commerce/sandbox-ledger.server';
import { reconcileRefunds, refundOrder, type RefundInput, type RefundStep } from '../src/lib/orders/refunds.server';

const faultAt = process.env.FAULT_AT ?? '';
const now = new Date(Number(process.env.FAULT_NOW ?? Date.now()));
const handle = await openDatabase({ databaseUrl: process.env.DATABASE_URL || null, dataDir: process.env.DATA_DIR!, sharedBuffers: SMALL_SHARED_BUFFERS });
const gateway = new SandboxGateway({ ledger: new DatabaseSandboxLedger(handle.db), now: () => now });
const onStep = (step: RefundStep) => {
  process.stdout.write(`step ${step}\n`);
  if (step === faultAt) process.kill(process.pid, 'SIGKILL');
};
let result: Record<string, unknown>;
if (process.env.FAULT_TASK === 'reconcile') {
  const report = await reconcileRefunds(handle.db, gateway, now, { onStep });
  result = { refunded: report.refunded, errors: report.errors };
} else {
  const outcome = await refundOrder(handle.db, gateway, JSON.parse(process.env.FAULT_ARGS ?? '{}') as RefundInput, { now: () => now, onStep });
  result = { status: outcome.status, ...(outcome.status === 'refused' ? { reason: outcome.reason } : {}) };
}
await handle.close();
console.log(`done ${JSON.stringify(result)}`);
process.exit(0);
