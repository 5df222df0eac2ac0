/**
 * The process-wide progress writer: coalesces updates per person and lesson and writes them by group
 * commit (`TrackingWriter`), so many viewers never become one transaction per event, and an event is
 * acknowledged only once its write is committed; and the reader of stored rows on a lesson's first
 * touch (`TrackingReader`).
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { tracking, trackingCredit } from '../db/schema';
import { normalizeCoverage, playedSeconds, type Coverage } from './learning';
import { grantCredit, type CreditClaim, type StoredLesson } from './tracking';

/** What is written for one person and lesson: the whole state, so the latest write carries everything. */
export interface TrackingRow {
  contactId: number;
  courseId: number;
  subtopicId: number;
  lastPosition: number;
  furthestPosition: number;
  coverage: Coverage;
  completed: boolean;
  /** When the event was reported (ms, the tracker's clock): the present the database checks credit against. */
  reportedAt: number;
  /**
   * When the first event of this write was reported (the writer keeps the earliest of the events it
   * coalesces): a person the database has no credit clock for yet starts one at the earliest of them.
   */
  since: number;
}

/** A row as the database holds it after the write (merged with whatever was there). */
export interface StoredProgress {
  lastPosition: number;
  furthestPosition: number;
  playedSeconds: number;
  coverage: Coverage | null;
  completed: boolean;
  /** The person's credit clock (ms) once the write was committed, when it is known. */
  creditClock: number | null;
}

export interface WriterOptions {
  /** How long a write waits for company when the writer is idle (ms). Under load, flushes follow each other. */
  maxWaitMs?: number;
  /** Rows per INSERT statement. */
  chunkSize?: number;
}

export type DbSource = Db | (() => Promise<Db>);
const resolveDb = async (src: DbSource): Promise<Db> => (typeof src === 'function' ? src() : src);
export const keyOf = (contactId: number, subtopicId: number) => `${contactId}:${subtopicId}`;

interface Waiting {
  row: TrackingRow;
  waiters: { resolve(v: StoredProgress): void; reject(e: unknown): void }[];
}

/** Counters of what the writer did (benchmarks print them). */
export interface WriterStats {
  writes: number;
  rows: number;
  flushes: number;
  /** Transactions (one per chunk of rows written). */
  transactions: number;
  /** SQL statements in them: at most `MAX_STATEMENTS_PER_CHUNK` each. */
  statements: number;
  failures: number;
}

/** The most statements one chunk's transaction runs (lock the clocks, read the stored seconds, upsert, move the clocks). */
export const MAX_STATEMENTS_PER_CHUNK = 4;

/**
 * The process-wide progress writer: updates are coalesced per (person, lesson) and written by group
 * commit, one transaction per chunk of up to `chunkSize` rows with at most `MAX_STATEMENTS_PER_CHUNK`
 * statements whatever the number of rows, the next flush starting as soon as the previous one ends.
 * Each `write` resolves with the stored row once its flush is committed. The transaction is where
 * each person's credit clock is enforced (learning `grantCredit`): it locks the clocks of the chunk's
 * people, reads what their lessons hold, keeps only the new seconds the clocks can pay for, upserts
 * the rows (merged with what is stored, so two processes or tabs never lose played seconds) and moves
 * the clocks forward. No process, tab, lesson or HTTP request can spend the same budget twice, and no
 * event needs a read of its own.
 */
export class TrackingWriter {
  readonly #db: DbSource;
  readonly #maxWaitMs: number;
  readonly #chunkSize: number;
  #pending = new Map<string, Waiting>();
  #timer: ReturnType<typeof setTimeout> | null = null;
  #flushing: Promise<void> | null = null;
  #closed = false;
  readonly stats: WriterStats = { writes: 0, rows: 0, flushes: 0, transactions: 0, statements: 0, failures: 0 };

