/**
 * Where a course's exam comes from: its settings and question pool read from the database, or kept by
 * the runtime until the catalogue changes. The correct options are loaded here and leave the exams'
 * modules only in a grade.
 */
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { evaluations, questionOptions, questions } from '../db/schema';
import { examSettings, type ExamQuestion, type ExamSettings } from './exams';

/** A course's exam: its settings (defaults filled, questions cut to the pool) and its question pool. */
export interface CourseExam {
  evaluationId: number;
  courseId: number;
  settings: ExamSettings;
  pool: ExamQuestion[];
}

/** Loads the exam of a course, or `null` when the course has none. */
export async function loadExam(db: Db, courseId: number): Promise<CourseExam | null> {
  const [evaluation] = await db.select().from(evaluations).where(eq(evaluations.courseId, courseId));
  if (!evaluation) return null;
  const rows = await db
    .select({ q: questions, o: questionOptions })
    .from(questions)
    .innerJoin(questionOptions, eq(questionOptions.questionId, questions.id))
    .where(eq(questions.evaluationId, evaluation.id))
    .orderBy(asc(questions.position), asc(questionOptions.position));
  const pool = new Map<number, ExamQuestion & { options: ExamQuestion['options'][number][] }>();
  for (const { q, o } of rows) {
    const question = pool.get(q.id) ?? { id: q.id, kind: q.kind, promptEs: q.promptEs, promptEn: q.promptEn, options: [] };
    question.options.push({ id: o.id, textEs: o.textEs, textEn: o.textEn, correct: o.isCorrect });
    pool.set(q.id, question);
  }
  const settings = examSettings(
    { attempts: evaluation.maxAttempts, questions: evaluation.questionCount, minutes: evaluation.minutes, minimumScore: evaluation.passingScore },
    pool.size,
  );
  return { evaluationId: evaluation.id, courseId, settings, pool: [...pool.values()] };
}

/** Where a course's exam comes from: the database each time, or the runtime's `ExamCache`. */
export type ExamSource = (courseId: number) => Promise<CourseExam | null>;

/**
 * Each course's exam as loaded once, until the catalogue changes (the runtime clears it when any
 * process says so): starts, pages and every saved answer need the pool, which changes only with the
 * catalogue.
 */
export class ExamCache {
  readonly #exams = new Map<number, Promise<CourseExam | null>>();
  constructor(private readonly db: Db) {}
  /** The exam of a course (`null`: it has none). */
  get: ExamSource = (courseId) => {
    let exam = this.#exams.get(courseId);
    if (!exam) {
      exam = loadExam(this.db, courseId);
      this.#exams.set(courseId, exam);
      // A failed load is not kept: the next request tries again.
      exam.catch(() => this.#exams.delete(courseId));
    }
    return exam;
  };
  /** Forgets every exam (the catalogue changed). */
  clear(): void {
    this.#exams.clear();
  }
}
