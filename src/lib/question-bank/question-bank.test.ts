import { describe, expect, it } from 'vitest';
import { messages } from '~/i18n';
import { BANK_LIMITS, describeProblem, describeProblems, questionProblems, readQuestionForm, sameQuestion, settingsFormSchema, type QuestionDraft, type ValidDraft } from './question-bank';

const single: QuestionDraft = {
  kind: 'single',
  promptEs: '¿Capital de Francia?',
  promptEn: 'Capital of France?',
  explanationEs: '',
  explanationEn: '',
  options: [
    { textEs: 'París', textEn: 'Paris', correct: true },
    { textEs: 'Roma', textEn: 'Rome', correct: false },
  ],
};
const codes = (d: QuestionDraft) => questionProblems(d).map((p) => p.code);
const es = messages('es').questionBank;
const en = messages('en').questionBank;

describe('questionProblems', () => {
  it('accepts each kind well formed', () => {
    expect(questionProblems(single)).toEqual([]);
    expect(questionProblems({ ...single, kind: 'true-false' })).toEqual([]);
    expect(questionProblems({ ...single, kind: 'multiple', options: [...single.options, { textEs: 'Lyon', textEn: 'Lyon', correct: true }] })).toEqual([]);
  });

  it('refuses a question with no right answer, or only right answers', () => {
    const none = single.options.map((o) => ({ ...o, correct: false }));
    const all = single.options.map((o) => ({ ...o, correct: true }));
    expect(codes({ ...single, options: none })).toEqual(['oneRight']);
    expect(codes({ ...single, options: all })).toEqual(['oneRight']);
    expect(codes({ ...single, kind: 'multiple', options: none })).toEqual(['rightAndWrong']);
    expect(codes({ ...single, kind: 'multiple', options: all })).toEqual(['rightAndWrong']);
    expect(codes({ ...single, kind: 'true-false', options: all })).toEqual(['oneRight']);
  });

  it('counts the options: 2 to 8, and exactly two for true or false', () => {
    const option = { textEs: 'x', textEn: 'x', correct: false };
    expect(codes({ ...single, options: [single.options[0]!] })).toEqual(['tooFewOptions']);
    expect(codes({ ...single, options: [...single.options, ...Array(7).fill(option)] })).toEqual(['tooManyOptions']);
    expect(codes({ ...single, options: [...single.options, ...Array(6).fill(option)] })).toEqual([]);
    expect(codes({ ...single, kind: 'true-false', options: [...single.options, option] })).toEqual(['trueFalseOptions']);
  });

  it('refuses a missing translation with a sentence naming it, in the reader’s language', () => {
    const problems = questionProblems({ ...single, promptEn: '  ', options: [single.options[0]!, { textEs: 'Roma', textEn: '', correct: false }] });
    expect(problems).toEqual([
      { field: 'promptEn', code: 'promptMissing', lang: 'en' },
      { field: 'option2En', code: 'optionMissing', lang: 'en', option: 2 },
    ]);
    expect(describeProblem(problems[0]!, en)).toBe('The English prompt is missing.');
    expect(describeProblem(problems[1]!, es)).toBe('Falta el texto de la opción 2 en inglés.');
    expect(describeProblems(problems, en)).toBe('The English prompt is missing. The English text of option 2 is missing.');
  });

  it('takes the explanation in both languages or in neither', () => {
    expect(codes({ ...single, explanationEs: 'Porque sí.' })).toEqual(['explanationMissing']);
    expect(describeProblem(questionProblems({ ...single, explanationEs: 'Porque sí.' })[0]!, en)).toMatch(/English explanation is missing/);
    expect(codes({ ...single, explanationEs: 'Porque sí.', explanationEn: 'Because.' })).toEqual([]);
  });

  it('bounds the lengths and refuses control characters and unknown kinds', () => {
    expect(codes({ ...single, promptEs: 'x'.repeat(BANK_LIMITS.prompt + 1) })).toEqual(['promptTooLong']);
    expect(describeProblem(questionProblems({ ...single, promptEs: 'x'.repeat(BANK_LIMITS.prompt + 1) })[0]!, en)).toBe('The Spanish prompt is longer than 1000 characters.');
    expect(codes({ ...single, promptEs: 'a\u0000b' })).toEqual(['badCharacters']);
    expect(codes({ ...single, kind: 'essay' })).toEqual(['kind']);
  });
});

describe('readQuestionForm', () => {
  it('reads the rows given, skips empty ones and marks the right ones by row number', () => {
    const form = new FormData();
    for (const [k, v] of Object.entries({ kind: 'multiple', promptEs: ' ¿Cuáles? ', promptEn: 'Which?\r\nPick two', option1Es: 'A', option1En: 'A', option3Es: 'C', option3En: 'C', option4Es: 'D', option4En: 'D' })) form.set(k, v);
    form.append('right', '1');
    form.append('right', '4');
    form.set('option2Es', new File(['x'], 'x.txt'));
    expect(readQuestionForm(form)).toEqual({
      kind: 'multiple',
      promptEs: '¿Cuáles?',
      promptEn: 'Which?\nPick two',
      explanationEs: '',
      explanationEn: '',
      options: [
        { textEs: 'A', textEn: 'A', correct: true },
        { textEs: 'C', textEn: 'C', correct: false },
        { textEs: 'D', textEn: 'D', correct: true },
      ],
    });
  });

  it('reads a ninth row, so that too many options are refused instead of cut', () => {
    const form = new FormData();
    for (let i = 1; i <= 9; i++) {
      form.set(`option${i}Es`, `o${i}`);
      form.set(`option${i}En`, `o${i}`);
    }
    expect(readQuestionForm(form).options).toHaveLength(9);
  });
});

describe('sameQuestion and the settings form', () => {
  it('sees no change when nothing changed', () => {
    expect(sameQuestion({ ...(single as ValidDraft), options: single.options.map((o, i) => ({ ...o, id: i + 1 })) }, single as ValidDraft)).toBe(true);
    expect(sameQuestion({ ...(single as ValidDraft), options: single.options.map((o, i) => ({ ...o, id: i + 1 })) }, { ...(single as ValidDraft), promptEn: 'Capital?' })).toBe(false);
  });

  it('bounds every setting, the minimum score from 0 to 100', () => {
    const ok = { course: '2', attempts: '3', questions: '10', minutes: '20', minimumScore: '0', lang: 'en' };
    expect(settingsFormSchema.safeParse(ok).success).toBe(true);
    for (const [k, v] of [['attempts', '0'], ['questions', '101'], ['minutes', '241'], ['minimumScore', '101'], ['minimumScore', '-1'], ['attempts', '2.5'], ['minutes', 'abc']]) {
      expect(settingsFormSchema.safeParse({ ...ok, [k!]: v }).success, `${k}=${v}`).toBe(false);
    }
  });
});
