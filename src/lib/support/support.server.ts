/**
 * The support inbox's reads and writes. Every change locks its message, writes its audit record in the
 * same transaction and answers `unknown` (nothing written) for a message that no longer exists (deleted
 * with its sender's account, for instance). A reply is stored in the thread with its mail's job in one
 * transaction; the job mails it once (`reply-job.server.ts`).
 */
import { and, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Locale } from '~/i18n';
import type { Db, Tx } from '../db/client';
import { contactMessages, contactUsTypes, jobs, staffRoles, supportEntries, users, type ContactMessage } from '../db/schema';
import { displayName } from '../forms/characters';
import { recordAudit, userRef } from '../privacy/audit.server';
import { ASSIGNABLE_ROLES, INBOX_PAGE_SIZE, REPLY_JOB, countsByStatus, messageRef, pageOf, preview, replyJobKey, replyLocale, type InboxFilter, type SupportStatus } from './support';

/** A staff person as the inbox shows them. */
export interface StaffPerson {
  id: number;
  name: string;
}

/** One line of the inbox. */
export interface InboxLine {
  id: number;
  createdAt: Date;
  sender: string;
  typeName: string;
  status: SupportStatus;
  assignee: string | null;
  preview: string;
}

/** A page of the inbox. */
export interface InboxPage {
  lines: InboxLine[];
  counts: Record<SupportStatus, number>;
  total: number;
  page: number;
  pages: number;
  types: { id: number; name: string }[];
}

const fullName = (u: { firstName: string; lastName: string }) => displayName(`${u.firstName} ${u.lastName}`.trim());
const typeName = (locale: Locale) => (locale === 'en' ? contactUsTypes.descriptionEn : contactUsTypes.descriptionEs);

/** The messages `filter` selects, newest first, with the counts per status (of the type filtered, if any). */
export async function loadInbox(db: Db, filter: InboxFilter, locale: Locale): Promise<InboxPage> {
  const byType = filter.type === undefined ? undefined : eq(contactMessages.typeId, filter.type);
  const conditions: SQL[] = [];
  if (byType) conditions.push(byType);
  if (filter.status) conditions.push(eq(contactMessages.status, filter.status));
  const where = conditions.length ? and(...conditions) : undefined;
  const [statusRows, types] = await Promise.all([
    db.select({ status: contactMessages.status, n: count() }).from(contactMessages).where(byType).groupBy(contactMessages.status),
    db.select({ id: contactUsTypes.id, name: typeName(locale) }).from(contactUsTypes).orderBy(contactUsTypes.id),
  ]);
  const counts = countsByStatus(statusRows);
  const total = filter.status ? counts[filter.status] : Object.values(counts).reduce((a, b) => a + b, 0);
  const { page, pages } = pageOf(total, filter.page);
  const rows = await db
    .select({ m: contactMessages, typeName: typeName(locale), assigneeFirst: users.firstName, assigneeLast: users.lastName })
    .from(contactMessages)
    .innerJoin(contactUsTypes, eq(contactUsTypes.id, contactMessages.typeId))
    .leftJoin(users, eq(users.id, contactMessages.assigneeId))
    .where(where)
    .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
    .limit(INBOX_PAGE_SIZE)
    .offset((page - 1) * INBOX_PAGE_SIZE);
  const lines = rows.map((r) => ({
    id: r.m.id,
    createdAt: r.m.createdAt,
    sender: displayName(`${r.m.name} ${r.m.lastName}`.trim()),
    typeName: r.typeName,
    status: r.m.status,
    assignee: r.m.assigneeId === null ? null : fullName({ firstName: r.assigneeFirst ?? '', lastName: r.assigneeLast ?? '' }),
    preview: preview(r.m.description),
  }));
  return { lines, counts, total, page, pages, types };
}

