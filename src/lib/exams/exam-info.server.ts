/**
 * What the exam's rules page needs of a viewer: the exam's numbers, their standing (grading an attempt
 * whose time is up, and saying so in `changed`), their lessons done and whether they may start.
 */
import type { Db } from '../db/client';
import { completedLessons } from '../learning/progress.server';
import type { Change } from '../runtime/changes';
import { canStart, type StartDecision } from './exams';
import { loadExam, type CourseExam, type ExamSource } from './exam-source.server';
import { examStanding, type ExamStanding } from './exams.server';

/** What `/course-exam-info/{id}` shows a viewer: the exam's numbers, their standing and whether they may start. */
export interface ExamInfo {
  exam: CourseExam;
  /** `null` for someone without a contact (a visitor, an IBO session without a prospect). */
  standing: ExamStanding | null;
  lessonsTotal: number;
  lessonsCompleted: number;
  decision: StartDecision;
  /** What reading the standing changed (an attempt whose time was up, graded): the page tells the runtime. */
  changed: Change[];
}

/**
 * Loads the exam page's facts for `course` and a viewer: only a learner (a user's own contact) may take
 * an exam; everyone else is told to log in. `null` when the course has no exam.
 */
export async function loadExamInfo(
  db: Db,
  course: CourseLessons,
  viewer: { kind: string; contactId: number | null },
  now: number,
  exams: ExamSource = (id) => loadExam(db, id),
): Promise<ExamInfo | null> {
  const exam = await exams(course.id);
  if (!exam) return null;
  const lessonsTotal = lessonIdsOf(course).size;
  const learner = viewer.kind === 'learner' && viewer.contactId !== null;
  const { standing, changed } = learner ? await examStanding(db, exam, viewer.contactId!, now) : { standing: null, changed: [] };
  const done = learner ? lessonsTotal - (await lessonsRemaining(db, course, viewer.contactId!)) : 0;
  const decision = canStart({
    loggedIn: learner,
    isLearner: learner,
    lessonsTotal,
    lessonsCompleted: done,
    attemptsUsed: standing?.used ?? 0,
    attemptsAllowed: exam.settings.attempts,
    passedAlready: standing?.passed ?? false,
    openAttempt: standing?.open !== null && standing?.open !== undefined,
  });
  return { exam, standing, lessonsTotal, lessonsCompleted: done, decision, changed };
}

/** A course as the exam checks use it: its lessons. */
type CourseLessons = { id: number; modules: readonly { lessons: readonly { id: number }[] }[] };

function lessonIdsOf(course: CourseLessons): Set<number> {
  return new Set(course.modules.flatMap((m) => m.lessons.map((l) => l.id)));
}

/** How many lessons of `course` the person has not completed (an attempt may start at 0). */
export async function lessonsRemaining(db: Db, course: CourseLessons, contactId: number): Promise<number> {
  const lessonIds = lessonIdsOf(course);
  const done = (await completedLessons(db, contactId, course.id)).filter((id) => lessonIds.has(id)).length;
  return lessonIds.size - done;
}
