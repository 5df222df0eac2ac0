/**
 * Scheduled work that runs exactly once however many processes share the database, on PGlite and
 * PostgreSQL alike, with no other service:
 * - recurring jobs (`every`): time is cut into slots; a process runs a slot only if its insert into
 *   `job_runs` wins (`ON CONFLICT DO NOTHING`), so each slot runs once;
 * - one-off jobs (`enqueue`): due rows of `jobs` are claimed with `FOR UPDATE SKIP LOCKED` and a lease,
 *   retried with backoff, and marked done once. A worker that dies mid-job loses its lease to another.
 */
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { jobRuns, jobs } from '../db/schema';
import type { Logger } from '../http/log.server';
import type { OutageWatch } from '../db/outage.server';
import { KEEP_RUNS_MS, LEASE_MS, MAX_ATTEMPTS, retryDelayMs, slotOf } from './jobs';

export interface Scheduler {
  /** Runs `run` once per `intervalMs` slot across every process. */
  every(name: string, intervalMs: number, run: (ctx: { slot: number; now: Date }) => Promise<void>): void;
  /** Handles one-off jobs named `name`. */
  handle(name: string, run: (payload: unknown, job: { id: number; key: string | null; attempts: number }) => Promise<void>): void;
  /** Starts checking for due work every `pollMs`. */
  start(): void;
  /** Runs everything due at `now` once and resolves when done. */
  runDue(now?: Date): Promise<{ recurring: string[]; jobs: number }>;
  /** Stops the timer and waits for running work. */
  stop(): Promise<void>;
}

export interface SchedulerOptions {
  db: Db;
  logger: Logger;
  /** This process's name in `job_runs.worker` and `jobs.locked_by`. */
  workerId: string;
  pollMs?: number;
  clock?: () => Date;
  /** Told of failures first: the database out of reach is logged there, once per outage, not once per tick. */
  outage?: Pick<OutageWatch, 'report'>;
}

interface Recurring {
  name: string;
  intervalMs: number;
  run: (ctx: { slot: number; now: Date }) => Promise<void>;
}

