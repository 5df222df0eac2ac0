/**
 * One person's exam hammered from two processes on PostgreSQL: starts (the one-statement start and the
 * locking one) overlapping submits, round after round, through two connection pools. Every call
 * answers (no deadlock, no serialization failure left to the person), at most one attempt is ever in
 * progress, and each attempt is graded once. PGlite runs one statement at a time and cannot race;
 * skipped, saying so, without PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import pg from 'pg';
import { createPostgresDatabase, postgresAvailable } from '../db/testing';
import { openDatabase, type DbHandle } from '../db/client';
import { contacts, examAttempts, users } from '../db/schema';
import { startAttempt, submitAttempt, type GradedAttempt } from './exams.server';
import { loadExam, type CourseExam } from './exam-source.server';

const pgUp = await postgresAvailable();
if (!pgUp) console.warn('PostgreSQL not reachable: the exam race test (two processes, one person) is skipped.');

const ROUNDS = 100;

describe.skipIf(!pgUp)('one person’s exam from two processes on PostgreSQL', () => {
  let database: { url: string; drop(): Promise<void> };
  let a: DbHandle;
  let b: DbHandle;
  let exam: CourseExam;
  let contactId: number;

  beforeAll(async () => {
    database = await createPostgresDatabase({ prefix: 'academy_exam_race', from: 'seeded' });
    a = await openDatabase({ databaseUrl: database.url, dataDir: 'unused' });
    b = await openDatabase({ databaseUrl: database.url, dataDir: 'unused' });
    const loaded = (await loadExam(a.db, 1))!;
    // Attempts enough for every round: each round submits one and starts the next.
    exam = { ...loaded, settings: { ...loaded.settings, attempts: 10_000 } };
    const [row] = await a.db.select({ id: contacts.id }).from(contacts).innerJoin(users, eq(users.id, contacts.userId)).where(eq(users.email, 'learner@academia.example'));
    contactId = row!.id;
  }, 120_000);

  let closed = false;
  const closePools = async () => {
    if (closed) return;
    closed = true;
    await a?.close();
    await b?.close();
  };
  afterAll(async () => {
    await closePools();
    await database?.drop();
  });

  /** Deadlocks PostgreSQL detected in the database (its sessions report them when they end). */
  const deadlocks = async () => {
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      // The pools' sessions have ended (and reported) once only this one is left.
      await expect.poll(async () => (await admin.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()')).rows[0]!.n, { timeout: 10_000 }).toBe(0);
      await admin.query('select pg_stat_clear_snapshot()');
      return (await admin.query<{ n: number }>('select deadlocks::int as n from pg_stat_database where datname = current_database()')).rows[0]!.n;
    } finally {
      await admin.end();
    }
  };

  it('overlapping starts and submits never fail, never open two attempts, and grade each attempt once', async () => {
    const failures: unknown[] = [];
    const graded = new Map<number, GradedAttempt[]>();
    const settle = async <T>(p: Promise<T>): Promise<T | undefined> => {
      try {
        return await p;
      } catch (err) {
        failures.push(err);
        return undefined;
      }
    };
    const first = await startAttempt(a.db, exam, contactId, Date.now());
    expect(first.ok).toBe(true);
    for (let round = 0; round < ROUNDS; round++) {
      const [open] = await a.db.select({ id: examAttempts.id }).from(examAttempts).where(and(eq(examAttempts.contactId, contactId), isNull(examAttempts.submittedAt)));
      const now = Date.now();
      // Both processes submit the attempt in progress while both start (or resume) at the same moment.
      const calls: Promise<unknown>[] = [];
      for (const db of [a.db, b.db, a.db, b.db, a.db, b.db]) calls.push(settle(startAttempt(db, exam, contactId, now)));
      if (open) {
        for (const db of [b.db, a.db]) {
          calls.push(
            settle(submitAttempt(db, exam, contactId, open.id, now)).then((g) => {
              if (g) graded.set(open.id, [...(graded.get(open.id) ?? []), g]);
              else failures.push(new Error(`submit of attempt ${open.id} found nothing`));
            }),
          );
        }
      }
      await Promise.all(calls);
      const inProgress = await a.db.select({ id: examAttempts.id }).from(examAttempts).where(and(eq(examAttempts.contactId, contactId), isNull(examAttempts.submittedAt)));
      expect(inProgress.length, `round ${round}`).toBeLessThanOrEqual(1);
    }
    // What a failure was (its SQLSTATE: 40P01 a deadlock, 23505 a lost race), not the query it failed in.
    expect(failures.map((e) => (e instanceof Error ? ((e.cause as { code?: string } | undefined)?.code ?? e.message) : String(e)))).toEqual([]);
    expect(graded.size).toBeGreaterThan(ROUNDS / 2);
    // One lock order: not one deadlock happened (retries would hide one from the calls, not from this count).
    await closePools();
    expect(await deadlocks()).toBe(0);
    // Each attempt was graded once: every submit of it answers the same stored grade.
    for (const [id, results] of graded) {
      const [one, ...others] = results;
      for (const other of others) expect(other.attempt, `attempt ${id}`).toEqual(one!.attempt);
      expect(one!.attempt.gradedAt).not.toBeNull();
    }
  }, 120_000);
});