  constructor(db: DbSource, opts: WriterOptions = {}) {
    this.#db = db;
    this.#maxWaitMs = opts.maxWaitMs ?? 10;
    this.#chunkSize = Math.max(1, opts.chunkSize ?? 500);
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Rows waiting for the next flush. */
  get pending(): number {
    return this.#pending.size;
  }

  /** Queues a row (replacing a queued one of the same person and lesson); resolves once it is committed. */
  write(row: TrackingRow): Promise<StoredProgress> {
    if (this.#closed) return Promise.reject(new Error('the tracking writer is closed'));
    this.stats.writes++;
    return new Promise<StoredProgress>((resolve, reject) => {
      const key = keyOf(row.contactId, row.subtopicId);
      const found = this.#pending.get(key);
      if (found) {
        found.row = { ...row, since: Math.min(found.row.since, row.since) };
        found.waiters.push({ resolve, reject });
      } else {
        this.#pending.set(key, { row, waiters: [{ resolve, reject }] });
      }
      this.#schedule();
    });
  }

  /** Writes everything pending and refuses new writes. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = null;
    }
    while (this.#flushing || this.#pending.size > 0) await (this.#flushing ?? this.#startFlush());
  }

  #schedule(): void {
    if (this.#flushing || this.#timer) return;
    if (this.#pending.size >= this.#chunkSize) {
      void this.#startFlush();
      return;
    }
    this.#timer = setTimeout(() => {
      this.#timer = null;
      if (!this.#flushing) void this.#startFlush();
    }, this.#maxWaitMs);
  }

  #startFlush(): Promise<void> {
    this.#flushing = this.#flush().finally(() => {
      this.#flushing = null;
      if (this.#pending.size > 0 && !this.#closed) this.#schedule();
    });
    return this.#flushing;
  }

  async #flush(): Promise<void> {
    // Whatever arrived during a flush is written by the next one, straight away (group commit).
    while (this.#pending.size > 0) {
      const batch = [...this.#pending.values()];
      this.#pending = new Map();
      this.stats.flushes++;
      for (let i = 0; i < batch.length; i += this.#chunkSize) await this.#writeChunk(batch.slice(i, i + this.#chunkSize));
      if (!this.#closed && this.#maxWaitMs > 0 && this.#pending.size > 0 && this.#pending.size < this.#chunkSize) {
        // Let the event loop deliver the events that are already waiting before writing again.
        await new Promise((r) => setImmediate(r));
      }
    }
  }

  async #writeChunk(items: Waiting[]): Promise<void> {
    try {
      const stored = await this.#upsert(items.map((i) => i.row));
      for (const item of items) settle(item, stored.get(keyOf(item.row.contactId, item.row.subtopicId)));
    } catch (err) {
      if (items.length === 1) {
        this.stats.failures++;
        for (const w of items[0]!.waiters) w.reject(err);
        return;
      }
      // One bad row (a contact or lesson deleted meanwhile) must not fail everybody else's: write them one by one.
      for (const item of items) await this.#writeChunk([item]);
    }
  }

  async #upsert(rows: TrackingRow[]): Promise<Map<string, StoredProgress>> {
    const db = await resolveDb(this.#db);
    this.stats.transactions++;
    this.stats.rows += rows.length;
    const statement = () => this.stats.statements++;
    return db.transaction(async (tx) => {
      // 1. Each person's credit clock, created at their earliest report when new, and locked until the
      //    commit: a write for the same person in another process waits for this one. Locked in one
      //    order (by person) so two processes never wait for each other.
      const since = new Map<number, number>();
      for (const r of rows) since.set(r.contactId, Math.min(since.get(r.contactId) ?? r.since, r.since));
      statement();
      const locked = await tx
        .insert(trackingCredit)
        .values([...since].sort(([a], [b]) => a - b).map(([contactId, at]) => ({ contactId, creditClock: new Date(at) })))
        .onConflictDoUpdate({ target: trackingCredit.contactId, set: { creditClock: sql.raw(`"tracking_credit"."credit_clock"`) } })
        .returning();
      const clocks = new Map(locked.map((c) => [c.contactId, c.creditClock.getTime()]));
      // 2. What the lessons that claim played seconds hold now (under the lock, nobody else adds to them).
      const claiming = rows.filter((r) => r.coverage.includes('1'));
      const held = new Map<string, string | null>();
      if (claiming.length > 0) {
        statement();
        const pairs = sql.join(
          claiming.map((r) => sql`(${r.contactId}::integer, ${r.subtopicId}::integer)`),
          sql`, `,
        );
        const found = await tx
          .select({ contactId: tracking.contactId, subtopicId: tracking.subtopicId, watched: tracking.watched })
          .from(tracking)
          .where(sql`(${tracking.contactId}, ${tracking.subtopicId}) in (${pairs})`);
        for (const f of found) held.set(keyOf(f.contactId, f.subtopicId), f.watched);
      }
      // 3. Only the new seconds each person's clock can pay for, in the order they were reported.
      const claims: CreditClaim[] = rows.map((r) => ({
        contactId: r.contactId,
        at: r.reportedAt,
        stored: held.get(keyOf(r.contactId, r.subtopicId)) ?? null,
        wanted: r.coverage,
        completed: r.completed,
      }));
      const granted = grantCredit(clocks, claims);
      statement();
      const result = await tx
        .insert(tracking)
        .values(
          rows.map((r, i) => {
            const grant = granted.grants[i]!;
            return {
              contactId: r.contactId,
              courseId: r.courseId,
              subtopicId: r.subtopicId,
              lastPosition: r.lastPosition.toFixed(2),
              furthestPosition: r.furthestPosition.toFixed(2),
              playedSeconds: String(playedSeconds(grant.coverage)),
              watched: grant.coverage,
              completedAt: grant.completed ? new Date(r.reportedAt) : null,
              updatedAt: new Date(r.reportedAt),
            };
          }),
        )
        .onConflictDoUpdate({
          target: [tracking.contactId, tracking.subtopicId],
          set: {
            courseId: sql.raw(`excluded."course_id"`),
            lastPosition: sql.raw(`excluded."last_position"`),
            furthestPosition: sql.raw(`greatest("tracking"."furthest_position", excluded."furthest_position")`),
            watched: sql.raw(MERGED_WATCHED),
            playedSeconds: sql.raw(`bit_count(${MERGED_WATCHED})`),
            completedAt: sql.raw(`coalesce("tracking"."completed_at", excluded."completed_at")`),
            updatedAt: sql.raw(`greatest("tracking"."updated_at", excluded."updated_at")`),
          },
        })
        .returning(STORED_COLUMNS);
      // 4. The clocks of the people who were credited something move forward.
      if (granted.clocks.size > 0) {
        statement();
        await tx
          .insert(trackingCredit)
          .values([...granted.clocks].sort(([a], [b]) => a - b).map(([contactId, at]) => ({ contactId, creditClock: new Date(at) })))
          .onConflictDoUpdate({ target: trackingCredit.contactId, set: { creditClock: sql.raw(`greatest("tracking_credit"."credit_clock", excluded."credit_clock")`) } });
      }
      return new Map(result.map((r) => [keyOf(r.contactId, r.subtopicId), toStored(r, granted.clocks.get(r.contactId) ?? clocks.get(r.contactId) ?? null)]));
    });
  }
}

/*
 * The upsert's merge, in SQL (the stored row is "tracking", the new one `excluded`): the coverage
 * written is already what was stored plus the seconds paid for (`grantCredit`, under the lock), and is
 * ORed with the stored one when both describe the same video; a changed video starts again. A
 * completion once stored stays. `bit_count` needs PostgreSQL 14 or later (PGlite is 17).
 */
const SAME_VIDEO = `("tracking"."watched" is not null and bit_length("tracking"."watched") = bit_length(excluded."watched"))`;
const MERGED_WATCHED = `(case when ${SAME_VIDEO} then "tracking"."watched" | excluded."watched" else excluded."watched" end)`;

function settle(item: Waiting, stored: StoredProgress | undefined): void {
  for (const w of item.waiters) {
    if (stored) w.resolve(stored);
    else w.reject(new Error('the tracking row was not returned'));
  }
}

/** The columns a `StoredProgress` is read from (the upsert's answer and the first-touch read). */
const STORED_COLUMNS = {
  contactId: tracking.contactId,
  subtopicId: tracking.subtopicId,
  lastPosition: tracking.lastPosition,
  furthestPosition: tracking.furthestPosition,
  playedSeconds: tracking.playedSeconds,
  watched: tracking.watched,
  completedAt: tracking.completedAt,
};

function toStored(r: { lastPosition: string; furthestPosition: string; playedSeconds: string; watched: string | null; completedAt: Date | null }, creditClock: number | null): StoredProgress {
  return {
    lastPosition: Number(r.lastPosition),
    furthestPosition: Number(r.furthestPosition),
    playedSeconds: Number(r.playedSeconds),
    coverage: r.watched,
    completed: r.completedAt !== null,
    creditClock,
  };
}

/** A stored row as this process's lesson state sees it (coverage of the lesson's current length). */
export function storedLesson(stored: StoredProgress, duration: number): StoredLesson {
  return { furthestPosition: stored.furthestPosition, coverage: normalizeCoverage(stored.coverage, duration), completed: stored.completed };
}

/** Reads the stored rows of (person, lesson) pairs, several first touches in one query. */
export class TrackingReader {
  #queue = new Map<string, { contactId: number; subtopicId: number; waiters: ((v: StoredProgress | null) => void)[]; fail: ((e: unknown) => void)[] }>();
  #scheduled = false;
  constructor(readonly db: DbSource) {}

  load(contactId: number, subtopicId: number): Promise<StoredProgress | null> {
    return new Promise((resolve, reject) => {
      const key = keyOf(contactId, subtopicId);
      const q = this.#queue.get(key) ?? { contactId, subtopicId, waiters: [], fail: [] };
      q.waiters.push(resolve);
      q.fail.push(reject);
      this.#queue.set(key, q);
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => void this.#run());
      }
    });
  }

  async #run(): Promise<void> {
    this.#scheduled = false;
    const batch = [...this.#queue.values()];
    this.#queue = new Map();
    try {
      const db = await resolveDb(this.db);
      const pairs = sql.join(
        batch.map((b) => sql`(${b.contactId}::integer, ${b.subtopicId}::integer)`),
        sql`, `,
      );
      const rows = await db
        .select(STORED_COLUMNS)
        .from(tracking)
        .where(sql`(${tracking.contactId}, ${tracking.subtopicId}) in (${pairs})`);
      const found = new Map(rows.map((r) => [keyOf(r.contactId, r.subtopicId), toStored(r, null)]));
      for (const b of batch) for (const w of b.waiters) w(found.get(keyOf(b.contactId, b.subtopicId)) ?? null);
    } catch (err) {
      for (const b of batch) for (const f of b.fail) f(err);
    }
  }
}
