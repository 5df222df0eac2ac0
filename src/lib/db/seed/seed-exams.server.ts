/** Seeds every course's exam: its settings, its question pool and each question's options. */
import { isNull } from 'drizzle-orm';
import * as s from '../schema';
import * as catalogue from './catalogue';
import { excluded, type Tx } from './seed-kit.server';

/** Writes the exams; returns the exam id of each course and the questions in catalogue order. */
export async function seedExams(tx: Tx) {
  const evaluations = await tx
    .insert(s.evaluations)
    .values(
      catalogue.courses.map((c) => ({
        courseId: c.id,
        minutes: c.exam.minutes,
        questionCount: c.exam.questionCount,
        passingScore: c.exam.passingScore,
        maxAttempts: c.exam.maxAttempts,
      })),
    )
    .onConflictDoUpdate({ target: s.evaluations.courseId, set: excluded(s.evaluations, ['minutes', 'questionCount', 'passingScore', 'maxAttempts']) })
    .returning({ id: s.evaluations.id, courseId: s.evaluations.courseId });
  const evaluationId = new Map(evaluations.map((e) => [e.courseId, e.id]));
  const questionList = catalogue.courses.flatMap((c) => c.exam.pool.map((q, i) => ({ evaluationId: evaluationId.get(c.id)!, q, position: i + 1 })));
  const questions = await tx
    .insert(s.questions)
    .values(questionList.map(({ evaluationId: e, q, position }) => ({ evaluationId: e, kind: q.kind ?? 'single', promptEs: q.prompt.es, promptEn: q.prompt.en, position })))
    // The pool's question at each position (a retired version keeps its text for the attempts that drew it).
    .onConflictDoUpdate({ target: [s.questions.evaluationId, s.questions.position], targetWhere: isNull(s.questions.retiredAt), set: excluded(s.questions, ['kind', 'promptEs', 'promptEn']) })
    .returning({ id: s.questions.id, evaluationId: s.questions.evaluationId, position: s.questions.position });
  const questionId = new Map(questions.map((q) => [`${q.evaluationId}:${q.position}`, q.id]));
  await tx
    .insert(s.questionOptions)
    .values(
      questionList.flatMap(({ evaluationId: e, q, position }) =>
        q.options.map((o, i) => ({
          questionId: questionId.get(`${e}:${position}`)!,
          textEs: o.text.es,
          textEn: o.text.en,
          isCorrect: o.correct,
          position: i + 1,
        })),
      ),
    )
    .onConflictDoUpdate({
      target: [s.questionOptions.questionId, s.questionOptions.position],
      set: excluded(s.questionOptions, ['textEs', 'textEn', 'isCorrect']),
    });
  return { evaluationId, questionList };
}