export function createScheduler(opts: SchedulerOptions): Scheduler {
  const { db, logger, workerId } = opts;
  const clock = opts.clock ?? (() => new Date());
  const recurring: Recurring[] = [];
  const handlers = new Map<string, (payload: unknown, job: { id: number; key: string | null; attempts: number }) => Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let busy = false;
  let stopped = false;

  async function runRecurring(job: Recurring, now: Date): Promise<boolean> {
    const slot = slotOf(now.getTime(), job.intervalMs);
    const won = await db.insert(jobRuns).values({ name: job.name, slot, worker: workerId, startedAt: now }).onConflictDoNothing().returning({ slot: jobRuns.slot });
    if (won.length === 0) return false;
    let error: string | null = null;
    try {
      await job.run({ slot, now });
    } catch (err) {
      error = (err as Error).message ?? String(err);
      if (!opts.outage?.report(err, `job ${job.name}`)) logger.error({ job: job.name, slot, err: error }, 'scheduled job failed');
    }
    await db.update(jobRuns).set({ finishedAt: clock(), error }).where(and(eq(jobRuns.name, job.name), eq(jobRuns.slot, slot)));
    return true;
  }

  async function runJobs(now: Date): Promise<number> {
    if (handlers.size === 0) return 0;
    const names = [...handlers.keys()];
    const leaseUntil = new Date(now.getTime() + LEASE_MS);
    // Claim due jobs nobody holds (or whose holder's lease ran out); others skip rows locked here.
    const claimed = (await db.execute(sql`
      update ${jobs} set locked_by = ${workerId}, locked_until = ${leaseUntil.toISOString()}::timestamptz, attempts = ${jobs.attempts} + 1
      where ${jobs.id} in (
        select ${jobs.id} from ${jobs}
        where ${jobs.doneAt} is null and ${jobs.runAt} <= ${now.toISOString()}::timestamptz
          and ${jobs.attempts} < ${MAX_ATTEMPTS}
          and (${jobs.lockedUntil} is null or ${jobs.lockedUntil} < ${now.toISOString()}::timestamptz)
          and ${jobs.name} in (${sql.join(names.map((n) => sql`${n}`), sql`, `)})
        order by ${jobs.runAt}
        limit 50
        for update skip locked
      )
      returning id, name, key, payload, attempts`)) as unknown as { rows: { id: number; name: string; key: string | null; payload: unknown; attempts: number }[] };
    for (const job of claimed.rows) {
      const handler = handlers.get(job.name)!;
      // The whole batch was leased at the claim: a job waiting behind slow ones may have been taken over
      // meanwhile. Renew its lease as it starts, and leave it when it is no longer this worker's.
      const mine = await db
        .update(jobs)
        .set({ lockedUntil: new Date(clock().getTime() + LEASE_MS) })
        .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, workerId), isNull(jobs.doneAt)))
        .returning({ id: jobs.id });
      if (mine.length === 0) continue;
      try {
        await handler(job.payload, { id: job.id, key: job.key, attempts: job.attempts });
        await db.update(jobs).set({ doneAt: clock(), lockedBy: null, lockedUntil: null, lastError: null }).where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, workerId)));
      } catch (err) {
        const message = (err as Error).message ?? String(err);
        if (!opts.outage?.report(err, `job ${job.name}`)) logger.error({ job: job.name, id: job.id, attempts: job.attempts, err: message }, 'job failed');
        await db
          .update(jobs)
          .set({ lockedBy: null, lockedUntil: null, lastError: message, runAt: new Date(clock().getTime() + retryDelayMs(job.attempts)) })
          .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, workerId)));
      }
    }
    return claimed.rows.length;
  }

  async function runDue(now = clock()): Promise<{ recurring: string[]; jobs: number }> {
    const ran: string[] = [];
    for (const job of recurring) if (await runRecurring(job, now)) ran.push(job.name);
    const count = await runJobs(now);
    return { recurring: ran, jobs: count };
  }

  async function tick(): Promise<void> {
    if (busy || stopped) return;
    busy = true;
    const work = runDue().catch((err: unknown) => {
      if (!opts.outage?.report(err, 'scheduler')) logger.warn({ err: (err as Error).message }, 'scheduler: could not check for due work');
    });
    running = work;
    await work;
    busy = false;
  }

  // Old runs are deleted by whichever process wins the daily slot.
  recurring.push({
    name: 'job-runs-cleanup',
    intervalMs: 24 * 3_600_000,
    run: async ({ now }) => {
      await db.delete(jobRuns).where(lt(jobRuns.startedAt, new Date(now.getTime() - KEEP_RUNS_MS)));
    },
  });

  return {
    every(name, intervalMs, run) {
      slotOf(0, intervalMs);
      recurring.push({ name, intervalMs, run });
    },
    handle(name, run) {
      handlers.set(name, run);
    },
    start() {
      if (timer || stopped) return;
      timer = setInterval(() => void tick(), opts.pollMs ?? 1000);
      timer.unref();
      void tick();
    },
    runDue,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

/** Adds a one-off job due at `runAt`; the same `key` twice gives one job. Returns its id. */
export async function enqueue(db: Db, job: { name: string; key?: string; payload?: unknown; runAt: Date }): Promise<number> {
  const inserted = await db
    .insert(jobs)
    .values({ name: job.name, key: job.key ?? null, payload: job.payload ?? {}, runAt: job.runAt })
    .onConflictDoNothing({ target: jobs.key })
    .returning({ id: jobs.id });
  if (inserted[0]) return inserted[0].id;
  const [existing] = await db.select({ id: jobs.id }).from(jobs).where(eq(jobs.key, job.key!));
  return existing!.id;
}

/** Cancels a job not yet done; true when there was one. */
export async function cancelJob(db: Db, key: string): Promise<boolean> {
  const gone = await db.delete(jobs).where(and(eq(jobs.key, key), sql`${jobs.doneAt} is null`)).returning({ id: jobs.id });
  return gone.length > 0;
}
