/**
 * "My data", pure rules: how long an archive's link and a deletion's grace period last, the job keys,
 * the archive's layout (JSON and CSV of each part, one PDF per certificate and receipt) and CSV writing.
 */

/** An archive's link works this many days after it is mailed. */
export const EXPORT_LINK_DAYS = 7;
/** A requested deletion happens this many days later; logging in before then cancels it. */
export const DELETION_GRACE_DAYS = 14;
const DAY_MS = 86_400_000;

/** The job that builds archive `exportId`. */
export const EXPORT_JOB = 'data-export';
/** The job that deletes an account when its grace period ends. */
export const DELETION_JOB = 'account-deletion';
export const exportJobKey = (exportId: number) => `${EXPORT_JOB}:${exportId}`;
export const deletionJobKey = (userId: number) => `${DELETION_JOB}:${userId}`;

/** When a link mailed at `at` stops working. */
export const exportExpiry = (at: Date) => new Date(at.getTime() + EXPORT_LINK_DAYS * DAY_MS);
/** When a deletion asked for at `at` happens. */
export const deletionDue = (at: Date) => new Date(at.getTime() + DELETION_GRACE_DAYS * DAY_MS);

/** What the download link finds. */
export type ExportLinkState = 'missing' | 'pending' | 'expired' | 'ready';

/** The state of an archive for the person asking: someone else's is `missing`, like no archive at all. */
export function exportLinkState(row: { userId: number; readyAt: Date | null; expiresAt: Date | null } | null, userId: number, now: Date): ExportLinkState {
  if (!row || row.userId !== userId) return 'missing';
  if (!row.readyAt || !row.expiresAt) return 'pending';
  return row.expiresAt.getTime() <= now.getTime() ? 'expired' : 'ready';
}

/** The anonymous e-mail of a deleted account (kept unique, never deliverable: `.invalid`). */
export const deletedEmail = (kind: 'user' | 'contact', id: number) => `deleted-${kind}-${id}@deleted.invalid`;
/** True for an account a deletion already anonymized. */
export const isDeletedEmail = (email: string) => /^deleted-(user|contact)-\d+@deleted\.invalid$/.test(email);

/** One value as a CSV field (RFC 4180): quoted when it holds a comma, quote or line break; a leading =+-@ is neutralised for spreadsheets. */
function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = value instanceof Date ? value.toISOString() : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows as CSV with a header of `columns` (CRLF line ends, as RFC 4180 and spreadsheets expect). */
export function toCsv<R extends Record<string, unknown>>(columns: readonly (keyof R & string)[], rows: readonly R[]): string {
  const lines = [columns.join(','), ...rows.map((r) => columns.map((c) => csvField(r[c])).join(','))];
  return `${lines.join('\r\n')}\r\n`;
}

/** The tables of an archive: each becomes `<name>.json` and `<name>.csv`. */
export const ARCHIVE_TABLES = ['profile', 'lesson-progress', 'exam-attempts', 'certificates', 'orders', 'order-items', 'prospects', 'consents'] as const;
export type ArchiveTable = (typeof ARCHIVE_TABLES)[number];

/** What goes in an archive: the rows of each table, and the PDFs. */
export interface ArchiveContent {
  tables: Record<ArchiveTable, Record<string, unknown>[]>;
  certificatePdfs: { code: string; pdf: Uint8Array }[];
  receiptPdfs: { number: string; pdf: Uint8Array }[];
}

/** The columns of each table's CSV: every key its rows have, in first-seen order. */
function columnsOf(rows: readonly Record<string, unknown>[]): string[] {
  const seen = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r)) seen.add(k);
  return [...seen];
}

/** The files of an archive, in order: a README, then each table as JSON and CSV, then the PDFs. */
export function archiveEntries(content: ArchiveContent, readme: string): { name: string; content: string | Uint8Array }[] {
  const files: { name: string; content: string | Uint8Array }[] = [{ name: 'README.txt', content: readme }];
  for (const table of ARCHIVE_TABLES) {
    const rows = content.tables[table];
    files.push({ name: `${table}.json`, content: `${JSON.stringify(rows, null, 2)}\n` });
    files.push({ name: `${table}.csv`, content: toCsv(columnsOf(rows), rows) });
  }
  for (const c of content.certificatePdfs) files.push({ name: `certificates/${c.code}.pdf`, content: c.pdf });
  for (const r of content.receiptPdfs) files.push({ name: `receipts/${r.number}.pdf`, content: r.pdf });
  return files;
}
