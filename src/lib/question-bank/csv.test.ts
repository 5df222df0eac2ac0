import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeUtf8, guardCell, parseCsv, unguardCell, writeCsv } from './csv';

const rows = (text: string) => {
  const r = parseCsv(text);
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.rows;
};

describe('parseCsv (RFC 4180)', () => {
  it('reads fields, quoted fields with commas, doubled quotes and line breaks', () => {
    expect(rows('a,b,c\r\n1,"x, y","say ""hi"""\r\n')).toEqual([
      ['a', 'b', 'c'],
      ['1', 'x, y', 'say "hi"'],
    ]);
    expect(rows('"line one\r\nline two",z\n')).toEqual([['line one\r\nline two', 'z']]);
  });

  it('takes LF, CR or CRLF between records, empty fields, and a last record without a line break', () => {
    expect(rows('a,,b\nc\rd\r\n,')).toEqual([['a', '', 'b'], ['c'], ['d'], ['', '']]);
    expect(rows('')).toEqual([]);
    expect(rows('\uFEFFkind\r\n')).toEqual([['kind']]);
    expect(rows('""')).toEqual([['']]);
  });

  it('says where a quote is never closed or stray', () => {
    expect(parseCsv('a\r\n"open,b\r\nc')).toEqual({ ok: false, error: { code: 'unclosedQuote', line: 2 } });
    expect(parseCsv('a\nb"c')).toEqual({ ok: false, error: { code: 'strayQuote', line: 2 } });
    expect(parseCsv('"a"b')).toEqual({ ok: false, error: { code: 'strayQuote', line: 1 } });
  });
});

describe('writeCsv', () => {
  it('quotes only what needs it, ends records with CRLF and starts with a BOM', () => {
    expect(writeCsv([['a', 'b,c', 'd"e', 'f\ng']])).toBe('\uFEFFa,"b,c","d""e","f\ng"\r\n');
    expect(writeCsv([['x']], false)).toBe('x\r\n');
  });

  it('guards cells a spreadsheet app would read as a formula', () => {
    for (const t of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) expect(guardCell(t)).toBe(`'${t}`);
    expect(guardCell("'=x")).toBe("''=x");
    expect(guardCell('1-2')).toBe('1-2');
    expect(guardCell("'quoted'")).toBe("'quoted'");
    expect(writeCsv([['=HYPERLINK("http://evil")']], false)).toBe(`"'=HYPERLINK(""http://evil"")"\r\n`);
  });

  it('reads back exactly what it wrote, for any texts', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.string({ unit: 'grapheme' }), { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 5 }), (table) => {
        // A record of one empty field is written as an empty line, which reads as a record of one empty field too.
        const back = rows(writeCsv(table)).map((r) => r.map(unguardCell));
        expect(back).toEqual(table);
      }),
      { seed: 20_261_127, numRuns: 300 },
    );
  });
});

describe('decodeUtf8', () => {
  it('reads UTF-8 and refuses anything else', () => {
    expect(decodeUtf8(new TextEncoder().encode('canción'))).toBe('canción');
    expect(decodeUtf8(new Uint8Array([0x63, 0x61, 0x6e, 0x63, 0x69, 0xf3, 0x6e]))).toBeNull();
  });
});
