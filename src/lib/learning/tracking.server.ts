/**
 * Progress tracking on the server, shared by the realtime socket and the HTTP fallback: who may send
 * progress for which course (`authorizeTracking`), what one event changes (`Tracker.track`), and one
 * process-wide writer that coalesces updates per person and lesson and writes them by group commit
 * (`TrackingWriter`): many viewers never become one transaction per event, and an event is acknowledged
 * only once its write is committed. Nothing here knows about sockets or requests.
 */
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { ibos, tracking, trackingCredit } from '../db/schema';
import { refusal } from '../access/access';
import type { Store } from '../access/store.server';
import type { CatalogCourse } from '../catalog/catalog';
import type { SessionInfo } from '../identity/session.server';
import {
  clampPosition,
  normalizeCoverage,
  placeOf,
  playedSeconds,
  progressEventSchema,
  TRACKING_EVENTS,
  type Coverage,
  type Outline,
  type TrackingAck,
  type TrackingBroadcast,
  type TrackingError,
  type TrackingEventName,
} from './learning';
import {
  applyProgress,
  BoundedCache,
  courseIdSchema,
  grantCredit,
  laterClock,
  MAX_TRACKING_BODY_BYTES,
  mergeStored,
  newBucket,
  settleWrite,
  takeToken,
  TRACKING_FLOOD_LIMIT,
  TRACKING_HTTP_STATUS,
  trackingRequestSchema,
  type Bucket,
  type BucketSpec,
  type CreditClaim,
  type LessonState,
  type StoredLesson,
} from './tracking';

/* ───────────── who may track what ───────────── */

/** The person progress is recorded for, as the session says. */
export interface Tracked {
  contactId: number;
  /** The only `CreadoPor` accepted besides none: the learner's user, or the IBO's own user. */
  createdBy: number | null;
}

/** A course whose lessons the person may record progress in (a catalogue course has these fields). */
export type TrackedCourse = Outline;

/** May this session record progress in this course? */
export type TrackingAuth = { ok: true; who: Tracked; course: CatalogCourse } | { ok: false; error: TrackingError };

/**
 * Checks a session and a course id: `unauthorized` without a session or without a person to track
 * (an IBO session before prospect data), `invalid` for a course id that is not one, `forbidden` for an
 * unknown course or one the access rules refuse this person.
 */
export async function authorizeTracking(store: Store, session: SessionInfo | null, rawCourseId: unknown): Promise<TrackingAuth> {
  const contactId = session?.identity.contactId ?? null;
  if (!session || contactId === null) return { ok: false, error: 'unauthorized' };
  const id = courseIdSchema.safeParse(rawCourseId);
  if (!id.success) return { ok: false, error: 'invalid' };
  try {
    const catalog = await store.catalog();
    const course = catalog.byId.get(id.data);
    if (!course) return { ok: false, error: 'forbidden' };
    const viewer = await store.viewer(session.identity);
    if (refusal(course, viewer) !== null) return { ok: false, error: 'forbidden' };
    return { ok: true, who: { contactId, createdBy: await createdByOf(store.db, session) }, course };
  } catch {
    return { ok: false, error: 'unavailable' };
  }
}

async function createdByOf(db: Db, session: SessionInfo): Promise<number | null> {
  if (session.identity.userId !== null) return session.identity.userId;
  if (!session.ibo) return null;
  const [row] = await db.select({ userId: ibos.userId }).from(ibos).where(eq(ibos.id, session.ibo.id)).limit(1);
  return row?.userId ?? null;
}

/* ───────────── the writer ───────────── */

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

type DbSource = Db | (() => Promise<Db>);
const resolveDb = async (src: DbSource): Promise<Db> => (typeof src === 'function' ? src() : src);
const keyOf = (contactId: number, subtopicId: number) => `${contactId}:${subtopicId}`;

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
function storedLesson(stored: StoredProgress, duration: number): StoredLesson {
  return { furthestPosition: stored.furthestPosition, coverage: normalizeCoverage(stored.coverage, duration), completed: stored.completed };
}

/* ───────────── reading rows on first touch ───────────── */

