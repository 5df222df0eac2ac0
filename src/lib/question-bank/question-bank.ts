/**
 * The rules of a course's question bank as editors write it, pure: what a well-formed question is
 * (kinds, options, both languages, lengths), each refusal as a sentence naming its field, reading the
 * question form and the exam settings form, and comparing two versions of a question.
 */
import { z } from '../zod';
import { hasForbiddenCharacters } from '../forms/characters';
import { QUESTION_KINDS, type ExamQuestion, type QuestionKind } from '../exams/exams';
import { keyChanged } from '../exams/keys';
import { format } from '~/i18n/format';
import type { Messages } from '~/i18n/types';

/** The bounds of a question: options per question and the longest texts (characters). */
export const BANK_LIMITS = Object.freeze({ minOptions: 2, maxOptions: 8, prompt: 1000, option: 300, explanation: 2000, questions: 500 });

/** The languages every text is written in. */
export const BANK_LANGS = ['es', 'en'] as const;
export type BankLang = (typeof BANK_LANGS)[number];

/** An answer option as written. */
export interface OptionDraft {
  textEs: string;
  textEn: string;
  correct: boolean;
}

/** A question as an editor (or a CSV row) writes it. */
export interface QuestionDraft {
  kind: string;
  promptEs: string;
  promptEn: string;
  explanationEs: string;
  explanationEn: string;
  options: readonly OptionDraft[];
}

/** A well-formed question (no `problems`): its kind is one of `QUESTION_KINDS`. */
export type ValidDraft = QuestionDraft & { kind: QuestionKind };

/** What can be wrong with a question. */
export type ProblemCode =
  | 'kind'
  | 'promptMissing'
  | 'promptTooLong'
  | 'optionMissing'
  | 'optionTooLong'
  | 'explanationMissing'
  | 'explanationTooLong'
  | 'badCharacters'
  | 'tooFewOptions'
  | 'tooManyOptions'
  | 'trueFalseOptions'
  | 'oneRight'
  | 'rightAndWrong';

/** One refusal: the field it is about (the form's field name), and what names it. */
export interface Problem {
  field: string;
  code: ProblemCode;
  lang?: BankLang;
  /** 1-based option number. */
  option?: number;
}

const cap = (lang: BankLang) => (lang === 'es' ? 'Es' : 'En');

/** The problems of a question, empty when it may be saved. */
export function questionProblems(d: QuestionDraft): Problem[] {
  const problems: Problem[] = [];
  const text = (field: string, value: string, max: number, missing: ProblemCode | null, tooLong: ProblemCode, extra: Partial<Problem>) => {
    if (hasForbiddenCharacters(value, true)) problems.push({ field, code: 'badCharacters', ...extra });
    else if (missing && value.trim() === '') problems.push({ field, code: missing, ...extra });
    else if (value.length > max) problems.push({ field, code: tooLong, ...extra });
  };
  if (!(QUESTION_KINDS as readonly string[]).includes(d.kind)) problems.push({ field: 'kind', code: 'kind' });
  for (const lang of BANK_LANGS) text(`prompt${cap(lang)}`, lang === 'es' ? d.promptEs : d.promptEn, BANK_LIMITS.prompt, 'promptMissing', 'promptTooLong', { lang });
  // The explanation is optional, but never in one language only.
  const explained = d.explanationEs.trim() !== '' || d.explanationEn.trim() !== '';
  for (const lang of BANK_LANGS) text(`explanation${cap(lang)}`, lang === 'es' ? d.explanationEs : d.explanationEn, BANK_LIMITS.explanation, explained ? 'explanationMissing' : null, 'explanationTooLong', { lang });
  d.options.forEach((o, i) => {
    for (const lang of BANK_LANGS) text(`option${i + 1}${cap(lang)}`, lang === 'es' ? o.textEs : o.textEn, BANK_LIMITS.option, 'optionMissing', 'optionTooLong', { lang, option: i + 1 });
  });
  const n = d.options.length;
  const right = d.options.filter((o) => o.correct).length;
  if (d.kind === 'true-false') {
    if (n !== 2) problems.push({ field: 'options', code: 'trueFalseOptions' });
    else if (right !== 1) problems.push({ field: 'right', code: 'oneRight' });
  } else if (n < BANK_LIMITS.minOptions) problems.push({ field: 'options', code: 'tooFewOptions' });
  else if (n > BANK_LIMITS.maxOptions) problems.push({ field: 'options', code: 'tooManyOptions' });
  else if (d.kind === 'single' && right !== 1) problems.push({ field: 'right', code: 'oneRight' });
  else if (d.kind === 'multiple' && (right === 0 || right === n)) problems.push({ field: 'right', code: 'rightAndWrong' });
  return problems;
}

