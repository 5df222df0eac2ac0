/** Exam questions for the tests of the exam rules: single, multiple and true/false questions and pools of them. */
import type { ExamQuestion, QuestionKind } from './exams';

/** A question with options `optionIds`, of which `right` are correct. */
export function question(id: number, kind: QuestionKind, optionIds: number[], right: number[]): ExamQuestion {
  return {
    id,
    kind,
    promptEs: `Pregunta ${id}`,
    promptEn: `Question ${id}`,
    options: optionIds.map((o) => ({ id: o, textEs: `Opción ${o}`, textEn: `Option ${o}`, correct: right.includes(o) })),
  };
}
export const single = (id: number, right = id * 10 + 1) => question(id, 'single', [id * 10 + 1, id * 10 + 2, id * 10 + 3, id * 10 + 4], [right]);
export const multiple = (id: number, right: number[]) => question(id, 'multiple', [id * 10 + 1, id * 10 + 2, id * 10 + 3, id * 10 + 4], right);
/** True is option `id*10+1`, false `id*10+2`. */
export const trueFalse = (id: number, isTrue = true) => question(id, 'true-false', [id * 10 + 1, id * 10 + 2], [isTrue ? id * 10 + 1 : id * 10 + 2]);

/** A pool of `n` single-choice questions with ids 1..n. */
export const pool = (n: number) => Array.from({ length: n }, (_, i) => single(i + 1));
