/**
 * A course's question bank as a CSV file, pure. The layout (one header row, then one question per row):
 *
 * | column | holds |
 * |---|---|
 * | `kind` | `single`, `multiple` or `true-false` |
 * | `prompt_es`, `prompt_en` | the question in Spanish and English |
 * | `option{n}_es`, `option{n}_en`, `option{n}_right` | option n (1 … 8): its texts, and `x` when it is right (empty when not) |
 * | `explanation_es`, `explanation_en` | shown after grading (both or neither) |
 *
 * Columns may come in any order; option columns past the ones a file uses, and the explanations, may be
 * left out. A right marker may also be `1`, `yes`, `sí`, `true` (right) or `0`, `no`, `false` (not).
 * Reading checks every row before anything is written: the import takes all rows or none.
 */
import { BANK_LIMITS, questionProblems, type OptionDraft, type Problem, type QuestionDraft, type ValidDraft } from './question-bank';
import { decodeUtf8, parseCsv, unguardCell, writeCsv } from './csv';

/** The largest file an import reads (bytes). */
export const MAX_CSV_BYTES = 1024 * 1024;

/** The columns of the layout, in the order an export writes them. */
export const CSV_COLUMNS: readonly string[] = [
  'kind',
  'prompt_es',
  'prompt_en',
  ...Array.from({ length: BANK_LIMITS.maxOptions }, (_, i) => [`option${i + 1}_es`, `option${i + 1}_en`, `option${i + 1}_right`]).flat(),
  'explanation_es',
  'explanation_en',
];
const REQUIRED = ['kind', 'prompt_es', 'prompt_en'];

const RIGHT = new Set(['x', '1', 'yes', 'sí', 'si', 'true', 'verdadero', 'right', 'correct', 'correcta']);
const WRONG = new Set(['', '0', 'no', 'false', 'falso']);

/** The CSV of a bank's questions (with a BOM, for spreadsheet apps). */
export function bankToCsv(questions: readonly QuestionDraft[]): string {
  const rows = questions.map((q) => {
    const cells: Record<string, string> = { kind: q.kind, prompt_es: q.promptEs, prompt_en: q.promptEn, explanation_es: q.explanationEs, explanation_en: q.explanationEn };
    q.options.forEach((o, i) => {
      cells[`option${i + 1}_es`] = o.textEs;
      cells[`option${i + 1}_en`] = o.textEn;
      cells[`option${i + 1}_right`] = o.correct ? 'x' : '';
    });
    return CSV_COLUMNS.map((c) => cells[c] ?? '');
  });
  return writeCsv([CSV_COLUMNS, ...rows]);
}

/** What is wrong with a file as a whole. */
export type FileProblem =
  | { code: 'empty' | 'tooLarge' | 'notUtf8' | 'tooManyRows' }
  | { code: 'unclosedQuote' | 'strayQuote'; line: number }
  | { code: 'unknownColumn' | 'duplicateColumn' | 'missingColumn'; column: string }
  | { code: 'rowWidth'; row: number };

/** A row's problem: a question's (field names are the form's: `promptEn`, `option2Es`, `right` …) or a right marker that reads neither way. */
export type RowProblem = Problem | { field: string; code: 'rightMarker'; option: number };

/** What an import read: the questions, or every problem (of the file, or row by row; row 1 is the header). */
export type CsvImport = { ok: true; questions: ValidDraft[] } | { ok: false; file: FileProblem } | { ok: false; rows: { row: number; problems: RowProblem[] }[] };

/** Reads an uploaded file's bytes as a bank (see the layout above). */
export function readBankCsv(bytes: Uint8Array): CsvImport {
  if (bytes.byteLength > MAX_CSV_BYTES) return { ok: false, file: { code: 'tooLarge' } };
  const text = decodeUtf8(bytes);
  if (text === null) return { ok: false, file: { code: 'notUtf8' } };
  const parsed = parseCsv(text);
  if (!parsed.ok) return { ok: false, file: parsed.error };
  const [header, ...body] = parsed.rows.filter((r) => r.some((cell) => cell.trim() !== ''));
  if (!header || body.length === 0) return { ok: false, file: { code: 'empty' } };
  if (body.length > BANK_LIMITS.questions) return { ok: false, file: { code: 'tooManyRows' } };
  const columns = header.map((h) => h.trim().toLowerCase().replace(/^\uFEFF/, ''));
  const known = new Set(CSV_COLUMNS);
  const seen = new Set<string>();
  for (const c of columns) {
    if (!known.has(c)) return { ok: false, file: { code: 'unknownColumn', column: c.slice(0, 40) } };
    if (seen.has(c)) return { ok: false, file: { code: 'duplicateColumn', column: c } };
    seen.add(c);
  }
  const missing = REQUIRED.find((c) => !seen.has(c));
  if (missing) return { ok: false, file: { code: 'missingColumn', column: missing } };
  // Rows are numbered as a spreadsheet shows them: the header is row 1 (blank rows are skipped, not renumbered).
  const numbered = parsed.rows.map((cells, i) => ({ cells, row: i + 1 })).filter((r) => r.cells.some((cell) => cell.trim() !== '')).slice(1);
  const questions: ValidDraft[] = [];
  const problems: { row: number; problems: RowProblem[] }[] = [];
  for (const { cells, row } of numbered) {
    if (cells.length > columns.length) return { ok: false, file: { code: 'rowWidth', row } };
    const cell = (name: string) => {
      const i = columns.indexOf(name);
      return i < 0 ? '' : unguardCell(cells[i] ?? '').replace(/\r\n?/g, '\n').trim();
    };
    const rowProblems: RowProblem[] = [];
    const options: OptionDraft[] = [];
    for (let n = 1; n <= BANK_LIMITS.maxOptions; n++) {
      const textEs = cell(`option${n}_es`);
      const textEn = cell(`option${n}_en`);
      const marker = cell(`option${n}_right`).toLowerCase();
      if (textEs === '' && textEn === '' && marker === '') continue;
      if (!RIGHT.has(marker) && !WRONG.has(marker)) rowProblems.push({ field: `option${n}Right`, code: 'rightMarker', option: n });
      options.push({ textEs, textEn, correct: RIGHT.has(marker) });
    }
    const draft: QuestionDraft = { kind: cell('kind').toLowerCase(), promptEs: cell('prompt_es'), promptEn: cell('prompt_en'), explanationEs: cell('explanation_es'), explanationEn: cell('explanation_en'), options };
    rowProblems.push(...questionProblems(draft));
    if (rowProblems.length > 0) problems.push({ row, problems: rowProblems });
    else questions.push(draft as ValidDraft);
  }
  return problems.length > 0 ? { ok: false, rows: problems } : { ok: true, questions };
}
