/**
 * Fault-test fixture (`server/privacy-faults.test.ts`): the scheduler of "My data" alone, on the
 * embedded database in `DATA_DIR`, running every due job at `FAULT_NOW` (milliseconds) until none is
 * left, then printing `done` and exiting (archive links derived from `FAULT_SECRET`). With `FAULT_AT=<step>` it kills itself with SIGKILL when a
 * job reaches that step: no shutdown code runs, as when a machine dies.
 */
import { join } from 'node:path';
import { openDatabase, SMALL_SHARED_BUFFERS } from '../src/lib/db/client';
import { createLogger } from '../src/lib/http/log.server';
import { createScheduler } from '../src/lib/jobs/jobs.server';
import { createMailer } from '../src/lib/mail/mail.server';
import { ExportLinks, registerPrivacyJobs } from '../src/lib/privacy';
import { defaultStorageDir } from '../src/lib/config/storage';
import { createLocalStorage } from '../src/lib/storage/local.server';

const dataDir = process.env.DATA_DIR!;
const faultAt = process.env.FAULT_AT ?? '';
const now = new Date(Number(process.env.FAULT_NOW ?? Date.now()));
const handle = await openDatabase({ databaseUrl: null, dataDir, sharedBuffers: SMALL_SHARED_BUFFERS });
const logger = createLogger('silent');
const scheduler = createScheduler({ db: handle.db, logger, workerId: `faults:${process.pid}`, clock: () => now });
const mailer = createMailer({ smtpUrl: null, from: 'Academy <academy@example.com>', outboxDir: join(dataDir, 'outbox'), timeoutMs: 5000 });
const told = async () => undefined;
registerPrivacyJobs(
  scheduler,
  { db: handle.db, storage: createLocalStorage(defaultStorageDir(dataDir)), links: ExportLinks.fromSecret(process.env.FAULT_SECRET ?? ''), send: (m) => mailer.send(m), sessionChanged: told, personChanged: told, catalogChanged: told },
  (step) => {
    if (step === faultAt) process.kill(process.pid, 'SIGKILL');
  },
);
for (let round = 0; round < 10; round++) if ((await scheduler.runDue(now)).jobs === 0) break;
await handle.close();
console.log('done');
process.exit(0);
