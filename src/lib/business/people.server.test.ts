/**
 * An IBO's people on the seeded database: who is listed (the consent rule as built: prospects the IBO
 * registered unless they said no, people who came through its link only if they said yes, nobody of
 * another IBO), the filters and their counts, the search, each person's courses and exam results, and
 * the nudge: stored once per form, refused for someone not the IBO's, too soon, opted out or over the
 * day's allowance, mailed by its job in the person's language with a stop link that works.
 */
import { and, eq, gte, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../db/testing';
import type { DbHandle } from '../db/client';
import * as s from '../db/schema';
import type { MailMessage } from '../mail/mail';
import { ExportLinks } from '../privacy/links.server';
import { makeIbos } from '../testing/ibos';
import { iboPeople } from './people.server';
import { NUDGE_JOB, NUDGE_STOP_PURPOSE, nudgePerson, runNudgeJob, stopNudges } from './nudge.server';
import { ibosSeeing } from './live.server';
import { NUDGES_PER_DAY, type PeopleQuery } from './people';

const databases = await testDatabases();
const NOW = new Date('2033-05-20T12:00:00Z');
const daysAgo = (n: number) => new Date(NOW.getTime() - n * 86_400_000);
const ALL: PeopleQuery = { show: 'all', page: 1, q: '' };
const links = ExportLinks.fromSecret('people test');

describe.each(databases)("an IBO's people ($name)", (database) => {
  let handle: DbHandle;
  let mine: number;
  let other: number;
  const contact: Record<string, number> = {};

  beforeAll(async () => {
    handle = await database.create({ seed: true });
    const db = handle.db;
    const made = await makeIbos(db, [{ code: 'PEOPLE01' }, { code: 'PEOPLE02' }]);
    [mine, other] = [made.PEOPLE01!, made.PEOPLE02!];
    const person = async (key: string, p: { iboId?: number; account?: { referredBy?: number; sharing?: boolean | null; locale?: 'es' | 'en' } }) => {
      const user = p.account
        ? (
            await db
              .insert(s.users)
              .values({ email: `${key}@example.com`, firstName: key, lastName: 'Persona', referredByIboId: p.account.referredBy ?? null, iboSharing: p.account.sharing ?? null, locale: p.account.locale ?? null })
              .returning({ id: s.users.id })
          )[0]!.id
        : null;
      const [c] = await db
        .insert(s.contacts)
        .values({ firstName: key, lastName: 'Persona', email: `${key}@example.com`, iboId: p.iboId ?? null, userId: user, createdAt: daysAgo(30) })
        .returning({ id: s.contacts.id });
      contact[key] = c!.id;
      return { contactId: c!.id, userId: user };
    };
    await person('ana', { iboId: mine });
    const bruno = await person('bruno', { iboId: mine, account: { locale: 'en' } });
    await person('carla', { iboId: mine, account: { sharing: false } });
    await person('diego', { account: { referredBy: mine } });
    const elena = await person('elena', { account: { referredBy: mine, sharing: true } });
    await person('fabio', { iboId: other });
    // Course 2's lessons: Ana began it and stopped 10 days ago; Bruno finished it and passed its exam; Elena is learning it today.
    const lessons = (
      await db.select({ id: s.subtopics.id }).from(s.subtopics).innerJoin(s.topics, eq(s.topics.id, s.subtopics.topicId)).where(eq(s.topics.courseId, 2)).orderBy(s.subtopics.id)
    ).map((r) => r.id);
    const track = (contactId: number, subtopicId: number, at: Date, done: boolean) => ({ contactId, courseId: 2, subtopicId, createdAt: at, updatedAt: at, completedAt: done ? at : null });
    await db.insert(s.tracking).values([
      track(contact.ana!, lessons[0]!, daysAgo(10), true),
      track(contact.ana!, lessons[1]!, daysAgo(10), false),
      ...lessons.map((l) => track(bruno.contactId, l, daysAgo(3), true)),
      track(elena.contactId, lessons[0]!, daysAgo(0), false),
    ]);
    const [evaluation] = await db.select({ id: s.evaluations.id }).from(s.evaluations).where(eq(s.evaluations.courseId, 2));
    await db.insert(s.examAttempts).values([
      { evaluationId: evaluation!.id, contactId: bruno.contactId, attemptNumber: 1, questionIds: [], startedAt: daysAgo(3), deadlineAt: daysAgo(3), submittedAt: daysAgo(3), score: 60, passed: false },
      { evaluationId: evaluation!.id, contactId: bruno.contactId, attemptNumber: 2, questionIds: [], startedAt: daysAgo(2), deadlineAt: daysAgo(2), submittedAt: daysAgo(2), score: 90, passed: true },
    ]);
    // Elena bought through the IBO's link.
    const [o] = await db.insert(s.orders).values({ userId: elena.userId!, idempotencyKey: 'people-1', status: 'pending', subtotalCents: 1_000, discountCents: 0, totalCents: 1_000, referringIboId: mine }).returning({ id: s.orders.id });
    await db.insert(s.orderItems).values({ orderId: o!.id, productKind: 'book', productId: 1, productCode: 'B1', titleEs: 'Libro', titleEn: 'Book', priceCents: 1_000 });
    await db.update(s.orders).set({ status: 'paid', paidAt: daysAgo(1) }).where(eq(s.orders.id, o!.id));
  });
  afterAll(async () => {
    await handle.close();
  });

  const names = async (query: Partial<PeopleQuery>, ibo = mine) => (await iboPeople(handle.db, ibo, { ...ALL, ...query }, NOW)).lines.map((l) => l.firstName);

  it('lists the prospects the IBO registered (unless they said no) and the link sign-ups that said yes, most recently active first', async () => {
    expect(await names({})).toEqual(['elena', 'bruno', 'ana']);
    expect(await names({}, other)).toEqual(['fabio']);
    const page = await iboPeople(handle.db, mine, ALL, NOW);
    expect(page.total).toBe(3);
    expect(page.lines.map((l) => [l.firstName, l.relation, l.hasAccount])).toEqual([
      ['elena', 'signedUp', true],
      ['bruno', 'registered', true],
      ['ana', 'registered', false],
    ]);
  });

  it("counts each filter and filters: stuck for 7 days, finished, passed, bought", async () => {
    const page = await iboPeople(handle.db, mine, ALL, NOW);
    expect(page.counts).toEqual({ all: 3, stuck: 1, finished: 1, passed: 1, bought: 1 });
    expect(await names({ show: 'stuck' })).toEqual(['ana']);
    expect(await names({ show: 'finished' })).toEqual(['bruno']);
    expect(await names({ show: 'passed' })).toEqual(['bruno']);
    expect(await names({ show: 'bought' })).toEqual(['elena']);
  });

  it("shows each person's courses, progress, last activity and exam results", async () => {
    const { lines } = await iboPeople(handle.db, mine, ALL, NOW);
    const bruno = lines.find((l) => l.firstName === 'bruno')!;
    expect(bruno.lastActive).toBe('2033-05-18');
    expect(bruno.standings).toHaveLength(1);
    expect(bruno.standings[0]).toMatchObject({ courseId: 2, bestScore: 90, attempts: 2 });
    expect(bruno.standings[0]!.lessonsDone).toBe(bruno.standings[0]!.lessons);
    expect(bruno.standings[0]!.passedAt).not.toBeNull();
    const ana = lines.find((l) => l.firstName === 'ana')!;
    expect(ana).toMatchObject({ stuck: true, lastActive: '2033-05-10', courses: 1, finished: 0 });
    expect(ana.standings[0]).toMatchObject({ lessonsDone: 1, bestScore: null, attempts: 0 });
  });

  it('searches names and addresses (wildcards taken literally), and pages past the end are empty', async () => {
    expect(await names({ q: 'BRU' })).toEqual(['bruno']);
    expect(await names({ q: 'elena@example' })).toEqual(['elena']);
    expect(await names({ q: '%' })).toEqual([]);
    expect(await names({ q: "' or 1=1 --" })).toEqual([]);
    const far = await iboPeople(handle.db, mine, { ...ALL, page: 99 }, NOW);
    expect(far).toMatchObject({ lines: [], total: 3 });
  });

  it('follows a change of mind at once: a person who stops sharing leaves the list, one who allows it joins', async () => {
    await handle.db.update(s.users).set({ iboSharing: true }).where(eq(s.users.email, 'diego@example.com'));
    await handle.db.update(s.users).set({ iboSharing: false }).where(eq(s.users.email, 'bruno@example.com'));
    try {
      expect(await names({})).toEqual(['elena', 'ana', 'diego']);
      expect(await ibosSeeing(handle.db, contact.bruno!)).toEqual([]);
      expect(await ibosSeeing(handle.db, contact.diego!)).toEqual([mine]);
    } finally {
      await handle.db.update(s.users).set({ iboSharing: null }).where(sql`${s.users.email} in ('diego@example.com', 'bruno@example.com')`);
    }
    expect(await ibosSeeing(handle.db, contact.bruno!)).toEqual([mine]);
    expect(await ibosSeeing(handle.db, contact.fabio!)).toEqual([other]);
    expect(await ibosSeeing(handle.db, contact.carla!)).toEqual([]);
  });

  describe('nudges', () => {
    const nudge = (contactId: number, key: string, at = NOW, ibo = mine) => nudgePerson(handle.db, { iboId: ibo, contactId, key, locale: 'es', origin: 'https://academia.example', now: at });
    const key = (n: number) => `nudge-key-${String(n).padStart(8, '0')}`;

    it("stores one nudge per form and its job; refuses another IBO's person, a hidden one, a second within the week", async () => {
      const first = await nudge(contact.bruno!, key(1));
      expect(first).toMatchObject({ status: 'ok', repeated: false, firstName: 'bruno' });
      expect(await nudge(contact.bruno!, key(1))).toMatchObject({ status: 'ok', repeated: true });
      expect(await nudge(contact.bruno!, key(2), new Date(NOW.getTime() + 6 * 86_400_000))).toEqual({ status: 'refused', reason: 'recent' });
      expect(await nudge(contact.fabio!, key(3))).toEqual({ status: 'refused', reason: 'notYours' });
      expect(await nudge(contact.carla!, key(4))).toEqual({ status: 'refused', reason: 'notYours' });
      expect(await nudge(contact.diego!, key(5))).toEqual({ status: 'refused', reason: 'notYours' });
      expect(await nudge(999_999, key(6))).toEqual({ status: 'refused', reason: 'notYours' });
      // A form's key used for someone else is not a nudge of them.
      expect(await nudge(contact.ana!, key(1))).toEqual({ status: 'refused', reason: 'recent' });
      const stored = await handle.db.select().from(s.nudges).where(eq(s.nudges.iboId, mine));
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatchObject({ contactId: contact.bruno, locale: 'en', sentAt: null });
      const jobs = await handle.db.select().from(s.jobs).where(and(eq(s.jobs.name, NUDGE_JOB), eq(s.jobs.key, `nudge:${stored[0]!.id}`)));
      expect(jobs).toHaveLength(1);
      // A week later, Bruno may be nudged again.
      expect(await nudge(contact.bruno!, key(7), new Date(NOW.getTime() + 7 * 86_400_000))).toMatchObject({ status: 'ok', repeated: false });
    });

    it('mails the person in their language with a stop link; after it, no more nudges go', async () => {
      const sent: MailMessage[] = [];
      const deps = { db: handle.db, send: async (m: MailMessage) => (sent.push(m), { messageId: m.messageId ?? '' }), stopToken: (id: number) => links.sign(NUDGE_STOP_PURPOSE, id) };
      const [row] = await handle.db.select().from(s.nudges).where(eq(s.nudges.contactId, contact.bruno!)).orderBy(s.nudges.id).limit(1);
      await runNudgeJob(deps, { nudgeId: row!.id, origin: 'https://academia.example' });
      await runNudgeJob(deps, { nudgeId: row!.id, origin: 'https://academia.example' });
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({ to: 'bruno@example.com', subject: 'PEOPLE01 S.A. encourages you to keep learning', messageId: `<nudge-${row!.id}@academy>` });
      const stop = /https:\/\/academia\.example\/en\/nudges\/stop\?c=(\d+)&t=([A-Za-z0-9_-]+)/.exec(sent[0]!.text);
      expect(stop?.[1]).toBe(String(contact.bruno));
      expect(links.verify(NUDGE_STOP_PURPOSE, contact.bruno!, decodeURIComponent(stop![2]!))).toBe(true);
      expect(links.verify(NUDGE_STOP_PURPOSE, contact.ana!, decodeURIComponent(stop![2]!))).toBe(false);
      expect(sent[0]!.text).toContain('https://academia.example/en/mylearning');
      expect(await stopNudges(handle.db, contact.bruno!)).toBe(true);
      expect(await stopNudges(handle.db, contact.bruno!)).toBe(false);
      expect(await nudge(contact.bruno!, key(8), new Date(NOW.getTime() + 30 * 86_400_000))).toEqual({ status: 'refused', reason: 'stopped' });
      // A queued nudge of a person who stopped them meanwhile sends nothing.
      const [later] = await handle.db.select().from(s.nudges).where(eq(s.nudges.contactId, contact.bruno!)).orderBy(sql`${s.nudges.id} desc`).limit(1);
      await runNudgeJob(deps, { nudgeId: later!.id, origin: 'https://academia.example' });
      expect(sent).toHaveLength(1);
    });

    it("counts the IBO's day: a burst of many at once stores at most the day's allowance, each person once", async () => {
      const day = new Date('2033-07-01T09:00:00Z');
      const many = await handle.db
        .insert(s.contacts)
        .values(Array.from({ length: NUDGES_PER_DAY + 5 }, (_, i) => ({ firstName: `p${i}`, lastName: 'Lote', email: `lote-${i}@example.com`, iboId: mine })))
        .returning({ id: s.contacts.id });
      const outcomes = await Promise.all([...many, ...many].map((c, i) => nudge(c.id, key(1000 + i), day)));
      expect(outcomes.filter((o) => o.status === 'ok')).toHaveLength(NUDGES_PER_DAY);
      expect(outcomes.filter((o) => o.status === 'refused' && o.reason === 'dailyLimit').length + outcomes.filter((o) => o.status === 'refused' && o.reason === 'recent').length).toBe(many.length * 2 - NUDGES_PER_DAY);
      const stored = await handle.db.select({ contactId: s.nudges.contactId }).from(s.nudges).where(and(eq(s.nudges.iboId, mine), gte(s.nudges.createdAt, day)));
      expect(stored).toHaveLength(NUDGES_PER_DAY);
      expect(new Set(stored.map((r) => r.contactId)).size).toBe(NUDGES_PER_DAY);
      // The next day's allowance is fresh, for a person the burst did not reach (which ones it reached
      // depends on the order the database took the writes in; a person nudged yesterday is still 'recent').
      const untouched = many.find((c) => !stored.some((r) => r.contactId === c.id))!;
      expect(await nudge(untouched.id, key(5000), new Date('2033-07-02T00:00:01Z'))).toMatchObject({ status: 'ok' });
    });
  });
});
