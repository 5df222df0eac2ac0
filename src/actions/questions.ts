/**
 * The question banks' actions (editors; administrators hold every staff role): exam settings, adding,
 * editing and retiring questions, importing a CSV file, and regrading attempts after a key was fixed.
 * Thin calls into `lib/question-bank`. Every refusal is a sentence in the page's language with a 4xx;
 * a refused question names its field (`fields`), and is kept for the page to show again. Access,
 * limits and language are declared in `access.ts`; every change is in the audit trail.
 */
import { ActionError } from 'astro:actions';
import { action, type Kit } from './kit';
import { format, plural } from '~/i18n';
import type { Messages } from '~/i18n/types';
import { z } from '~/lib/zod';
import { BANK_LIMITS, MAX_CSV_BYTES, describeProblem, questionProblems, readBankCsv, readQuestionForm, settingsFormSchema, SETTING_BOUNDS, type FileProblem, type Problem, type RowProblem, type ValidDraft } from '~/lib/question-bank';
import { addQuestion, editQuestion, importQuestions, retireQuestion, saveSettings } from '~/lib/question-bank/bank.server';
import { regradeCourse } from '~/lib/question-bank/regrade.server';

const rowId = z.coerce.number().int().positive().max(2_147_483_647);

/** A 400 with a sentence, naming the field it is about (`fields`, as an input error's, beside the sentence). */
function refused(message: string, field?: string, code: 'BAD_REQUEST' | 'CONTENT_TOO_LARGE' = 'BAD_REQUEST'): ActionError {
  const error = new ActionError({ code, message });
  return field ? Object.assign(error, { fields: { [field]: [message] } }) : error;
}

const notFound = (t: Messages) => new ActionError({ code: 'NOT_FOUND', message: t.questionBank.bank.courseNotFound });
const questionNotFound = (t: Messages) => new ActionError({ code: 'NOT_FOUND', message: t.questionBank.bank.notFound });
const full = (t: Messages) => new ActionError({ code: 'CONFLICT', message: format(t.questionBank.bank.bankFull, { max: BANK_LIMITS.questions }) });

/** A number field of a posted form (`course`, `question`), or a 404 in words (a forged or missing id names nothing). */
function idOf(form: FormData, name: string, t: Messages): number {
  const parsed = rowId.safeParse(form.get(name));
  if (!parsed.success) throw name === 'course' ? notFound(t) : questionNotFound(t);
  return parsed.data;
}

/** The question a form posts, or a 400 naming its first problem's field (every problem in the sentence). */
function draftOf(form: FormData, kit: Kit<'editor'>): ValidDraft {
  const draft = readQuestionForm(form);
  const problems = questionProblems(draft);
  if (problems.length === 0) return draft as ValidDraft;
  kit.ctx.locals.questionDraft = draft;
  const t = kit.t.questionBank;
  throw refused(problems.map((p: Problem) => describeProblem(p, t)).join(' '), problems[0]!.field);
}

/** A file's problem as a sentence. */
function fileSentence(p: FileProblem, t: Messages['questionBank']): string {
  const c = t.csv;
  switch (p.code) {
    case 'tooManyRows':
      return format(c.tooManyRows, { max: BANK_LIMITS.questions });
    case 'unclosedQuote':
    case 'strayQuote':
      return format(c[p.code], { line: p.line });
    case 'unknownColumn':
    case 'duplicateColumn':
    case 'missingColumn':
      return format(c[p.code], { column: p.column });
    case 'rowWidth':
      return format(c.rowWidth, { row: p.row });
    default:
      return c[p.code];
  }
}

/** A row's problem as a sentence. */
function rowSentence(p: RowProblem, t: Messages['questionBank']): string {
  return p.code === 'rightMarker' ? format(t.problems.rightMarker, { option: p.option }) : describeProblem(p, t);
}

/** Rows described in a refusal (a file of 500 broken rows says the first ones). */
const ROWS_TOLD = 20;

