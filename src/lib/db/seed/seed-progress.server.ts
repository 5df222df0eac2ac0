/** Seeds the demo people's learning: lessons watched to the end, passed exams, and certificates. */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import * as s from '../schema';
import { lessonVideo, type DemoCourse } from './demo-catalogue.server';
import * as people from './people';
import { correctOptions, drawAttempt, examSettings, gradeAttempt, passed, seededRandom, type ExamQuestion } from '../../exams/exams';
import { coverageLength } from '../../learning/learning';
import type { Tx } from './seed-kit.server';

/** What the progress is written against: the accounts, lessons and exams already seeded, and the demo courses. */
export interface SeededIds {
  userId: Map<string, number>;
  /** Every demo lesson in catalogue order, with its row id. */
  lessons: readonly { courseId: number; id: number; lesson: DemoCourse['archive']['course']['modules'][number]['lessons'][number]; course: DemoCourse }[];
  evaluationId: Map<number, number>;
  courses: readonly DemoCourse[];
}

/** Writes each demo person's watched lessons and passed exam attempts. */
export async function seedProgress(tx: Tx, { userId, lessons, evaluationId, courses }: SeededIds) {
  // Demo progress: lessons watched to the end, and passed exams (a real draw answered all right).
  const contactRows = await tx
    .select({ id: s.contacts.id, userId: s.contacts.userId })
    .from(s.contacts)
    .where(inArray(s.contacts.userId, [...userId.values()]));
  const contactOf = (email: string) => contactRows.find((c) => c.userId === userId.get(email))!.id;
  const hour = 3_600_000;
  const base = Date.now() - 30 * 24 * hour;
  for (const [n, u] of people.users.entries()) {
    const contactId = contactOf(u.email);
    // Each person's history starts on a day of its own, a lesson an hour, an exam the day after.
    let at = base + n * 24 * hour;
    for (const courseId of u.lessonsCompletedCourseIds ?? []) {
      const rows = lessons.filter((l) => l.courseId === courseId).map((l) => {
        const seconds = lessonVideo(l.course, l.lesson).seconds;
        const slots = coverageLength(seconds);
        at += hour;
        return {
          contactId,
          courseId,
          subtopicId: l.id,
          lastPosition: seconds.toFixed(2),
          furthestPosition: seconds.toFixed(2),
          playedSeconds: String(slots),
          watched: '1'.repeat(slots),
          completedAt: new Date(at),
          updatedAt: new Date(at),
          createdAt: new Date(at),
        };
      });
      // Once seeded, the person's own progress wins (re-seeding never rewinds it).
      await tx.insert(s.tracking).values(rows).onConflictDoNothing();
    }
    for (const courseId of u.examPassedCourseIds ?? []) {
      const evaluation = courses.find((c) => c.id === courseId)!.archive.course.exam!;
      const eid = evaluationId.get(courseId)!;
      const options = await tx
        .select({ q: s.questions, o: s.questionOptions })
        .from(s.questions)
        .innerJoin(s.questionOptions, eq(s.questionOptions.questionId, s.questions.id))
        .where(and(eq(s.questions.evaluationId, eid), isNull(s.questions.retiredAt)))
        .orderBy(s.questions.position, s.questionOptions.position);
      const pool = new Map<number, ExamQuestion>();
      for (const { q, o } of options) {
        const question = pool.get(q.id) ?? { id: q.id, kind: q.kind, promptEs: q.promptEs, promptEn: q.promptEn, options: [] };
        pool.set(q.id, { ...question, options: [...question.options, { id: o.id, textEs: o.textEs, textEn: o.textEn, correct: o.isCorrect }] });
      }
      const settings = examSettings(
        { attempts: evaluation.attempts, questions: evaluation.questions, minutes: evaluation.minutes, minimumScore: evaluation.minimumScore },
        pool.size,
      );
      const drawn = drawAttempt([...pool.values()], settings, seededRandom(contactId * 1000 + courseId));
      const asked = drawn.questionIds.map((id) => pool.get(id)!);
      const answers = Object.fromEntries(asked.map((q) => [String(q.id), correctOptions(q)]));
      const grade = gradeAttempt(asked, answers);
      at += 24 * hour;
      const startedAt = new Date(at);
      await tx
        .insert(s.examAttempts)
        .values({
          evaluationId: eid,
          contactId,
          attemptNumber: 1,
          questionIds: drawn.questionIds,
          optionOrder: drawn.optionOrder,
          answers,
          startedAt,
          deadlineAt: new Date(at + settings.minutes * 60_000),
          submittedAt: new Date(at + Math.min(settings.minutes, 7) * 60_000),
          score: grade.score,
          passed: passed(grade.score, settings.minimumScore),
        })
        .onConflictDoNothing();
    }
  }
}

/** Writes the demo certificates, once (the code is fixed), for holders whose account the seed has. */
export async function seedCertificates(tx: Tx) {
  for (const c of people.certificates) {
    const [holder] = await tx
      .select({ contactId: s.contacts.id, firstName: s.users.firstName, lastName: s.users.lastName })
      .from(s.users)
      .innerJoin(s.contacts, eq(s.contacts.userId, s.users.id))
      .where(sql`lower(${s.users.email}) = ${c.email.toLowerCase()}`);
    if (!holder) continue;
    await tx
      .insert(s.certificates)
      .values({ contactId: holder.contactId, courseId: c.courseId, code: c.code, holderName: `${holder.firstName} ${holder.lastName}`, issuedAt: new Date() })
      .onConflictDoNothing();
  }
}
