/**
 * Catalogue reads. The whole catalogue (categories, business lines, courses with their outline, books,
 * plans) is small and read on every page, while one embedded database serialises every query: so it is
 * loaded once into an immutable snapshot and kept until a write invalidates it (`invalidateCatalog`).
 * With PostgreSQL, invalidations reach the other app processes through LISTEN/NOTIFY.
 */
import { asc, eq, sql } from 'drizzle-orm';
import type { Db, DbHandle } from '../db/client';
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
    db.select().from(books).orderBy(asc(books.id)),
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

const KEY = Symbol.for('academy.catalog');
type Holder = { [KEY]?: { snapshot: Promise<CatalogSnapshot> | null; version: number; listeners: Set<() => void> } };

function state() {
  const g = globalThis as Holder;
  g[KEY] ??= { snapshot: null, version: 0, listeners: new Set() };
  return g[KEY];
}

/** The cached catalogue snapshot, loading it on first use or after an invalidation. */
export function getCatalog(db: Db): Promise<CatalogSnapshot> {
  const s = state();
  if (!s.snapshot) {
    const loading = loadCatalog(db);
    s.snapshot = loading;
    loading.catch(() => {
      if (s.snapshot === loading) s.snapshot = null;
    });
  }
  return s.snapshot;
}

/** A number that changes whenever the catalogue does (page caches key on it). */
export function catalogVersion(): number {
  return state().version;
}

/** Drops the snapshot in this process and tells listeners (the page cache). */
export function invalidateCatalog(): void {
  const s = state();
  s.snapshot = null;
  s.version += 1;
  for (const l of s.listeners) l();
}

/** Calls `listener` after every invalidation; returns the unsubscribe function. */
export function onCatalogChange(listener: () => void): () => void {
  state().listeners.add(listener);
  return () => state().listeners.delete(listener);
}

const CHANNEL = 'academy_catalog';

/** Announces a catalogue write: invalidates here, and in every other process sharing PostgreSQL. */
export async function announceCatalogChange(handle: DbHandle): Promise<void> {
  invalidateCatalog();
  if (handle.kind === 'postgres') await handle.db.execute(sql.raw(`NOTIFY ${CHANNEL}`));
}

/** Subscribes this process to other processes' catalogue writes (PostgreSQL only). */
export async function listenForCatalogChanges(databaseUrl: string): Promise<() => Promise<void>> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  client.on('notification', (n) => n.channel === CHANNEL && invalidateCatalog());
  client.on('error', () => undefined);
  await client.query(`LISTEN ${CHANNEL}`);
  return () => client.end();
}
