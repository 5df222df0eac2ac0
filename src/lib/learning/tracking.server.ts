/**
 * Progress tracking on the server, shared by the realtime socket and the HTTP fallback: what one event
 * changes (`Tracker.track`), the last report of each person's lesson and their credit clock, written
 * through the process's writer (`tracking-writer.server.ts`). Who may track what is in
 * `tracking-access.server.ts`, the HTTP fallback in `tracking-http.server.ts`. Nothing here knows
 * about sockets or requests.
 */
import { clampPosition, normalizeCoverage, placeOf, progressEventSchema, TRACKING_EVENTS, type TrackingAck, type TrackingBroadcast, type TrackingEventName } from './learning';
import { applyProgress, BoundedCache, laterClock, mergeStored, newBucket, settleWrite, takeToken, TRACKING_FLOOD_LIMIT, type Bucket, type BucketSpec, type LessonState } from './tracking';
import { keyOf, storedLesson, TrackingReader, TrackingWriter, type DbSource, type WriterOptions } from './tracking-writer.server';
import type { Tracked, TrackedCourse } from './tracking-access.server';

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