/** A problem as a sentence in the messages' language. */
export function describeProblem(p: Problem, t: Messages['questionBank']): string {
  const e = t.problems;
  const language = p.lang ? t.languages[p.lang] : '';
  const vars = { language, option: p.option ?? 0, max: 0, min: BANK_LIMITS.minOptions };
  switch (p.code) {
    case 'promptTooLong':
      return format(e.promptTooLong, { ...vars, max: BANK_LIMITS.prompt });
    case 'optionTooLong':
      return format(e.optionTooLong, { ...vars, max: BANK_LIMITS.option });
    case 'explanationTooLong':
      return format(e.explanationTooLong, { ...vars, max: BANK_LIMITS.explanation });
    case 'tooManyOptions':
      return format(e.tooManyOptions, { ...vars, max: BANK_LIMITS.maxOptions });
    case 'badCharacters':
      return format(p.option ? e.badCharactersOption : e.badCharacters, vars);
    default:
      return format(e[p.code], vars);
  }
}

/** The drafts' problems as sentences, one per line. */
export function describeProblems(problems: readonly Problem[], t: Messages['questionBank']): string {
  return problems.map((p) => describeProblem(p, t)).join(' ');
}

/* ───────────── the question form ───────────── */

/** A form's value as text (a file or a missing field is empty), line breaks made `\n`. */
function field(read: (name: string) => unknown, name: string): string {
  const v = read(name);
  return typeof v === 'string' ? v.replace(/\r\n?/g, '\n') : '';
}

/**
 * The question a form posts: `kind`, `promptEs`/`promptEn`, `explanationEs`/`explanationEn`, rows
 * `option{n}Es`/`option{n}En` (n = 1 … `maxOptions`) and `right` (one value per right row number).
 * A row left empty in both languages is no option; texts are trimmed.
 */
export function readQuestionForm(form: { get(name: string): unknown; getAll(name: string): unknown[] }): QuestionDraft {
  const read = (name: string) => form.get(name);
  const right = new Set(form.getAll('right').map((v) => (typeof v === 'string' ? v.trim() : '')));
  const options: OptionDraft[] = [];
  // One row past the limit is read, so a form with too many rows is refused instead of cut.
  for (let i = 1; i <= BANK_LIMITS.maxOptions + 1; i++) {
    const textEs = field(read, `option${i}Es`).trim();
    const textEn = field(read, `option${i}En`).trim();
    if (textEs === '' && textEn === '') continue;
    options.push({ textEs, textEn, correct: right.has(String(i)) });
  }
  return {
    kind: field(read, 'kind').trim(),
    promptEs: field(read, 'promptEs').trim(),
    promptEn: field(read, 'promptEn').trim(),
    explanationEs: field(read, 'explanationEs').trim(),
    explanationEn: field(read, 'explanationEn').trim(),
    options,
  };
}

/* ───────────── versions ───────────── */

/** A question as stored, for comparing versions. */
export type StoredQuestion = Pick<ExamQuestion, 'kind' | 'promptEs' | 'promptEn' | 'options'> & { explanationEs: string; explanationEn: string };

/** True when the draft says exactly what the stored question says (saving it would change nothing). */
export function sameQuestion(stored: StoredQuestion, draft: ValidDraft): boolean {
  return (
    stored.kind === draft.kind &&
    stored.promptEs === draft.promptEs &&
    stored.promptEn === draft.promptEn &&
    stored.explanationEs === draft.explanationEs &&
    stored.explanationEn === draft.explanationEn &&
    stored.options.length === draft.options.length &&
    stored.options.every((o, i) => o.textEs === draft.options[i]!.textEs && o.textEn === draft.options[i]!.textEn && o.correct === draft.options[i]!.correct)
  );
}

/** True when the draft's right options (by position) differ from the stored question's. */
export function draftChangesKey(stored: Pick<ExamQuestion, 'options'>, draft: QuestionDraft): boolean {
  return keyChanged(stored, draft);
}

/* ───────────── exam settings ───────────── */

const whole = (min: number, max: number) =>
  z.coerce.number({ error: 'invalidNumber' }).int('invalidNumber').min(min, 'tooSmall').max(max, 'tooBig');

/** The exam settings form (the questions drawn are checked against the bank's size by the server). */
export const settingsFormSchema = z.object({
  course: z.coerce.number({ error: 'invalidOption' }).int('invalidOption').positive('invalidOption').max(2_147_483_647, 'invalidOption'),
  attempts: whole(1, 20),
  questions: whole(1, 100),
  minutes: whole(1, 240),
  minimumScore: whole(0, 100),
  lang: z.enum(['es', 'en']).catch('es'),
});
export type SettingsForm = z.output<typeof settingsFormSchema>;

/**
 * The settings of a course's exam when its bank gets its first question (a course made in the back
 * office has no exam until then); the editor changes them on the bank's page.
 */
export const NEW_EXAM_SETTINGS = Object.freeze({ attempts: 3, questions: 10, minutes: 30, minimumScore: 70 });

/** The bounds of each setting, for the form's inputs and its sentences. */
export const SETTING_BOUNDS = { attempts: [1, 20], questions: [1, 100], minutes: [1, 240], minimumScore: [0, 100] } as const;
