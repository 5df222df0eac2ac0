/**
 * Fault-test fixture of the back office's writes (`server/*-faults.test.ts`): one write, on the database
 * `DATABASE_URL` (else the embedded one of the data folder `DATA_DIR`) and the local storage of the data
 * folder, at the time `FAULT_NOW` (milliseconds):
 * `FAULT_TASK` is `transcode` (the queued videos), `regrade` or `publish` (`FAULT_ARGS`: `{ actor, course }`)
 * or `import` (`FAULT_ARGS`: `{ actor, archive }`, the archive's file), `coupon-save` (`{ actor, coupon, form }`:
 * the coupon form's fields; no `coupon` for a new one), `coupon-expire` (`{ actor, coupon }`), `people-grant`
 * (`{ actor, person, course, reason }`), `people-block` or `people-end-sessions` (`{ actor, person }`),
 * `people-set-type` (`{ actor, person, type }`), `membership-change`
 * (`{ actor, membership, change, days?, reason, key }`: a staff change of a membership), `ibo-save`
 * (`{ actor, ibo?, draft }`: no `ibo` for a new one), `ibo-status` (`{ actor, ibo, status }`), `commission-payout`
 * (`{ actor, ibo, key, reference }`: a payout of the IBO's approved commissions) or `commission-rate`
 * (`{ actor, kind, rate }`). It prints `step <name>` as the
 * write reaches each step, and kills itself with SIGKILL the `FAULT_NTH`-th time (default 1) it reaches
 * `FAULT_AT`: no shutdown code runs, as when a machine dies. Otherwise it prints `done <json>` (what the
 * write answered) and exits.
 */
import { readFileSync } from 'node:fs';
import { openDatabase, SMALL_SHARED_BUFFERS } from '../src/lib/db/client';
import { defaultStorageDir } from '../src/lib/config/storage';
import { createLocalStorage } from '../src/lib/storage/local.server';

const dataDir = process.env.DATA_DIR!;
const task = process.env.FAULT_TASK ?? '';
const faultAt = process.env.FAULT_AT ?? '';
const nth = Number(process.env.FAULT_NTH ?? 1);
const now = new Date(Number(process.env.FAULT_NOW ?? Date.now()));
const args = JSON.parse(process.env.FAULT_ARGS ?? '{}') as { actor?: number; course?: number; archive?: string; coupon?: number; form?: Record<string, string>; person?: number; type?: 'learner' | 'refused' | 'admin' | 'prospect'; membership?: number; change?: 'extend' | 'cancelNow' | 'cancelAtEnd' | 'resume'; days?: number; reason?: string; key?: string; ibo?: number; draft?: import('../src/lib/ibos/ibos').IboDraft; status?: 'active' | 'suspended'; reference?: string; kind?: 'course' | 'book' | 'plan'; rate?: number };

let reached = 0;
const step = (name: string) => {
  console.log(`step ${name}`);
  if (name === faultAt && ++reached === nth) process.kill(process.pid, 'SIGKILL');
};

