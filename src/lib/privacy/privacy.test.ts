import { describe, expect, it } from 'vitest';
import { archiveEntries, ARCHIVE_TABLES, deletedEmail, deletionDue, exportExpiry, exportLinkState, isDeletedEmail, toCsv } from './privacy';

describe('privacy rules', () => {
  it('writes CSV that spreadsheets read safely', () => {
    expect(toCsv(['a', 'b'], [{ a: 'x,y', b: 'say "hi"' }, { a: '=SUM(A1)', b: null }])).toBe('a,b\r\n"x,y","say ""hi"""\r\n\'=SUM(A1),\r\n');
    expect(toCsv(['at'], [{ at: new Date(0) }])).toBe('at\r\n1970-01-01T00:00:00.000Z\r\n');
  });

  it('keeps links 7 days and deletions 14 days', () => {
    expect(exportExpiry(new Date(0)).getTime()).toBe(7 * 86_400_000);
    expect(deletionDue(new Date(0)).getTime()).toBe(14 * 86_400_000);
  });

  it('answers a link for its owner only, and says when it expired', () => {
    const now = new Date(10_000);
    const row = { userId: 1, readyAt: new Date(1), expiresAt: new Date(20_000) };
    expect(exportLinkState(row, 1, now)).toBe('ready');
    expect(exportLinkState(row, 2, now)).toBe('missing');
    expect(exportLinkState(null, 1, now)).toBe('missing');
    expect(exportLinkState({ ...row, expiresAt: new Date(10_000) }, 1, now)).toBe('expired');
    expect(exportLinkState({ ...row, readyAt: null, expiresAt: null }, 1, now)).toBe('pending');
  });

  it('names deleted accounts with addresses nobody can own', () => {
    expect(isDeletedEmail(deletedEmail('user', 7))).toBe(true);
    expect(isDeletedEmail('learner@academia.example')).toBe(false);
  });

  it('lays the archive out as README, JSON and CSV of each table, then PDFs', () => {
    const tables = Object.fromEntries(ARCHIVE_TABLES.map((t) => [t, []])) as never;
    const names = archiveEntries({ tables, certificatePdfs: [{ code: 'ACAD-1', pdf: new Uint8Array() }], receiptPdfs: [{ number: '000001', pdf: new Uint8Array() }] }, 'hi').map((f) => f.name);
    expect(names[0]).toBe('README.txt');
    expect(names).toContain('consents.csv');
    expect(names.slice(-2)).toEqual(['certificates/ACAD-1.pdf', 'receipts/000001.pdf']);
  });
});
