/**
 * The support inbox on the seeded database: the list (newest first, filters, counts), every change
 * audited with its before and after, assignment to support staff only, a reply stored with its mail's
 * job in one transaction and mailed once (a double submit too), and a message deleted meanwhile: a
 * refusal with nothing written, or a reply that is never sent.
 */
import { and, count, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../db/testing';
import type { DbHandle } from '../db/client';
import * as s from '../db/schema';
import { auditOf } from '../privacy/audit.server';
import type { MailMessage } from '../mail/mail';
import { messageRef, replyJobKey, replyMessageId } from './support';
import { addNote, assignMessage, loadInbox, loadMessage, replyToMessage, setMessageStatus } from './support.server';
import { runReplyJob } from './reply-job.server';

const databases = await testDatabases();

describe.each(databases)('the support inbox ($name)', (database) => {
  let handle: DbHandle;
  let supportId: number;
  let editorId: number;
  let adminId: number;
  const sent: MailMessage[] = [];
  const deps = () => ({ db: handle.db, send: async (m: MailMessage) => (sent.push(m), { messageId: m.messageId ?? '' }) });
  const idOf = async (email: string) => (await handle.db.select({ id: s.users.id }).from(s.users).where(eq(s.users.email, email)))[0]!.id;
  const newMessage = async (fields: Partial<typeof s.contactMessages.$inferInsert> = {}) =>
    (
      await handle.db
        .insert(s.contactMessages)
        .values({ typeId: 8, name: 'Ana', lastName: 'Pérez', email: 'ana@example.com', countryPhoneCode: '+57', phone: '3001234567', description: 'Hola <script>alert(1)</script>', countryCode: 'CO', language: 'es', accepts: true, ...fields })
        .returning({ id: s.contactMessages.id })
    )[0]!.id;
  const entries = async (id: number) => handle.db.select().from(s.supportEntries).where(eq(s.supportEntries.messageId, id));
  const replyJobs = async () => (await handle.db.select({ n: count() }).from(s.jobs).where(like(s.jobs.key, 'support-reply:%')))[0]!.n;

  beforeAll(async () => {
    handle = await database.create({ seed: true });
    adminId = await idOf('admin@academia.example');
    editorId = await idOf('editor@academia.example');
    supportId = await idOf('learner@academia.example');
    await handle.db.insert(s.staffRoles).values({ userId: supportId, role: 'support' });
  });
  afterAll(async () => {
    await handle.close();
  });

  it('lists messages newest first, by type and status, with the count of each status', async () => {
    const older = await newMessage({ typeId: 3, createdAt: new Date(Date.now() - 60_000) });
    const newer = await newMessage({ typeId: 8 });
    await setMessageStatus(handle.db, adminId, older, 'closed');
    const all = await loadInbox(handle.db, { page: 1 }, 'en');
    expect(all.lines.map((l) => l.id).slice(0, 2)).toEqual([newer, older]);
    expect(all.counts.closed).toBeGreaterThanOrEqual(1);
    expect(all.total).toBe(Object.values(all.counts).reduce((a, b) => a + b, 0));
    const closedOfType3 = await loadInbox(handle.db, { page: 1, type: 3, status: 'closed' }, 'en');
    expect(closedOfType3.lines.map((l) => l.id)).toContain(older);
    expect(closedOfType3.lines.map((l) => l.id)).not.toContain(newer);
    expect(closedOfType3.lines.every((l) => l.status === 'closed')).toBe(true);
  });

  it('changes a status with its audit record; an unknown message writes nothing', async () => {
    const id = await newMessage();
    expect(await setMessageStatus(handle.db, supportId, id, 'in_progress')).toEqual({ status: 'ok' });
    const [event] = await auditOf(handle.db, messageRef(id), 'support.status');
    expect(event).toMatchObject({ actor: `user:${supportId}`, before: { status: 'new' }, after: { status: 'in_progress' } });
    expect(await setMessageStatus(handle.db, supportId, 2_000_000_000, 'closed')).toEqual({ status: 'unknown' });
    expect(await auditOf(handle.db, messageRef(2_000_000_000))).toEqual([]);
  });

  it('assigns to support staff and administrators only, audited', async () => {
    const id = await newMessage();
    expect(await assignMessage(handle.db, adminId, id, supportId)).toMatchObject({ status: 'ok', assignee: { id: supportId, name: 'Laura Méndez' } });
    expect(await assignMessage(handle.db, adminId, id, editorId)).toEqual({ status: 'notAssignable' });
    expect((await loadMessage(handle.db, id, 'es'))!.message.assigneeId).toBe(supportId);
    expect(await assignMessage(handle.db, adminId, id, null)).toEqual({ status: 'ok', assignee: null });
    const events = await auditOf(handle.db, messageRef(id), 'support.assign');
    expect(events.map((e) => [e.before, e.after])).toEqual([
      [{ assignee: null }, { assignee: `user:${supportId}` }],
      [{ assignee: `user:${supportId}` }, { assignee: null }],
    ]);
  });

  it('keeps notes in the thread with who wrote them', async () => {
    const id = await newMessage();
    expect(await addNote(handle.db, supportId, id, 'Llamar el lunes')).toMatchObject({ status: 'ok' });
    const page = (await loadMessage(handle.db, id, 'es'))!;
    expect(page.entries).toMatchObject([{ kind: 'note', body: 'Llamar el lunes', author: 'Laura Méndez', sentAt: null }]);
    expect(await auditOf(handle.db, messageRef(id), 'support.note')).toHaveLength(1);
  });

  it('stores a reply with its job, marks the message answered, and mails it once in the sender language', async () => {
    const id = await newMessage({ language: 'en', email: 'reply.once@example.com' });
    const key = 'form-key-0123456789';
    const first = await replyToMessage(handle.db, supportId, id, 'It is fixed now.', key);
    const again = await replyToMessage(handle.db, supportId, id, 'It is fixed now.', key);
    expect(first).toMatchObject({ status: 'ok', repeated: false });
    expect(again).toEqual({ ...first, repeated: true });
    expect(await entries(id)).toHaveLength(1);
    const [job] = await handle.db.select().from(s.jobs).where(eq(s.jobs.key, replyJobKey((first as { entryId: number }).entryId)));
    expect(job).toBeDefined();
    expect((await loadMessage(handle.db, id, 'es'))!.message.status).toBe('answered');
    expect(await auditOf(handle.db, messageRef(id), 'support.reply')).toHaveLength(1);

    const entryId = (first as { entryId: number }).entryId;
    await runReplyJob(deps(), { entryId });
    await runReplyJob(deps(), { entryId });
    const ours = sent.filter((m) => m.to === 'reply.once@example.com');
    expect(ours).toHaveLength(1);
    expect(ours[0]).toMatchObject({ subject: 'A reply to your message to the Academy', messageId: replyMessageId(entryId) });
    expect(ours[0]!.text).toContain('It is fixed now.');
    const [entry] = await entries(id);
    expect(entry!.sentAt).not.toBeNull();
    expect(await auditOf(handle.db, messageRef(id), 'support.reply.sent')).toHaveLength(1);
  });

  it('refuses a reply, a note, a status or an assignment for a message deleted meanwhile, writing nothing', async () => {
    const id = await newMessage({ email: 'gone@example.com' });
    await handle.db.delete(s.contactMessages).where(eq(s.contactMessages.id, id));
    const jobsBefore = await replyJobs();
    expect(await replyToMessage(handle.db, supportId, id, 'Hola', 'form-key-deleted-0001')).toEqual({ status: 'unknown' });
    expect(await addNote(handle.db, supportId, id, 'Nota')).toEqual({ status: 'unknown' });
    expect(await assignMessage(handle.db, supportId, id, supportId)).toEqual({ status: 'unknown' });
    expect(await entries(id)).toEqual([]);
    expect(await replyJobs()).toBe(jobsBefore);
    expect(await auditOf(handle.db, messageRef(id))).toEqual([]);
    expect(await loadMessage(handle.db, id, 'es')).toBeNull();
  });

  it('never mails a reply whose message was deleted before its job ran', async () => {
    const id = await newMessage({ email: 'deleted.before.send@example.com' });
    const outcome = await replyToMessage(handle.db, supportId, id, 'Hola', 'form-key-deleted-0002');
    await handle.db.delete(s.contactMessages).where(and(eq(s.contactMessages.id, id)));
    await runReplyJob(deps(), { entryId: (outcome as { entryId: number }).entryId });
    expect(sent.filter((m) => m.to === 'deleted.before.send@example.com')).toEqual([]);
    expect(await entries(id)).toEqual([]);
  });
});
