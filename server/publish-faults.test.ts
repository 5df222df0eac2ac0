/**
 * `kill -9` in the middle of publishing a course's draft (`backoffice-faults.child.ts` running
 * `publishDraft` on a data folder, killing itself at a step): once the old outline is cleared, after the
 * first new module is written (both inside its transaction), and just after its commit. The live course
 * is at every moment the old version with its draft kept, or the new one in full; learners' progress is
 * untouched; publishing again afterwards works. On PGlite, and on PostgreSQL when it answers (each a copy
 * of the run's seeded database).
 */
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as s from '../src/lib/db/schema';
import type { CourseDoc } from '../src/lib/authoring/authoring';
import { editDraft, liveDoc, newKey } from '../src/lib/authoring/draft.server';
import { addLesson, addModule, moveLesson, renameModule, type EditResult } from '../src/lib/authoring/edits';
import { faultDatabases, useFaultTarget, runWrite, withDb } from '../src/lib/testing/fault-runs';

const COURSE = 1;

/** What a learner is shown of a course: its settings and outline, without row ids or draft keys (new rows get their ids on publishing). */
function shown(doc: CourseDoc) {
  return { ...doc, modules: doc.modules.map((m) => ({ nameEs: m.nameEs, nameEn: m.nameEn, lessons: m.lessons.map((l) => ({ ...l, key: undefined, id: undefined, resources: l.resources.map((r) => ({ ...r, key: undefined, id: undefined })) })) })) };
}

describe.each(await faultDatabases())('kill -9 while publishing a course on $name', ({ name, up, share }) => {
  const target = useFaultTarget('publish-faults', { name, up });

  it.skipIf(!up)('leaves the old version or the new one in full, keeps progress, and publishes again', async () => {
    const names = (es: string, en: string) => ({ es, en });
    const { editor, old, draft } = await withDb(target(), async ({ db }) => {
      const editor = (await db.select({ id: s.users.id }).from(s.users).where(eq(s.users.email, 'editor@academia.example')))[0]!.id;
      const old = (await liveDoc(db, COURSE))!;
      expect(old.modules.length).toBeGreaterThanOrEqual(2);
      // Progress of a learner in every lesson of the course.
      const [contact] = await db.insert(s.contacts).values({ firstName: 'Ana', lastName: 'Fallo', email: 'publish.faults@example.com' }).returning({ id: s.contacts.id });
      const lessons = old.modules.flatMap((m) => m.lessons.map((l) => l.id!));
      await db.insert(s.tracking).values(lessons.map((subtopicId, i) => ({ contactId: contact!.id, courseId: COURSE, subtopicId, furthestPosition: String(10 + i), completedAt: i % 2 ? new Date() : null })));
      // The draft: the course and a module renamed, a lesson moved to another module, a new module with a lesson.
      const steps: ((doc: CourseDoc) => EditResult)[] = [
        (doc) => ({ ok: true, doc: { ...doc, nameEs: `${doc.nameEs} (2.ª edición)`, nameEn: `${doc.nameEn} (2nd edition)` } }),
        (doc) => renameModule(doc, doc.modules[0]!.key, names('Primeros pasos', 'First steps')),
        (doc) => moveLesson(doc, doc.modules[0]!.lessons[0]!.key, doc.modules[1]!.key, 0),
        (doc) => addModule(doc, names('Repaso', 'Review'), newKey),
        (doc) => addLesson(doc, doc.modules.at(-1)!.key, names('Resumen', 'Summary'), newKey),
      ];
      let draft: CourseDoc | null = null;
      for (const change of steps) {
        const edited = await editDraft(db, editor, COURSE, { action: 'test' }, change);
        if (edited.status !== 'ok') throw new Error(`draft edit refused: ${JSON.stringify(edited)}`);
        draft = edited.doc;
      }
      return { editor, old, draft: draft! };
    });
    const state = () =>
      withDb(target(), async ({ db }) => ({
        live: (await liveDoc(db, COURSE))!,
        version: (await db.select({ version: s.courses.version }).from(s.courses).where(eq(s.courses.id, COURSE)))[0]!.version,
        draft: (await db.select().from(s.courseDrafts).where(eq(s.courseDrafts.courseId, COURSE)))[0] ?? null,
        progress: await db.select().from(s.tracking).where(eq(s.tracking.courseId, COURSE)).orderBy(s.tracking.id),
        published: (await db.select().from(s.auditEvents).where(eq(s.auditEvents.action, 'course.published'))).length,
      }));
    const before = await state();
    expect(before.progress.length).toBeGreaterThan(0);
    const args = { actor: editor, course: COURSE };

    // Killed inside the transaction: the old version, the draft kept, nothing recorded.
    for (const [at, nth] of share([['outline-cleared', 1], ['module-written', 1]] as const)) {
      expect((await runWrite('publish', target(), { at, nth, args })).end, at).toBe('killed');
      expect(await state(), at).toEqual(before);
    }
    // Killed just after the commit: the new version in full, the draft gone, progress kept.
    expect(await runWrite('publish', target(), { at: 'committed', args })).toMatchObject({ end: 'killed' });
    const after = await state();
    expect(shown(after.live)).toEqual(shown(draft));
    expect(after.version).toBe(before.version + 1);
    expect(after.draft).toBeNull();
    expect(after.published).toBe(before.published + 1);
    // Every lesson kept its id (and so its progress), wherever it moved.
    const ids = (doc: CourseDoc) => doc.modules.flatMap((m) => m.lessons.flatMap((l) => (l.id ? [l.id] : []))).sort();
    expect(ids(after.live).filter((id) => ids(old).includes(id))).toEqual(ids(old));
    expect(after.progress).toEqual(before.progress);

    // Publishing again works: another edit, published whole.
    const second = await withDb(target(), async ({ db }) => {
      const edited = await editDraft(db, editor, COURSE, { action: 'test' }, (doc) => renameModule(doc, doc.modules.at(-1)!.key, names('Repaso final', 'Final review')));
      if (edited.status !== 'ok') throw new Error('draft edit refused');
      return edited.doc;
    });
    expect(await runWrite('publish', target(), { args })).toMatchObject({ end: 'done', result: { status: 'ok', version: before.version + 2 } });
    const last = await state();
    expect(shown(last.live)).toEqual(shown(second));
    expect(last.progress).toEqual(before.progress);
    expect(last.published).toBe(before.published + 2);
  }, 600_000);
});