/** Reads the stored rows of (person, lesson) pairs, several first touches in one query. */
class TrackingReader {
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

/* ───────────── the tracker ───────────── */

export interface TrackerOptions extends WriterOptions {
  /** Lessons kept in memory (least recently used forgotten first). */
  cacheSize?: number;
  /** A lesson not touched for this long is forgotten (ms). */
  cacheTtlMs?: number;
  /** Flood limit of one person on the HTTP fallback. */
  httpFlood?: BucketSpec;
}

/** Tells a person's open tabs of a course about progress (see `Tracker.onAnnounce`). */
export type Announcer = (contactId: number, courseId: number, message: TrackingBroadcast) => void;

interface LessonEntry {
  state: LessonState;
  /** True once the stored row was folded in (read, or returned by a write). */
  synced: boolean;
}

/**
 * Everything a process knows about progress in flight: the writer, the last report of each person's
 * lesson and each person's credit clock (bounded), and the HTTP fallback's per-person flood limit.
 */
export class Tracker {
  readonly writer: TrackingWriter;
  readonly #reader: TrackingReader;
  readonly #lessons: BoundedCache<string, LessonEntry>;
  /** Each person's credit clock as this process knows it (the database's is the one that counts). */
  readonly #clocks: BoundedCache<number, number>;
  readonly #httpBuckets: BoundedCache<number, Bucket>;
  readonly #httpFlood: BucketSpec;
  readonly #announcers = new Set<Announcer>();
  readonly #completed = new Set<(contactId: number, lessonId: number) => void>();
  readonly #stored = new Set<(contactId: number) => void>();

  constructor(db: DbSource, opts: TrackerOptions = {}) {
    this.writer = new TrackingWriter(db, opts);
    this.#reader = new TrackingReader(db);
    this.#lessons = new BoundedCache(opts.cacheSize ?? 20_000, opts.cacheTtlMs ?? 30 * 60_000);
    this.#clocks = new BoundedCache(opts.cacheSize ?? 20_000, opts.cacheTtlMs ?? 30 * 60_000);
    this.#httpBuckets = new BoundedCache(10_000, 10 * 60_000);
    this.#httpFlood = opts.httpFlood ?? TRACKING_FLOOD_LIMIT;
  }

