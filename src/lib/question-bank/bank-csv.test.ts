import { describe, expect, it } from 'vitest';
import { bankToCsv, CSV_COLUMNS, MAX_CSV_BYTES, readBankCsv } from './bank-csv';
import type { QuestionDraft } from './question-bank';

const bank: QuestionDraft[] = [
  {
    kind: 'single',
    promptEs: '¿Qué es "overbooking"?',
    promptEn: 'What is "overbooking"?',
    explanationEs: 'Vender más plazas,\nde las que hay.',
    explanationEn: 'Selling more seats,\nthan there are.',
    options: [
      { textEs: '=Vender de más', textEn: '=Selling too many', correct: true },
      { textEs: 'Un descuento', textEn: 'A discount', correct: false },
      { textEs: '-10 %', textEn: '@agency', correct: false },
    ],
  },
  { kind: 'true-false', promptEs: 'El IVA es un impuesto.', promptEn: 'VAT is a tax.', explanationEs: '', explanationEn: '', options: [{ textEs: 'Verdadero', textEn: 'True', correct: true }, { textEs: 'Falso', textEn: 'False', correct: false }] },
];
const bytes = (text: string) => new TextEncoder().encode(text);
const header = 'kind,prompt_es,prompt_en,option1_es,option1_en,option1_right,option2_es,option2_en,option2_right';

describe('the bank as CSV', () => {
  it('exports with a BOM, every column, guarded formulas, and imports back the same questions', () => {
    const csv = bankToCsv(bank);
    expect(csv.startsWith('\uFEFFkind,prompt_es,prompt_en,option1_es,')).toBe(true);
    expect(csv.split('\r\n')[0]!.replace('\uFEFF', '').split(',')).toEqual(CSV_COLUMNS);
    expect(csv).toContain(`'=Vender de más`);
    expect(csv).toContain(`'-10 %`);
    expect(csv).not.toMatch(/,=|,@|,-/);
    expect(readBankCsv(bytes(csv))).toEqual({ ok: true, questions: bank });
  });

  it('takes columns in any order, fewer option columns, and right markers in words', () => {
    const text = `prompt_en,kind,prompt_es,option1_es,option1_en,option1_right,option2_es,option2_en,option2_right\r\n"Yes, or no?",True-False,¿Sí o no?,Sí,Yes,SÍ,No,No,no\r\n`;
    expect(readBankCsv(bytes(text))).toEqual({
      ok: true,
      questions: [{ kind: 'true-false', promptEs: '¿Sí o no?', promptEn: 'Yes, or no?', explanationEs: '', explanationEn: '', options: [{ textEs: 'Sí', textEn: 'Yes', correct: true }, { textEs: 'No', textEn: 'No', correct: false }] }],
    });
  });

  it('checks every row and answers all that are wrong (rows numbered as a spreadsheet shows them)', () => {
    const text = [header, 'single,¿Uno?,One?,A,A,x,B,B,', 'single,¿Dos?,,A,A,,B,B,', '', 'multiple,¿Tres?,Three?,A,A,x,B,B,x', 'single,¿Cuatro?,Four?,A,A,maybe,B,B,'].join('\n');
    const read = readBankCsv(bytes(text));
    expect(read).toEqual({
      ok: false,
      rows: [
        { row: 3, problems: [{ field: 'promptEn', code: 'promptMissing', lang: 'en' }, { field: 'right', code: 'oneRight' }] },
        { row: 5, problems: [{ field: 'right', code: 'rightAndWrong' }] },
        { row: 6, problems: [{ field: 'option1Right', code: 'rightMarker', option: 1 }, { field: 'right', code: 'oneRight' }] },
      ],
    });
  });

  it('refuses files that are not a bank: too large, not UTF-8, broken quotes, unknown or missing columns, no rows', () => {
    expect(readBankCsv(new Uint8Array(MAX_CSV_BYTES + 1))).toEqual({ ok: false, file: { code: 'tooLarge' } });
    expect(readBankCsv(new Uint8Array([0x6b, 0x69, 0x6e, 0x64, 0x0a, 0xe9]))).toEqual({ ok: false, file: { code: 'notUtf8' } });
    expect(readBankCsv(bytes(`${header}\nsingle,"open`))).toEqual({ ok: false, file: { code: 'unclosedQuote', line: 2 } });
    expect(readBankCsv(bytes(`${header},points\nsingle,a,a,a,a,x,b,b,,1`))).toEqual({ ok: false, file: { code: 'unknownColumn', column: 'points' } });
    expect(readBankCsv(bytes(`kind,prompt_es\nsingle,a`))).toEqual({ ok: false, file: { code: 'missingColumn', column: 'prompt_en' } });
    expect(readBankCsv(bytes(`kind,kind,prompt_es,prompt_en\nsingle,single,a,a`))).toEqual({ ok: false, file: { code: 'duplicateColumn', column: 'kind' } });
    expect(readBankCsv(bytes(`${header}\r\n`))).toEqual({ ok: false, file: { code: 'empty' } });
    expect(readBankCsv(bytes(`${header}\nsingle,a,a,a,a,x,b,b,,extra`))).toEqual({ ok: false, file: { code: 'rowWidth', row: 2 } });
  });
});
