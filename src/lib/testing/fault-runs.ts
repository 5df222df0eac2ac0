/**
 * What the back office's fault tests share: where a write runs (a data folder for the stored files, and
 * a copy of the run's seeded database: PGlite in the folder, or a PostgreSQL database when one answers),
 * the child process of one write (`server/backoffice-faults.child.ts`) run until it dies at a step or
 * finishes, and the database opened between runs (the child is gone then: PGlite has one writer).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, expect } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, SMALL_SHARED_BUFFERS, type DbHandle } from '../db/client';
import { createPostgresDatabase, postgresAvailable, preparedDataFolder } from '../db/testing';
import { childArgs, type ChildName } from './children';

export type FaultTask = 'transcode' | 'regrade' | 'publish' | 'import' | 'coupon-save' | 'coupon-expire' | 'people-grant' | 'people-block' | 'people-end-sessions' | 'people-set-type' | 'membership-change' | 'ibo-save' | 'ibo-status' | 'commission-payout' | 'commission-rate';

/** How a run ended: killed at its step, or done with the write's answer; the steps it announced. */
export type FaultRun = { end: 'killed'; steps: string[] } | { end: 'done'; steps: string[]; result: Record<string, unknown> };

const children = new Set<ChildProcess>();

/** Where a write runs: the data folder (its storage, and PGlite's files unless `databaseUrl`) and the PostgreSQL database. */
export interface FaultTarget {
  dataDir: string;
  databaseUrl: string | null;
  /** Removes both, killing any child left first. */
  remove(): Promise<void>;
}

/** A database a fault test runs on, and the kill points it takes. */
export interface FaultDatabase {
  name: 'PGlite' | 'PostgreSQL';
  up: boolean;
  /**
   * The kill points of a list that this database proves. With both databases up, each point is proven
   * once per run, on one of them in turn (PGlite the first, third …; PostgreSQL the second, fourth …),
   * so every point dies somewhere and both databases see kills; `FAULTS=all` proves every point on
   * each. With PostgreSQL down, PGlite proves them all.
   */
  share<T>(points: readonly T[]): T[];
}

/** The databases a fault test runs on: PGlite always, PostgreSQL when it answers (`up`). */
export async function faultDatabases(): Promise<FaultDatabase[]> {
  const pg = await postgresAvailable();
  if (!pg) console.warn('PostgreSQL is not reachable: the kill -9 tests of the back office run on PGlite only.');
  const all = process.env.FAULTS === 'all' || !pg;
  const turn = (first: 0 | 1) => <T>(points: readonly T[]) => (all ? [...points] : points.filter((_, i) => i % 2 === first));
  return [
    { name: 'PGlite', up: true, share: turn(0) },
    { name: 'PostgreSQL', up: pg, share: turn(1) },
  ];
}

/** A new data folder and a copy of the run's seeded database (in the folder for PGlite). */
export async function faultTarget(prefix: string, database: 'PGlite' | 'PostgreSQL' = 'PGlite'): Promise<FaultTarget> {
  const folder = mkdtempSync(join(tmpdir(), `academy-${prefix}-`));
  const pg = database === 'PostgreSQL' ? await createPostgresDatabase({ prefix: `academy_${prefix.replace(/-/g, '_')}`, from: 'seeded' }) : null;
  const dataDir = pg ? folder : await preparedDataFolder(folder);
  return {
    dataDir,
    databaseUrl: pg?.url ?? null,
    async remove() {
      // A run cut short (a timeout) must not write into the folder as it goes.
      const running = [...children];
      const gone = running.map((c) => new Promise((r) => c.once('exit', r)));
      for (const c of running) c.kill('SIGKILL');
      await Promise.all(gone);
      rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
      await pg?.drop();
    },
  };
}

/**
 * Gives the tests of the enclosing `describe` a fault target on `database` (when it is up): made before
 * the first test, removed after the last. Returns a getter for it.
 */
export function useFaultTarget(prefix: string, database: Pick<FaultDatabase, 'name' | 'up'>): () => FaultTarget {
  let target: FaultTarget | undefined;
  beforeAll(async () => {
    if (database.up) target = await faultTarget(prefix, database.name);
  });
  afterAll(async () => {
    await target?.remove();
  });
  return () => {
    if (!target) throw new Error(`no ${prefix} target: ${database.name} is not up`);
    return target;
  };
}

/** Runs the fault child `name` once with `env` beside the test's own; resolves with how it ended and all it printed. */
export function runChild(name: ChildName, env: Record<string, string>): Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, childArgs(name), { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (out += d));
    child.on('exit', (code, signal) => {
      children.delete(child);
      resolve({ code, signal, out });
    });
  });
}

/** Runs the write `task` on the target once, dying at the `nth` time it reaches `at` (when given). */
export async function runWrite(task: FaultTask, { dataDir, databaseUrl }: FaultTarget, opts: { at?: string; nth?: number; now?: number; args?: Record<string, unknown> } = {}): Promise<FaultRun> {
  const { code, signal, out } = await runChild('backoffice-faults', {
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl ?? '',
    FAULT_TASK: task,
    FAULT_AT: opts.at ?? '',
    FAULT_NTH: String(opts.nth ?? 1),
    FAULT_NOW: String(opts.now ?? Date.now()),
    FAULT_ARGS: JSON.stringify(opts.args ?? {}),
  });
  const steps = [...out.matchAll(/^step (.+)$/gm)].map((m) => m[1]!);
  const done = /^done (.+)$/m.exec(out);
  if (signal === 'SIGKILL') return { end: 'killed', steps };
  if (code === 0 && done) return { end: 'done', steps, result: JSON.parse(done[1]!) as Record<string, unknown> };
  throw new Error(`the ${task} run exited with ${code ?? signal}: ${out}`);
}

/**
 * Runs the write `task` once per kill point in `points`, dying there each time, and checks after each
 * run that `state()` still equals `unchanged`: nothing of a write killed before its commit is left.
 */
export async function expectNothingLeftAtEach(task: FaultTask, target: FaultTarget, points: readonly string[], opts: { now: number; args: Record<string, unknown> }, state: () => Promise<unknown>, unchanged: unknown): Promise<void> {
  for (const at of points) {
    expect((await runWrite(task, target, { ...opts, at })).end, at).toBe('killed');
    expect(await state(), at).toEqual(unchanged);
  }
}

/** Runs `fn` on the target's database, closed afterwards. */
export async function withDb<T>({ dataDir, databaseUrl }: FaultTarget, fn: (handle: DbHandle) => Promise<T>): Promise<T> {
  const handle = await openDatabase({ databaseUrl, dataDir, sharedBuffers: SMALL_SHARED_BUFFERS });
  try {
    return await fn(handle);
  } finally {
    await handle.close();
  }
}