  /**
   * Applies one progress event of `who` in `course` (already authorised) and answers it: `invalid` for
   * an unknown event or a payload the wire format refuses, `forbidden` for an identity that is not the
   * session's or a lesson of another course, `unavailable` when it could not be stored. Never throws.
   */
  async track(who: Tracked, course: TrackedCourse, event: unknown, raw: unknown, clock = Date.now()): Promise<TrackingAck> {
    // Whole milliseconds, as the database stores time: its check of the credit clock is then exact.
    const now = Math.floor(clock);
    if (!TRACKING_EVENTS.includes(event as TrackingEventName)) return { ok: false, error: 'invalid' };
    const parsed = progressEventSchema.safeParse(raw);
    if (!parsed.success) return { ok: false, error: 'invalid' };
    const p = parsed.data;
    if (p.IdContacto !== undefined && p.IdContacto !== null && p.IdContacto !== who.contactId) return { ok: false, error: 'forbidden' };
    if (p.CreadoPor !== undefined && p.CreadoPor !== null && p.CreadoPor !== who.createdBy) return { ok: false, error: 'forbidden' };
    const place = placeOf(course, p.Identificador);
    if (!place) return { ok: false, error: 'forbidden' };
    const duration = course.modules[place.moduleIndex]!.lessons[place.lessonIndex]!.durationSeconds;
    const position = Math.round(clampPosition(p.Avance, duration) * 100) / 100;
    if (this.writer.closed) return { ok: false, error: 'unavailable' };
    try {
      const entry = this.#entry(who.contactId, p.Identificador, duration, now);
      // Completion needs every second ever played: read the stored ones first if no write brought them yet.
      if (event === 'tracking end' && !entry.synced) {
        const row = await this.#reader.load(who.contactId, p.Identificador);
        if (row) entry.state = mergeStored(entry.state, storedLesson(row, duration));
        entry.synced = true;
      }
      const completedBefore = entry.state.completed;
      // The person's credit pays for it, whichever lesson or course it is in.
      const applied = applyProgress(entry.state, event as TrackingEventName, position, now, duration, this.#clocks.get(who.contactId, now) ?? null);
      entry.state = applied.lesson;
      this.#clocks.set(who.contactId, applied.clock, now);
      const s = entry.state;
      const wasCompleted = completedBefore;
      const stored = await this.writer.write({
        contactId: who.contactId,
        courseId: course.id,
        subtopicId: p.Identificador,
        lastPosition: s.lastPosition,
        furthestPosition: s.furthestPosition,
        coverage: s.coverage,
        completed: s.completed,
        reportedAt: now,
        since: now,
      });
      entry.state = settleWrite(entry.state, s.coverage, storedLesson(stored, duration));
      entry.synced = true;
      for (const fn of this.#stored) fn(who.contactId);
      if (stored.completed && !wasCompleted) for (const fn of this.#completed) fn(who.contactId, p.Identificador);
      // Another process, tab or lesson may have spent the person's credit meanwhile.
      const known = laterClock(this.#clocks.get(who.contactId, now) ?? null, stored.creditClock);
      if (known !== null) this.#clocks.set(who.contactId, known, now);
      return { ok: true, Identificador: p.Identificador, Avance: stored.lastPosition, furthest: stored.furthestPosition, played: stored.playedSeconds, completed: stored.completed };
    } catch {
      return { ok: false, error: 'unavailable' };
    }
  }

  /** Counts one HTTP fallback event of a person; `false` once their flood limit is used up. */
  allowHttp(contactId: number, now = Date.now()): boolean {
    let bucket = this.#httpBuckets.get(contactId, now);
    if (!bucket) {
      bucket = newBucket(this.#httpFlood, now);
      this.#httpBuckets.set(contactId, bucket, now);
    }
    return takeToken(bucket, this.#httpFlood, now);
  }

  /** Registers who tells a person's open tabs of a course about stored progress (the realtime socket); returns the undo. */
  onAnnounce(fn: Announcer): () => void {
    this.#announcers.add(fn);
    return () => this.#announcers.delete(fn);
  }

  /** Calls `fn` when a person's lesson is stored as completed (their access may change: a course completed unlocks the next); returns the undo. */
  onCompleted(fn: (contactId: number, lessonId: number) => void): () => void {
    this.#completed.add(fn);
    return () => this.#completed.delete(fn);
  }

  /** Calls `fn` each time a person's progress is committed (pages showing it are stale); returns the undo. */
  onStored(fn: (contactId: number) => void): () => void {
    this.#stored.add(fn);
    return () => this.#stored.delete(fn);
  }

  /** Tells every open tab of a person on a course about progress stored outside the socket (the HTTP fallback). */
  announce(contactId: number, courseId: number, message: TrackingBroadcast): void {
    for (const fn of this.#announcers) fn(contactId, courseId, message);
  }

  /** Writes everything pending and refuses new events. */
  close(): Promise<void> {
    return this.writer.close();
  }

  /**
   * This process's state of a person's lesson. A new one starts empty and learns what is stored from
   * its first write, whose upsert merges with the stored row and returns the result: so ordinary
   * events need no read (the stored seconds are never lost, the database ORs them in).
   */
  #entry(contactId: number, lessonId: number, duration: number, now: number): LessonEntry {
    const key = keyOf(contactId, lessonId);
    const cached = this.#lessons.get(key, now);
    if (cached && cached.state.coverage.length === normalizeCoverage(null, duration).length) return cached;
    const entry: LessonEntry = {
      state: { lastPosition: 0, furthestPosition: 0, coverage: normalizeCoverage(null, duration), completed: false, sample: null },
      synced: false,
    };
    this.#lessons.set(key, entry, now);
    return entry;
  }
}

/* ───────────── the HTTP fallback ───────────── */

/** The answer of the HTTP fallback: a status and the acknowledgement (or refusal) to send as JSON. */
export interface HttpTrackingResult {
  status: number;
  ack: TrackingAck;
  /** The language asked for in the body, if any (for the error message). */
  lang: string | undefined;
}

/**
 * One HTTP fallback request (`navigator.sendBeacon` or `fetch`): the body is the JSON text
 * `{ event, courseId, payload }`, whatever its content type. Same rules as the socket, plus a
 * per-person flood limit; refusals are 4xx, a storage failure 503, never a 500.
 */
export async function trackOverHttp(deps: { store: Store; tracker: Tracker }, session: SessionInfo | null, body: string, now = Date.now()): Promise<HttpTrackingResult> {
  const fail = (error: TrackingError, lang?: string): HttpTrackingResult => ({ status: TRACKING_HTTP_STATUS[error], ack: { ok: false, error }, lang });
  const contactId = session?.identity.contactId ?? null;
  if (!session || contactId === null) return fail('unauthorized');
  if (!deps.tracker.allowHttp(contactId, now)) return fail('rate-limited');
  if (Buffer.byteLength(body) > MAX_TRACKING_BODY_BYTES) return fail('invalid');
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return fail('invalid');
  }
  const req = trackingRequestSchema.safeParse(json);
  if (!req.success) return fail('invalid');
  const { event, courseId, payload, lang } = req.data;
  const auth = await authorizeTracking(deps.store, session, courseId);
  if (!auth.ok) return fail(auth.error, lang);
  const ack = await deps.tracker.track(auth.who, auth.course, event, payload, now);
  if (!ack.ok) return fail(ack.error, lang);
  deps.tracker.announce(auth.who.contactId, auth.course.id, { Identificador: ack.Identificador, Avance: ack.Avance, completed: ack.completed });
  return { status: 200, ack, lang };
}
