/**
 * Catalogue reads. The whole catalogue (categories, business lines, courses with their outline, books,
 * plans) is small and read on every page, while one embedded database serialises every query: so it is
 * loaded once into an immutable snapshot and kept until a write invalidates it (`CatalogStore`).
 * Invalidations reach the other app processes through the runtime's bus.
 */
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { books, businesses, categories, courses, mediaFiles, plans, resources, RESOURCE_TYPE, subtopics, topics } from '../db/schema';
import type { CatalogSnapshot, CatalogCourse } from './catalog';

/** Loads the catalogue from the database (a handful of queries, whatever its size). */
export async function loadCatalog(db: Db): Promise<CatalogSnapshot> {
  const [cats, biz, courseRows, topicRows, lessonRows, bookRows, planRows] = await Promise.all([
    db.select().from(categories).orderBy(asc(categories.position), asc(categories.id)),
    db.select().from(businesses).orderBy(asc(businesses.position), asc(businesses.id)),
    db.select().from(courses).orderBy(asc(courses.id)),
    db.select().from(topics).orderBy(asc(topics.courseId), asc(topics.position)),
    db
      .select({ lesson: subtopics, duration: mediaFiles.durationSeconds })
      .from(subtopics)
      .leftJoin(resources, eq(resources.subtopicId, subtopics.id))
      .leftJoin(mediaFiles, eq(mediaFiles.id, resources.mediaFileId))
      .where(eq(resources.typeId, RESOURCE_TYPE.video))
      .orderBy(asc(subtopics.topicId), asc(subtopics.position)),
    // Hidden books are off the books page and out of carts; their buyers still download them (`book.server.ts`).
    db.select().from(books).where(eq(books.hidden, false)).orderBy(asc(books.id)),
    db.select().from(plans).orderBy(asc(plans.price)),
  ]);
  const lessonsByTopic = new Map<number, CatalogCourse['modules'][number]['lessons']>();
  for (const { lesson, duration } of lessonRows) {
    const list = lessonsByTopic.get(lesson.topicId) ?? [];
    list.push({ ...lesson, durationSeconds: duration === null ? 0 : Number(duration) });
    lessonsByTopic.set(lesson.topicId, list);
  }
  const modulesByCourse = new Map<number, CatalogCourse['modules']>();
  for (const t of topicRows) {
    const list = modulesByCourse.get(t.courseId) ?? [];
    list.push({ ...t, lessons: lessonsByTopic.get(t.id) ?? [] });
    modulesByCourse.set(t.courseId, list);
  }
  const courseList: CatalogCourse[] = courseRows.map((c) => {
    const modules = modulesByCourse.get(c.id) ?? [];
    const lessons = modules.flatMap((m) => m.lessons);
    return {
      ...c,
      price: Number(c.price),
      modules,
      lessonCount: lessons.length,
      durationSeconds: lessons.reduce((s, l) => s + l.durationSeconds, 0),
    };
  });
  return {
    categories: cats,
    businesses: biz,
    courses: courseList,
    byId: new Map(courseList.map((c) => [c.id, c])),
    books: bookRows.map((b) => ({ ...b, price: Number(b.price) })),
    plans: planRows.map((p) => ({ ...p, price: Number(p.price) })),
  };
}

/**
 * The process's catalogue: one snapshot, loaded on first use and again after a change. A change made
 * here or in another process reaches it through the runtime's bus (`invalidate`); `version` changes
 * with every invalidation, so page caches keyed on it never serve a page of an older catalogue.
 */
export class CatalogStore {
  #snapshot: Promise<CatalogSnapshot> | null = null;
  /** The last snapshot that loaded: served while a reload fails (the database out of reach), until one succeeds. */
  #lastLoaded: CatalogSnapshot | null = null;
  #version = 0;
  readonly #listeners = new Set<() => void>();

  constructor(private readonly db: Db) {}

  /**
   * The current snapshot, loading it on first use or after an invalidation. A load that fails is tried
   * again by the next call; meanwhile the last snapshot that loaded is served (a page of a catalogue a
   * moment old beats no page while the database is out of reach). With none yet, the failure is thrown.
   */
  get(): Promise<CatalogSnapshot> {
    if (!this.#snapshot) {
      const loading: Promise<CatalogSnapshot> = loadCatalog(this.db).then(
        (snapshot) => (this.#lastLoaded = snapshot),
        (err: unknown) => {
          if (this.#snapshot === loading) this.#snapshot = null;
          if (this.#lastLoaded) return this.#lastLoaded;
          throw err;
        },
      );
      this.#snapshot = loading;
    }
    return this.#snapshot;
  }

  /** A number that changes whenever the catalogue does. */
  get version(): number {
    return this.#version;
  }

  /** Drops the snapshot in this process and tells listeners. */
  invalidate(): void {
    this.#snapshot = null;
    this.#version += 1;
    for (const l of this.#listeners) l();
  }

  /** Calls `listener` after every invalidation; returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