/** The people a message may be assigned to: accounts holding the support or administrator role, by name. */
export async function assignableStaff(db: Db | Tx): Promise<StaffPerson[]> {
  const rows = await db
    .selectDistinct({ id: users.id, firstName: users.firstName, lastName: users.lastName })
    .from(staffRoles)
    .innerJoin(users, eq(users.id, staffRoles.userId))
    .where(inArray(staffRoles.role, [...ASSIGNABLE_ROLES]));
  return rows.map((u) => ({ id: u.id, name: fullName(u) || `#${u.id}` })).sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

/** One entry of a message's thread. */
export interface ThreadEntry {
  id: number;
  kind: 'note' | 'reply';
  body: string;
  author: string | null;
  createdAt: Date;
  sentAt: Date | null;
}

/** A message's page: the message, its reason, its assignee, its thread (oldest first) and who it may go to. */
export interface MessagePage {
  message: ContactMessage;
  typeName: string;
  replyLocale: Locale;
  entries: ThreadEntry[];
  staff: StaffPerson[];
}

/** A message's page, or null when there is no such message. */
export async function loadMessage(db: Db, id: number, locale: Locale): Promise<MessagePage | null> {
  const [row] = await db
    .select({ m: contactMessages, typeName: typeName(locale) })
    .from(contactMessages)
    .innerJoin(contactUsTypes, eq(contactUsTypes.id, contactMessages.typeId))
    .where(eq(contactMessages.id, id));
  if (!row) return null;
  const [entries, staff] = await Promise.all([
    db
      .select({ e: supportEntries, firstName: users.firstName, lastName: users.lastName })
      .from(supportEntries)
      .leftJoin(users, eq(users.id, supportEntries.authorId))
      .where(eq(supportEntries.messageId, id))
      .orderBy(supportEntries.createdAt, supportEntries.id),
    assignableStaff(db),
  ]);
  return {
    message: row.m,
    typeName: row.typeName,
    replyLocale: replyLocale(row.m.language),
    entries: entries.map((r) => ({ id: r.e.id, kind: r.e.kind, body: r.e.body, author: r.firstName === null ? null : fullName({ firstName: r.firstName, lastName: r.lastName ?? '' }), createdAt: r.e.createdAt, sentAt: r.e.sentAt })),
    staff,
  };
}

/** The message locked for this transaction's change, or undefined when it no longer exists. */
async function lockMessage(tx: Tx, id: number) {
  const [m] = await tx.select({ id: contactMessages.id, status: contactMessages.status, assigneeId: contactMessages.assigneeId }).from(contactMessages).where(eq(contactMessages.id, id)).for('update');
  return m;
}

export type ChangeOutcome = { status: 'ok' } | { status: 'unknown' };

/** Sets a message's status. */
export async function setMessageStatus(db: Db, actorId: number, id: number, status: SupportStatus): Promise<ChangeOutcome> {
  return db.transaction(async (tx) => {
    const m = await lockMessage(tx, id);
    if (!m) return { status: 'unknown' } as const;
    if (m.status === status) return { status: 'ok' } as const;
    await tx.update(contactMessages).set({ status }).where(eq(contactMessages.id, id));
    await recordAudit(tx, { action: 'support.status', actor: userRef(actorId), subject: messageRef(id), before: { status: m.status }, after: { status } });
    return { status: 'ok' } as const;
  });
}

export type AssignOutcome = { status: 'ok'; assignee: StaffPerson | null } | { status: 'unknown' } | { status: 'notAssignable' };

/** Assigns a message to a person holding the support or administrator role (`null`: to nobody). */
export async function assignMessage(db: Db, actorId: number, id: number, assigneeId: number | null): Promise<AssignOutcome> {
  return db.transaction(async (tx) => {
    const m = await lockMessage(tx, id);
    if (!m) return { status: 'unknown' } as const;
    let assignee: StaffPerson | null = null;
    if (assigneeId !== null) {
      assignee = (await assignableStaff(tx)).find((p) => p.id === assigneeId) ?? null;
      if (!assignee) return { status: 'notAssignable' } as const;
    }
    if (m.assigneeId !== assigneeId) {
      await tx.update(contactMessages).set({ assigneeId }).where(eq(contactMessages.id, id));
      await recordAudit(tx, { action: 'support.assign', actor: userRef(actorId), subject: messageRef(id), before: { assignee: m.assigneeId === null ? null : userRef(m.assigneeId) }, after: { assignee: assigneeId === null ? null : userRef(assigneeId) } });
    }
    return { status: 'ok', assignee } as const;
  });
}

export type EntryOutcome = { status: 'ok'; entryId: number; repeated: boolean } | { status: 'unknown' };

/** Adds an internal note to a message's thread. */
export async function addNote(db: Db, actorId: number, id: number, body: string): Promise<EntryOutcome> {
  return db.transaction(async (tx) => {
    const m = await lockMessage(tx, id);
    if (!m) return { status: 'unknown' } as const;
    const [entry] = await tx.insert(supportEntries).values({ messageId: id, kind: 'note', authorId: actorId, body }).returning({ id: supportEntries.id });
    await recordAudit(tx, { action: 'support.note', actor: userRef(actorId), subject: messageRef(id), after: { entry: entry!.id } });
    return { status: 'ok', entryId: entry!.id, repeated: false } as const;
  });
}

/**
 * Stores a reply in the thread, marks the message answered and enqueues its mail, all in one
 * transaction. The same form's key twice (a double submit) answers the first reply: one entry, one mail.
 */
export async function replyToMessage(db: Db, actorId: number, id: number, body: string, key: string, now = new Date()): Promise<EntryOutcome> {
  return db.transaction(async (tx) => {
    const m = await lockMessage(tx, id);
    if (!m) return { status: 'unknown' } as const;
    const [earlier] = await tx.select({ id: supportEntries.id }).from(supportEntries).where(and(eq(supportEntries.messageId, id), eq(supportEntries.requestKey, key)));
    if (earlier) return { status: 'ok', entryId: earlier.id, repeated: true } as const;
    const [language] = await tx.select({ language: contactMessages.language }).from(contactMessages).where(eq(contactMessages.id, id));
    const [entry] = await tx
      .insert(supportEntries)
      .values({ messageId: id, kind: 'reply', authorId: actorId, body, locale: replyLocale(language!.language), requestKey: key, createdAt: now })
      .returning({ id: supportEntries.id });
    const entryId = entry!.id;
    await tx.insert(jobs).values({ name: REPLY_JOB, key: replyJobKey(entryId), payload: { entryId }, runAt: now });
    if (m.status !== 'answered') await tx.update(contactMessages).set({ status: 'answered' }).where(eq(contactMessages.id, id));
    await recordAudit(tx, { action: 'support.reply', actor: userRef(actorId), subject: messageRef(id), before: { status: m.status }, after: { status: 'answered', entry: entryId } });
    return { status: 'ok', entryId, repeated: false } as const;
  });
}

/** Counts of the thread's entries by kind (for tests and the page's headings). */
export async function threadCounts(db: Db, id: number): Promise<{ notes: number; replies: number }> {
  const rows = await db.select({ kind: supportEntries.kind, n: count() }).from(supportEntries).where(eq(supportEntries.messageId, id)).groupBy(supportEntries.kind);
  return { notes: rows.find((r) => r.kind === 'note')?.n ?? 0, replies: rows.find((r) => r.kind === 'reply')?.n ?? 0 };
}

/** Used by the reply job: a reply and what its mail needs, or undefined when it (or its message) is gone. */
export async function replyToSend(db: Db, entryId: number) {
  const [row] = await db
    .select({ e: supportEntries, m: contactMessages })
    .from(supportEntries)
    .innerJoin(contactMessages, eq(contactMessages.id, supportEntries.messageId))
    .where(and(eq(supportEntries.id, entryId), eq(supportEntries.kind, 'reply')));
  return row;
}

/** Marks a reply sent (once) with its audit record; false when it already was. */
export async function markReplySent(db: Db, entryId: number, messageId: number, at: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const marked = await tx.update(supportEntries).set({ sentAt: at }).where(and(eq(supportEntries.id, entryId), sql`${supportEntries.sentAt} is null`)).returning({ id: supportEntries.id });
    if (marked.length > 0) await recordAudit(tx, { action: 'support.reply.sent', actor: 'job', subject: messageRef(messageId), after: { entry: entryId } });
    return marked.length > 0;
  });
}
