export * from './question-bank';
export { bankToCsv, readBankCsv, CSV_COLUMNS, MAX_CSV_BYTES, type CsvImport, type FileProblem, type RowProblem } from './bank-csv';
export { parseCsv, writeCsv, guardCell, unguardCell, decodeUtf8, type CsvError } from './csv';