const handle = await openDatabase({ databaseUrl: process.env.DATABASE_URL || null, dataDir, sharedBuffers: SMALL_SHARED_BUFFERS });
const storage = createLocalStorage(defaultStorageDir(dataDir));
let result: unknown;
/** What a write answered, without the changes it tells the caches about (no cache runs here). */
const withoutChanges = (outcome: object): Record<string, unknown> => {
  const { changed: _, ...rest } = outcome as Record<string, unknown>;
  return rest;
};
if (task === 'transcode') {
  const { transcodeDue } = await import('../src/lib/videos/transcode.server');
  const { createLogger } = await import('../src/lib/http/log.server');
  result = { handled: await transcodeDue({ db: handle.db, storage, dataDir, workerId: `faults:${process.pid}`, logger: createLogger('silent'), step }) };
} else if (task === 'regrade') {
  const { regradeCourse } = await import('../src/lib/question-bank/regrade.server');
  result = withoutChanges(await regradeCourse(handle.db, args.actor!, args.course!, now, step));
} else if (task === 'publish') {
  const { publishDraft } = await import('../src/lib/authoring/publish.server');
  result = withoutChanges(await publishDraft(handle.db, args.actor!, args.course!, now, step));
} else if (task === 'import') {
  const { importCourse } = await import('../src/lib/course-archive/import.server');
  const { ARCHIVE_LIMITS } = await import('../src/lib/course-archive/course-archive');
  result = withoutChanges(await importCourse(handle.db, storage, args.actor!, new Uint8Array(readFileSync(args.archive!)), ARCHIVE_LIMITS, now, step));
} else if (task === 'coupon-save') {
  const { saveCoupon } = await import('../src/lib/commerce/coupons.server');
  const { readCouponForm } = await import('../src/lib/commerce/coupon-form');
  const form = readCouponForm(args.form ?? {}, now);
  if (!form.ok) throw new Error(`the coupon form is refused: ${JSON.stringify(form.problem)}`);
  result = await saveCoupon(handle.db, args.actor!, args.coupon ?? null, form.value, now, step);
} else if (task === 'coupon-expire') {
  const { expireCoupon } = await import('../src/lib/commerce/coupons.server');
  result = await expireCoupon(handle.db, args.actor!, args.coupon!, now, step);
} else if (task === 'people-grant') {
  const { grantCourse } = await import('../src/lib/people/people.server');
  result = withoutChanges(await grantCourse(handle.db, args.actor!, args.person!, args.course!, args.reason ?? '', now, step));
} else if (task === 'people-block') {
  const { blockPerson } = await import('../src/lib/people/people.server');
  result = withoutChanges(await blockPerson(handle.db, args.actor!, args.person!, now, step));
} else if (task === 'people-end-sessions') {
  const { endPersonSessions } = await import('../src/lib/people/people.server');
  result = withoutChanges(await endPersonSessions(handle.db, args.actor!, args.person!, now, step));
} else if (task === 'people-set-type') {
  const { setPersonType } = await import('../src/lib/people/people.server');
  result = withoutChanges(await setPersonType(handle.db, args.actor!, args.person!, args.type!, now, step));
} else if (task === 'membership-change') {
  const { changeMembership } = await import('../src/lib/commerce/membership-admin.server');
  const outcome = await changeMembership(handle.db, args.actor!, args.membership!, args.change!, { ...(args.days === undefined ? {} : { days: args.days }), reason: args.reason!, key: args.key! }, now, step);
  result = outcome.status === 'ok' ? { status: 'ok', repeated: outcome.repeated, endsAt: outcome.membership.endsAt } : outcome.status === 'refused' ? { status: 'refused', refusal: outcome.refusal } : outcome;
} else if (task === 'ibo-save') {
  const { saveIbo } = await import('../src/lib/ibos/ibos.server');
  const outcome = await saveIbo(handle.db, args.actor!, args.ibo ?? null, args.draft!, step);
  result = outcome.status === 'ok' ? { status: 'ok', created: outcome.created, id: outcome.ibo.id } : outcome;
} else if (task === 'ibo-status') {
  const { setIboStatus } = await import('../src/lib/ibos/ibos.server');
  const outcome = await setIboStatus(handle.db, args.actor!, args.ibo!, args.status!, step);
  result = outcome.status === 'ok' ? { status: 'ok', unchanged: outcome.unchanged, endedSessions: outcome.endedSessions } : outcome;
} else if (task === 'commission-payout') {
  const { recordPayout } = await import('../src/lib/commissions/commissions.server');
  const outcome = await recordPayout(handle.db, args.actor!, args.ibo!, { key: args.key!, reference: args.reference ?? '' }, now, step);
  result = outcome.status === 'ok' ? { status: 'ok', repeated: outcome.repeated, amountCents: outcome.payout.amountCents } : outcome;
} else if (task === 'commission-rate') {
  const { setCommissionRate } = await import('../src/lib/commissions/commissions.server');
  result = await setCommissionRate(handle.db, args.actor!, args.kind!, args.rate!, now, step);
} else {
  throw new Error(`unknown FAULT_TASK ${JSON.stringify(task)}`);
}
await handle.close();
console.log(`done ${JSON.stringify(result)}`);
process.exit(0);
