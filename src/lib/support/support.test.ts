/** The support inbox's pure rules: filters read from a query, pages, counts, previews, the forms' schemas and the reply mail. */
import { describe, expect, it } from 'vitest';
import { messages } from '~/i18n';
import { ACTION_RULES } from '~/actions/access';
import { accessRefusalStatus, accessVerdict, type Caller } from '~/lib/access/policy';
import { areasFor } from '~/lib/staff/staff';
import {
  ENTRY_MAX_LENGTH,
  INBOX_PAGE_SIZE,
  assignFormSchema,
  countsByStatus,
  inboxQuery,
  noteFormSchema,
  pageOf,
  preview,
  readInboxFilter,
  replyFormSchema,
  replyLocale,
  replyMail,
  replyMessageId,
  statusFormSchema,
} from './support';

const KEY = 'k3y-0f-the-form_12345';
const codes = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) => r.error?.issues.map((i) => `${String(i.path[0])}:${i.message}`);

describe('the inbox filters', () => {
  it('reads type, status and page, ignoring whatever is malformed', () => {
    expect(readInboxFilter(new URLSearchParams('type=3&status=in_progress&page=2'))).toEqual({ type: 3, status: 'in_progress', page: 2 });
    expect(readInboxFilter(new URLSearchParams('type=x&status=<script>&page=-4'))).toEqual({ page: 1 });
    expect(readInboxFilter(new URLSearchParams('type=&status='))).toEqual({ page: 1 });
    expect(readInboxFilter(new URLSearchParams('type=99999999999999'))).toEqual({ page: 1 });
  });

  it('writes a filter back as a query, the first page without its number', () => {
    expect(inboxQuery({ type: 3, status: 'new' }, 1)).toBe('?type=3&status=new');
    expect(inboxQuery({}, 3)).toBe('?page=3');
    expect(inboxQuery({})).toBe('');
  });

  it('keeps the page asked within the pages there are', () => {
    expect(pageOf(0, 5)).toEqual({ page: 1, pages: 1 });
    expect(pageOf(INBOX_PAGE_SIZE + 1, 9)).toEqual({ page: 2, pages: 2 });
  });

  it('counts every status, zero when none', () => {
    expect(countsByStatus([{ status: 'answered', n: 2 }, { status: 'bogus', n: 9 }])).toEqual({ new: 0, in_progress: 0, answered: 2, closed: 0 });
  });

  it('previews a message on one short line with control characters shown as replacements', () => {
    expect(preview('Hola\n\n  mundo\u0000!')).toBe('Hola mundo\ufffd!');
    expect(preview('a'.repeat(500))).toHaveLength(120);
  });
});

describe('the forms', () => {
  it('accept a status of the list only', () => {
    expect(statusFormSchema.safeParse({ id: '4', status: 'closed', lang: 'en' }).data).toEqual({ id: 4, status: 'closed', lang: 'en' });
    expect(codes(statusFormSchema.safeParse({ id: '4', status: 'deleted' }))).toEqual(['status:invalidOption']);
    expect(codes(statusFormSchema.safeParse({ id: '0', status: 'new' }))).toEqual(['id:invalidOption']);
  });

  it('read an empty assignee as nobody', () => {
    expect(assignFormSchema.safeParse({ id: '4', assignee: '' }).data?.assignee).toBeNull();
    expect(assignFormSchema.safeParse({ id: '4', assignee: null }).data?.assignee).toBeNull();
    expect(assignFormSchema.safeParse({ id: '4', assignee: '7' }).data?.assignee).toBe(7);
    expect(assignFormSchema.safeParse({ id: '4', assignee: 'x' }).success).toBe(false);
    expect(assignFormSchema.safeParse({ id: '4', assignee: '0' }).success).toBe(false);
    expect(assignFormSchema.safeParse({ id: '4', assignee: '99999999999' }).success).toBe(false);
  });

  it('refuse an empty, NUL-holding or too long note or reply', () => {
    expect(codes(noteFormSchema.safeParse({ id: '1', body: '   ' }))).toEqual(['body:required']);
    expect(codes(noteFormSchema.safeParse({ id: '1', body: 'a\u0000b' }))).toEqual(['body:invalidCharacters']);
    expect(codes(noteFormSchema.safeParse({ id: '1', body: 'x'.repeat(100 * 1024) }))).toEqual(['body:tooLong']);
    expect(noteFormSchema.safeParse({ id: '1', body: `${'x'.repeat(ENTRY_MAX_LENGTH)}` }).success).toBe(true);
    expect(noteFormSchema.safeParse({ id: '1', body: 'línea 1\n\tlínea 2' }).data?.body).toBe('línea 1\n\tlínea 2');
  });

  it('ask a reply for its form key', () => {
    expect(replyFormSchema.safeParse({ id: '1', body: 'Gracias', key: KEY }).success).toBe(true);
    expect(codes(replyFormSchema.safeParse({ id: '1', body: 'Gracias' }))).toEqual(['key:invalidOption']);
    expect(codes(replyFormSchema.safeParse({ id: '1', body: 'Gracias', key: 'short' }))).toEqual(['key:invalidOption']);
  });
});

describe('the reply mail', () => {
  it('is in the sender language where known, the default otherwise', () => {
    expect(replyLocale('en')).toBe('en');
    expect(replyLocale('fr')).toBe('es');
  });

  it('says the reply and quotes the original, as plain text with a Message-ID of its own', () => {
    const mail = replyMail({ entryId: 12, to: 'ana@example.com', name: 'Ana\u202e', body: 'Ya está resuelto.', original: 'Línea <script>1</script>\nLínea\u0000 2', sentOn: '27 November 2026' }, messages('en').support.mail);
    expect(mail).toMatchObject({ to: 'ana@example.com', subject: messages('en').support.mail.subject, messageId: replyMessageId(12) });
    expect(mail.html).toBeUndefined();
    expect(mail.text).toContain('Hello Ana,');
    expect(mail.text).toContain('Ya está resuelto.');
    expect(mail.text).toContain('> Línea <script>1</script>\n> Línea\ufffd 2');
    expect(mail.text).toContain('27 November 2026');
  });
});

describe('who may use the inbox', () => {
  const user = (...roles: Caller['roles']): Caller => ({ session: 'user', roles });
  const callers: [string, Caller, 'allowed' | 401 | 403][] = [
    ['support', user('support'), 'allowed'],
    ['an administrator', user('administrator'), 'allowed'],
    ['an editor', user('editor'), 403],
    ['finance', user('finance'), 403],
    ['a learner', user(), 403],
    ['an IBO session', { session: 'ibo', roles: [] }, 401],
    ['a visitor', { session: 'visitor', roles: [] }, 401],
  ];
  const names = Object.keys(ACTION_RULES).filter((n) => n.startsWith('support.'));

  it('declares every action of the inbox for support, limited per account', () => {
    expect(names.sort()).toEqual(['support.assign', 'support.note', 'support.reply', 'support.setStatus']);
    for (const n of names) expect(ACTION_RULES[n as keyof typeof ACTION_RULES]).toMatchObject({ access: 'support', limits: [{ name: 'supportChangesPerAccount', per: 'user' }] });
  });

  it.each(callers)('answers %s as the policy says, and shows the area to those it lets in', (_, caller, expected) => {
    for (const n of names) {
      const verdict = accessVerdict(ACTION_RULES[n as keyof typeof ACTION_RULES].access, caller);
      expect(verdict === 'allowed' ? 'allowed' : accessRefusalStatus(verdict), n).toBe(expected);
    }
    expect(areasFor(caller).some((a) => a.key === 'support')).toBe(expected === 'allowed');
  });
});
