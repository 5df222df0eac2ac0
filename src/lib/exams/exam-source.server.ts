/**
 * Where a course's exam comes from: its settings and question pool read from the database, or kept by
 * the runtime until the catalogue changes. The correct options are loaded here and leave the exams'
 * modules only in a grade.
 */
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { evaluations, questionOptions, questions } from '../db/schema';
import { examSettings, type ExamQuestion, type ExamSettings } from './exams';

/**
 * A course's exam: its settings (defaults filled, questions cut to the pool), its question pool (what
 * new attempts draw from) and every version of its questions (the pool and the retired versions that
 * attempts drew: an attempt is always shown and graded with the version it drew).
 */
export interface CourseExam {
  evaluationId: number;
  courseId: number;
  settings: ExamSettings;
  pool: ExamQuestion[];
  versions: ReadonlyMap<number, ExamQuestion>;
}

/** A transaction of `Db`. */
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Loads the exam of a course, or `null` when the course has none. */
export async function loadExam(db: Db | Tx, courseId: number): Promise<CourseExam | null> {
  const [evaluation] = await db.select().from(evaluations).where(eq(evaluations.courseId, courseId));
  if (!evaluation) return null;
  const rows = await db
    .select({ q: questions, o: questionOptions })
    .from(questions)
    .innerJoin(questionOptions, eq(questionOptions.questionId, questions.id))
    .where(eq(questions.evaluationId, evaluation.id))
    .orderBy(asc(questions.position), asc(questions.id), asc(questionOptions.position));
  const versions = new Map<number, ExamQuestion & { options: ExamQuestion['options'][number][] }>();
  const pool: ExamQuestion[] = [];
  for (const { q, o } of rows) {
    let question = versions.get(q.id);
    if (!question) {
      question = { id: q.id, kind: q.kind, promptEs: q.promptEs, promptEn: q.promptEn, explanationEs: q.explanationEs, explanationEn: q.explanationEn, options: [] };
      versions.set(q.id, question);
      if (q.retiredAt === null) pool.push(question);
    }
    question.options.push({ id: o.id, textEs: o.textEs, textEn: o.textEn, correct: o.isCorrect });
  }
  const settings = examSettings(
    { attempts: evaluation.maxAttempts, questions: evaluation.questionCount, minutes: evaluation.minutes, minimumScore: evaluation.passingScore },
    pool.length,
  );
  return { evaluationId: evaluation.id, courseId, settings, pool, versions };
}

/** Where a course's exam comes from: the database each time, or the runtime's `ExamCache`. */
export type ExamSource = (courseId: number) => Promise<CourseExam | null>;

/**
 * Each course's exam as loaded once, until the catalogue or the course's bank changes (the runtime
 * clears it when any process says so): starts, pages and every saved answer need the pool, which changes only with the
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
  /** Forgets one course's exam (its bank or settings changed). */
  forget(courseId: number): void {
    this.#exams.delete(courseId);
  }
  /** Forgets every exam (the catalogue changed). */
  clear(): void {
    this.#exams.clear();
  }
}
