import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DbHandle } from '~/lib/db';
import { contactMessages, contactUsTypes } from '~/lib/db/schema';
import { contactUsTypes as seedTypes } from '~/lib/db/seed/catalogue';
import { testDatabases } from '~/lib/db/testing';
import { createMailer, type Mailer } from '~/lib/mail';
import { contactInputSchema, contactTypeExists, listContactTypes, submitContactMessage } from './contact.server';

const databases = await testDatabases();

const form = {
  name: 'Ana',
  lastName: 'Pérez',
  email: 'ana@example.com',
  countryCode: 'CO',
  countryPhoneCode: '+57',
  phone: '3001234567',
  type: '3',
  message: 'Quiero ser IBO. ¿Cómo empiezo?',
  accepts: 'on',
  language: 'en',
};

describe.each(databases)('contact messages on $name', ({ create }) => {
  let handle: DbHandle;
  let dir: string;
  let outbox: Mailer;
  const outboxDir = () => join(dir, 'outbox');
  const stored = async () => (await handle.db.select({ n: count() }).from(contactMessages))[0]!.n;
  const mails = async () => (await readdir(outboxDir()).catch(() => [] as string[])).filter((f) => f.endsWith('.eml')).sort();
  const delivery = () => ({ to: 'staff@example.com', send: (m: Parameters<Mailer['send']>[0]) => outbox.send(m) });

  beforeAll(async () => {
    handle = await create();
    await handle.db
      .insert(contactUsTypes)
      .values(seedTypes.map((t) => ({ id: t.id, descriptionEs: t.description.es, descriptionEn: t.description.en })));
  });
  afterAll(async () => {
    await handle?.close();
  });
  beforeEach(async () => {
    await handle.db.delete(contactMessages);
    dir = await mkdtemp(join(tmpdir(), 'academy-contact-'));
    outbox = createMailer({ smtpUrl: null, from: 'Academia <no-reply@example.com>', outboxDir: outboxDir(), timeoutMs: 2000 });
    return () => rm(dir, { recursive: true, force: true });
  });

  it('lists the message types in the page language, type 8 first', async () => {
    const es = await listContactTypes(handle.db, 'es');
    const en = await listContactTypes(handle.db, 'en');
    expect(es[0]).toEqual({ id: 8, name: 'Información sobre cursos' });
    expect(en[0]).toEqual({ id: 8, name: 'Course information' });
    expect(en.map((t) => t.id)).toEqual([8, 1, 2, 3, 4]);
    expect(await contactTypeExists(handle.db, 8)).toBe(true);
    expect(await contactTypeExists(handle.db, 999)).toBe(false);
  });

  it('stores a valid message with all its columns and leaves its notification in the outbox', async () => {
    const before = Date.now();
    const outcome = await submitContactMessage(handle.db, form, delivery());
    expect(outcome).toEqual({ status: 'sent', id: expect.any(Number) });
    const rows = await handle.db.select().from(contactMessages);
    expect(rows).toHaveLength(1);
    const { createdAt, ...row } = rows[0]!;
    expect(row).toEqual({
      id: (outcome as { id: number }).id,
      typeId: 3,
      name: 'Ana',
      lastName: 'Pérez',
      email: 'ana@example.com',
      countryPhoneCode: '+57',
      phone: '3001234567',
      description: 'Quiero ser IBO. ¿Cómo empiezo?',
      countryCode: 'CO',
      language: 'en',
      accepts: true,
      // A new message waits in the support inbox, assigned to nobody.
      status: 'new',
      assigneeId: null,
    });
    expect(createdAt.getTime()).toBeGreaterThan(before - 60_000);

    const files = await mails();
    expect(files).toHaveLength(1);
    const eml = await readFile(join(outboxDir(), files[0]!), 'utf8');
    expect(eml).toMatch(/^To: staff@example\.com$/m);
    expect(eml).toMatch(/^Reply-To: =\?UTF-8\?.*<ana@example\.com>$/m);
    // The staff notification is in Spanish, whatever the visitor's language.
    const body = eml.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    const text = Buffer.from(body, 'latin1').toString('utf8');
    for (const part of [`#${row.id}`, 'Quiero ser IBO', '+57 3001234567', 'Colombia (CO)', 'Idioma: Inglés']) expect(text, part).toContain(part);
  });

  it('stores nothing and sends nothing for invalid input, answering the error of each field', async () => {
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{}, { name: 'required', lastName: 'required', email: 'required', phone: 'required', message: 'required', accepts: 'mustAcceptPrivacy' }],
      [{ ...form, email: 'ana@' }, { email: 'invalidEmail' }],
      [{ ...form, phone: '300123456' }, { phone: 'phoneLength' }],
      [{ ...form, phone: '30012345678' }, { phone: 'phoneLength' }],
      [{ ...form, phone: '300123456a' }, { phone: 'phoneDigits' }],
      [{ ...form, accepts: undefined }, { accepts: 'mustAcceptPrivacy' }],
      [{ ...form, name: 'x'.repeat(33) }, { name: 'tooLong' }],
      [{ ...form, message: 'x'.repeat(2001) }, { message: 'tooLong' }],
    ];
    for (const [input, errors] of cases) {
      const outcome = await submitContactMessage(handle.db, input, delivery());
      expect(outcome.status, JSON.stringify(input).slice(0, 80)).toBe('invalid');
      expect(outcome.status === 'invalid' && outcome.errors).toMatchObject(errors);
    }
    expect(await stored()).toBe(0);
    expect(await mails()).toEqual([]);
  });

  it('refuses forged values: a type that does not exist, an id out of range, a country not offered', async () => {
    for (const [patch, field] of [
      [{ type: '999' }, 'type'],
      [{ type: '2147483648' }, 'type'],
      [{ type: '1; drop table contact_messages' }, 'type'],
      [{ countryCode: 'ZZ' }, 'countryCode'],
      [{ countryPhoneCode: '+0' }, 'countryPhoneCode'],
    ] as const) {
      const outcome = await submitContactMessage(handle.db, { ...form, ...patch }, delivery());
      expect(outcome, JSON.stringify(patch)).toEqual({ status: 'invalid', errors: { [field]: 'invalidOption' } });
    }
    expect(await stored()).toBe(0);
    expect(await mails()).toEqual([]);
  });

  it('ignores fields the form does not have', async () => {
    const outcome = await submitContactMessage(handle.db, { ...form, id: 1, typeId: 1, createdAt: '2000-01-01', accepts: 'on' }, delivery());
    expect(outcome.status).toBe('sent');
    const [row] = await handle.db.select().from(contactMessages);
    expect(row!.typeId).toBe(3);
    expect(row!.createdAt.getFullYear()).toBeGreaterThan(2000);
  });

  it('checks the type against the database in the action schema too', async () => {
    const schema = contactInputSchema(async () => handle.db);
    expect((await schema.safeParseAsync(form)).success).toBe(true);
    const forged = await schema.safeParseAsync({ ...form, type: '77' });
    expect(forged.success).toBe(false);
    expect(forged.error!.issues).toEqual([expect.objectContaining({ path: ['type'], message: 'invalidOption' })]);
  });

  it('answers mail-failed when the transport fails, keeping the message stored exactly once', async () => {
    const broken = createMailer({ smtpUrl: 'smtp://127.0.0.1:1', from: 'a@example.com', outboxDir: outboxDir(), timeoutMs: 2000 });
    const failed = await submitContactMessage(handle.db, form, { to: 'staff@example.com', send: (m) => broken.send(m) });
    broken.close();
    expect(failed).toEqual({ status: 'mail-failed', id: expect.any(Number), reason: expect.any(String) });
    expect(await stored()).toBe(1);
    expect(await mails()).toEqual([]);

    // The visitor was told 'Error sending message' and sends again: the notification goes out and
    // the message is not stored a second time.
    const retried = await submitContactMessage(handle.db, form, delivery());
    expect(retried).toEqual({ status: 'sent', id: (failed as { id: number }).id });
    expect(await stored()).toBe(1);
    expect(await mails()).toHaveLength(1);
  });

  it('answers mail-failed when a sender throws, whatever the error', async () => {
    const outcome = await submitContactMessage(handle.db, form, {
      to: 'staff@example.com',
      send: () => Promise.reject(new Error('421 try later')),
    });
    expect(outcome).toMatchObject({ status: 'mail-failed', reason: '421 try later' });
  });

  it('stores a different message, or the same one after the duplicate window, as a new message', async () => {
    const first = await submitContactMessage(handle.db, form, delivery());
    const other = await submitContactMessage(handle.db, { ...form, message: 'Otra pregunta' }, delivery());
    expect(other.status === 'sent' && first.status === 'sent' && other.id !== first.id).toBe(true);
    await handle.db
      .update(contactMessages)
      .set({ createdAt: sql`now() - interval '11 minutes'` })
      .where(eq(contactMessages.id, (first as { id: number }).id));
    const again = await submitContactMessage(handle.db, form, delivery());
    expect(again.status === 'sent' && again.id !== (first as { id: number }).id).toBe(true);
    expect(await stored()).toBe(3);
    expect(await mails()).toHaveLength(3);
  });
});