export const questions = {
  /** Saves a course's exam settings: attempts, questions drawn (never more than the bank holds), minutes, minimum score. */
  saveSettings: action('questions.saveSettings', {
    accept: 'form',
    handler: async (form: FormData, { person, runtime, t, locale }) => {
      const courseId = idOf(form, 'course', t);
      const b = t.questionBank.bank;
      const parsed = settingsFormSchema.safeParse({ ...Object.fromEntries([...form].filter(([, v]) => typeof v === 'string')), course: courseId });
      if (!parsed.success) {
        const field = String(parsed.error.issues[0]?.path[0] ?? 'attempts') as keyof typeof SETTING_BOUNDS;
        const [min, max] = SETTING_BOUNDS[field] ?? SETTING_BOUNDS.attempts;
        throw refused(format(b.settingRange, { field: b[field] ?? field, min, max }), field);
      }
      const outcome = await saveSettings(runtime.db, person.userId, parsed.data);
      if (outcome.status === 'not-found') throw notFound(t);
      if (outcome.status === 'tooMany') throw refused(plural(locale, b.moreThanBank, outcome.size), 'questions');
      return { message: b.settingsSaved, changed: outcome.changed };
    },
  }),

  /** Adds a question to a course's bank. */
  add: action('questions.add', {
    accept: 'form',
    handler: async (form: FormData, kit) => {
      const { person, runtime, t } = kit;
      const courseId = idOf(form, 'course', t);
      const draft = draftOf(form, kit);
      const outcome = await addQuestion(runtime.db, person.userId, courseId, draft);
      if (outcome.status === 'not-found') throw notFound(t);
      if (outcome.status === 'full') throw full(t);
      return { message: t.questionBank.bank.added, id: outcome.id, changed: outcome.changed };
    },
  }),

  /**
   * Edits a question: in place when no attempt drew it, else as a new version (the attempts that drew
   * it keep theirs). `regradable`: graded attempts a regrade would now score again (a key was changed).
   */
  edit: action('questions.edit', {
    accept: 'form',
    handler: async (form: FormData, kit) => {
      const { person, runtime, t } = kit;
      const courseId = idOf(form, 'course', t);
      const questionId = idOf(form, 'question', t);
      const draft = draftOf(form, kit);
      const outcome = await editQuestion(runtime.db, person.userId, courseId, questionId, draft);
      if (outcome.status === 'not-found') throw questionNotFound(t);
      const b = t.questionBank.bank;
      const message = outcome.mode === 'unchanged' ? b.unchanged : outcome.mode === 'version' ? b.savedVersion : b.saved;
      return { message, id: outcome.id, mode: outcome.mode, keyChanged: outcome.keyChanged, regradable: outcome.regradable, changed: outcome.changed };
    },
  }),

  /** Takes a question out of the pool (kept for the attempts that drew it). */
  retire: action('questions.retire', {
    accept: 'form',
    handler: async (form: FormData, { person, runtime, t }) => {
      const course = idOf(form, 'course', t);
      const question = idOf(form, 'question', t);
      const outcome = await retireQuestion(runtime.db, person.userId, course, question);
      if (outcome.status === 'not-found') throw questionNotFound(t);
      return { message: t.questionBank.bank.retired, changed: outcome.changed };
    },
  }),

  /**
   * Imports a CSV file (the layout in `lib/question-bank/bank-csv.ts`): every row checked first; any
   * wrong row refuses the whole file (400, naming the rows and why), and nothing is written.
   */
  importCsv: action('questions.importCsv', {
    accept: 'form',
    handler: async (form: FormData, { person, runtime, t, locale }) => {
      const courseId = idOf(form, 'course', t);
      const q = t.questionBank;
      const file = form.get('file');
      if (!(file instanceof File) || file.size === 0) throw refused(q.csv.noFile, 'file');
      if (file.size > MAX_CSV_BYTES) throw refused(q.csv.tooLarge, 'file', 'CONTENT_TOO_LARGE');
      const read = readBankCsv(new Uint8Array(await file.arrayBuffer()));
      if (!read.ok) {
        if ('file' in read) throw refused(fileSentence(read.file, q), 'file');
        const lines = read.rows.slice(0, ROWS_TOLD).map((r) => `${format(q.csv.row, { row: r.row })} ${r.problems.map((p) => rowSentence(p, q)).join(' ')}`);
        throw refused([q.csv.refused, ...lines, ...(read.rows.length > ROWS_TOLD ? ['…'] : [])].join('\n'), 'file');
      }
      const outcome = await importQuestions(runtime.db, person.userId, courseId, read.questions, form.get('mode') === 'replace');
      if (outcome.status === 'not-found') throw notFound(t);
      if (outcome.status === 'full') throw full(t);
      return { message: plural(locale, q.csv.imported, outcome.count), count: outcome.count, changed: outcome.changed };
    },
  }),

  /** Scores again the graded attempts that used a question's old key; pass or fail and certificates follow. Idempotent. */
  regrade: action('questions.regrade', {
    accept: 'form',
    handler: async (form: FormData, { person, runtime, t }) => {
      const course = idOf(form, 'course', t);
      const outcome = await regradeCourse(runtime.db, person.userId, course);
      if (outcome.status === 'not-found') throw notFound(t);
      const b = t.questionBank.bank;
      const message =
        outcome.attempts === 0 ? b.nothingToRegrade : format(b.regraded, { attempts: outcome.attempts, changed: outcome.changedScores, passed: outcome.nowPassing, failed: outcome.noLongerPassing });
      const { status: _status, ...counts } = outcome;
      return { message, ...counts };
    },
  }),
};
