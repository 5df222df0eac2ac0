/**
 * Fault-test fixture (`server/nudge-faults.test.ts`), on the embedded database in `DATA_DIR` at
 * `FAULT_NOW` (milliseconds). `FAULT_MODE=nudge`: an IBO (`FAULT_IBO`) nudges a person (`FAULT_CONTACT`)
 * with the form key `FAULT_KEY`, then prints the outcome as JSON. `FAULT_MODE=jobs`: the scheduler with the
 * nudge job alone runs every due job until none is left, then prints `done`. With `FAULT_AT=<step>` it
 * kills itself with SIGKILL when the work reaches that step: no shutdown code runs, as when a machine dies.
 */
import { join } from 'node:path';
import { openDatabase, SMALL_SHARED_BUFFERS } from '../src/lib/db/client';
import { createLogger } from '../src/lib/http/log.server';
import { createScheduler } from '../src/lib/jobs/jobs.server';
import { createMailer } from '../src/lib/mail/mail.server';
import { ExportLinks } from '../src/lib/privacy/links.server';
import { NUDGE_STOP_PURPOSE, nudgePerson, registerNudgeJobs, type NudgeStep } from '../src/lib/business/nudge.server';

const dataDir = process.env.DATA_DIR!;
const faultAt = process.env.FAULT_AT ?? '';
const now = new Date(Number(process.env.FAULT_NOW ?? Date.now()));
const step: NudgeStep = (at) => {
  if (at === faultAt) process.kill(process.pid, 'SIGKILL');
};
const handle = await openDatabase({ databaseUrl: null, dataDir, sharedBuffers: SMALL_SHARED_BUFFERS });
if (process.env.FAULT_MODE === 'nudge') {
  const outcome = await nudgePerson(handle.db, { iboId: Number(process.env.FAULT_IBO), contactId: Number(process.env.FAULT_CONTACT), key: process.env.FAULT_KEY!, locale: 'es', origin: 'https://academia.example', now }, step);
  console.log(JSON.stringify(outcome));
} else {
  const scheduler = createScheduler({ db: handle.db, logger: createLogger('silent'), workerId: `nudge-faults:${process.pid}`, clock: () => now });
  const mailer = createMailer({ smtpUrl: null, from: 'Academy <academy@example.com>', outboxDir: join(dataDir, 'outbox'), timeoutMs: 5000 });
  const links = ExportLinks.fromSecret('nudge faults');
  registerNudgeJobs(scheduler, { db: handle.db, send: (m) => mailer.send(m), stopToken: (id) => links.sign(NUDGE_STOP_PURPOSE, id), now: () => now }, step);
  for (let round = 0; round < 10; round++) if ((await scheduler.runDue(now)).jobs === 0) break;
  console.log('done');
}
await handle.close();
process.exit(0);
