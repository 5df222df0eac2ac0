/**
 * CSV as RFC 4180 writes it, pure: fields separated by commas, records by CRLF (a lone LF or CR is read
 * as one too), a field in double quotes may hold commas, quotes (doubled) and line breaks. Writing
 * quotes only what needs it and guards spreadsheet apps against formulas: a cell that would start with
 * `=`, `+`, `-`, `@`, a tab or a carriage return is written with a leading apostrophe, which reading
 * takes off again (so a file read back gives the same texts).
 */

/** Why a text is not CSV: a quoted field never closed, or a quote inside an unquoted field or after a closing quote. */
export type CsvError = { code: 'unclosedQuote' | 'strayQuote'; line: number };

/** The records of a CSV text (each a list of fields), or where it breaks. A BOM at the start is ignored. */
export function parseCsv(input: string): { ok: true; rows: string[][] } | { ok: false; error: CsvError } {
  const text = input.startsWith('\uFEFF') ? input.slice(1) : input;
  const rows: string[][] = [];
  let row: string[] = [];
  let fieldText = '';
  let line = 1;
  let i = 0;
  const n = text.length;
  // `atStart`: nothing of the current field read yet (a quote there opens a quoted field).
  let atStart = true;
  const endField = () => {
    row.push(fieldText);
    fieldText = '';
    atStart = true;
  };
  const endRow = () => {
    endField();
    rows.push(row);
    row = [];
  };
  while (i < n) {
    const c = text[i]!;
    if (atStart && c === '"') {
      // A quoted field: up to the quote not followed by another.
      const startLine = line;
      i++;
      for (;;) {
        if (i >= n) return { ok: false, error: { code: 'unclosedQuote', line: startLine } };
        const q = text[i]!;
        if (q === '"') {
          if (text[i + 1] === '"') {
            fieldText += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        if (q === '\n' || (q === '\r' && text[i + 1] !== '\n')) line++;
        fieldText += q;
        i++;
      }
      atStart = false;
      // After the closing quote: a comma, a line break or the end.
      const next = text[i];
      if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') return { ok: false, error: { code: 'strayQuote', line } };
      continue;
    }
    if (c === ',') {
      endField();
      i++;
    } else if (c === '\r' || c === '\n') {
      endRow();
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
      line++;
    } else if (c === '"') {
      return { ok: false, error: { code: 'strayQuote', line } };
    } else {
      fieldText += c;
      atStart = false;
      i++;
    }
  }
  // The last record (a text ending in a line break has none after it).
  if (!atStart || row.length > 0) endRow();
  return { ok: true, rows };
}

const FORMULA_START = /^[=+\-@\t\r]/;

/** True when a text, written as it is, would start a formula in a spreadsheet app (or look like an escaped one). */
function needsGuard(text: string): boolean {
  return FORMULA_START.test(text) || (text.startsWith("'") && needsGuard(text.slice(1)));
}

/** The cell for a text: with a leading apostrophe when a spreadsheet app would read a formula. */
export function guardCell(text: string): string {
  return needsGuard(text) ? `'${text}` : text;
}

/** The text of a cell written by `guardCell` (a leading apostrophe it added is taken off). */
export function unguardCell(cell: string): string {
  return cell.startsWith("'") && needsGuard(cell.slice(1)) ? cell.slice(1) : cell;
}

/** One field as CSV: guarded, and quoted when it holds a comma, a quote or a line break. */
function writeField(text: string): string {
  const cell = guardCell(text);
  return /[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

/** CSV text of `rows` (CRLF after every record), with a BOM first when asked (spreadsheet apps then read UTF-8). */
export function writeCsv(rows: readonly (readonly string[])[], bom = true): string {
  return (bom ? '\uFEFF' : '') + rows.map((r) => r.map(writeField).join(',') + '\r\n').join('');
}

/** The text of a file's bytes when they are UTF-8, else `null`. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return null;
  }
}
