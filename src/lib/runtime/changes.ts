/**
 * What a write changed, in the words the caches understand. A domain function (or the action around
 * it) returns `changed: Change[]`; the action kit tells every process, so no caller has to remember
 * which cache to drop. Pure: the telling goes through whatever `Listeners` it is given (the runtime).
 *
 * - `{ person: { userId?, contactId? } }`: what a person may see changed (a purchase, a membership, a
 *   completed course): every process forgets their viewer and their kept pages.
 * - `{ pages: contactId }`: only what a person's own pages show changed (an exam attempt started or
 *   graded without a pass): their kept pages are stale, their viewer is kept.
 * - `{ session: { tokenHash } | { userId } | { iboId } }`: a session ended or changed (logout, a new
 *   prospect, a password reset ending every session of an account): every process reads it again.
 * - `{ exam: courseId }`: a course's exam (its question bank or settings) changed, or a regrade changed
 *   scores or certificates: every process forgets that exam and its kept pages (the exam pages, the
 *   result pages, the certificate pages are kept pages).
 * - `{ catalog: true }`: what the catalogue holds changed (a course published, a book or a plan edited by
 *   staff): every process drops its snapshot, its exams and every kept page at once.
 */

export type Change =
  | { person: { userId?: number | null; contactId?: number | null } }
  | { pages: number }
  | { session: { tokenHash: string } | { userId: number } | { iboId: number } }
  | { exam: number }
  | { catalog: true };

/**
 * What a page's loader read, and what reading it changed: a read may write (an exam attempt whose time
 * is up is graded by the next read), and the page tells the runtime (`tellChanges(Astro.locals.runtime,
 * changed)`) as an action's kit does.
 */
export interface PageRead<P> {
  page: P;
  changed: Change[];
}

/** The runtime's ways of telling every process (`Runtime.personChanged`, `pagesChanged`, `sessionChanged`, `examChanged`, `catalogChanged`). */
export interface Listeners {
  examChanged(courseId: number): Promise<void>;
  catalogChanged(): Promise<void>;
  personChanged(ref: { userId?: number | null; contactId?: number | null }): Promise<void>;
  pagesChanged(contactId: number): void;
  sessionChanged(ref: { tokenHash: string } | { userId: number } | { iboId: number }): Promise<void>;
}

/** A person's access changed. */
export const personChange = (ref: { userId?: number | null; contactId?: number | null }): Change => ({ person: ref });
/** A person's own pages changed. */
export const pagesChange = (contactId: number): Change => ({ pages: contactId });
/** A course's exam changed (bank, settings, a regrade). */
export const examChange = (courseId: number): Change => ({ exam: courseId });
/** The catalogue changed (a course published, books, plans): every process reloads it. */
export const catalogChange = (): Change => ({ catalog: true });
/** A session ended or changed. */
export const sessionChange = (ref: { tokenHash: string } | { userId: number } | { iboId: number }): Change => ({ session: ref });

/**
 * The changes without repeats, and without a `pages` change of a contact whose `person` change is told
 * too (forgetting a person drops their pages as well).
 */
export function distinctChanges(changes: readonly Change[]): Change[] {
  const seen = new Set<string>();
  const people = new Set(changes.flatMap((c) => ('person' in c && typeof c.person.contactId === 'number' ? [c.person.contactId] : [])));
  const out: Change[] = [];
  for (const c of changes) {
    if ('pages' in c && people.has(c.pages)) continue;
    const key = JSON.stringify(c);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(c);
  }
  return out;
}

/** Tells `listeners` of every change, in order (sessions first: a page rendered next must not see an ended one; then the catalogue). */
export async function tellChanges(listeners: Listeners, changes: readonly Change[]): Promise<void> {
  const distinct = distinctChanges(changes);
  for (const c of distinct) if ('session' in c) await listeners.sessionChanged(c.session);
  for (const c of distinct) if ('exam' in c) await listeners.examChanged(c.exam);
  // The catalogue before people: a page rendered for a person next reads the new catalogue.
  if (distinct.some((c) => 'catalog' in c)) await listeners.catalogChanged();
  for (const c of distinct) {
    if ('person' in c) await listeners.personChanged(c.person);
    else if ('pages' in c) listeners.pagesChanged(c.pages);
  }
}
