/** Seeds every demo course's exam: its settings, its question bank and each question's options. */
import { isNull } from 'drizzle-orm';
import * as s from '../schema';
import type { DemoCourse } from './demo-catalogue.server';
import { excluded, type Tx } from './seed-kit.server';

/** Writes the exams; returns the exam id of each course and the questions in catalogue order. */
export async function seedExams(tx: Tx, courses: readonly DemoCourse[]) {
  const withExam = courses.flatMap(({ id, archive }) => (archive.course.exam ? [{ courseId: id, exam: archive.course.exam }] : []));
  if (!withExam.length) return { evaluationId: new Map<number, number>(), questionList: [] };
  const evaluations = await tx
    .insert(s.evaluations)
    .values(withExam.map(({ courseId, exam }) => ({ courseId, minutes: exam.minutes, questionCount: exam.questions, passingScore: exam.minimumScore, maxAttempts: exam.attempts })))
    .onConflictDoUpdate({ target: s.evaluations.courseId, set: excluded(s.evaluations, ['minutes', 'questionCount', 'passingScore', 'maxAttempts']) })
    .returning({ id: s.evaluations.id, courseId: s.evaluations.courseId });
  const evaluationId = new Map(evaluations.map((e) => [e.courseId, e.id]));
  const questionList = withExam.flatMap(({ courseId, exam }) => exam.bank.map((q, i) => ({ evaluationId: evaluationId.get(courseId)!, q, position: i + 1 })));
  if (!questionList.length) return { evaluationId, questionList };
  const questions = await tx
    .insert(s.questions)
    .values(
      questionList.map(({ evaluationId: e, q, position }) => ({ evaluationId: e, kind: q.kind, promptEs: q.prompt.es, promptEn: q.prompt.en, explanationEs: q.explanation.es, explanationEn: q.explanation.en, position })),
    )
    // The bank's question at each position (a retired version keeps its text for the attempts that drew it).
    .onConflictDoUpdate({
      target: [s.questions.evaluationId, s.questions.position],
      targetWhere: isNull(s.questions.retiredAt),
      set: excluded(s.questions, ['kind', 'promptEs', 'promptEn', 'explanationEs', 'explanationEn']),
    })
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
