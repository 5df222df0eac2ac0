/**
 * The dashboard's figures on the seeded database, at an instant years after the seed (so only the rows
 * written here fall in its periods): each figure's four periods from a small data set whose figures are
 * known, the period edges (a start included, an end excluded), what is left out (staff accounts, revoked
 * certificates, unpaid orders), a sum past 32 bits, and only the figures asked for read.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../db/testing';
import type { DbHandle } from '../db/client';
import * as s from '../db/schema';
import { loadDashboard } from './dashboard.server';

const databases = await testDatabases();
const NOW = new Date('2030-05-20T12:00:00Z');
const at = (text: string) => new Date(`2030-${text}Z`);

describe.each(databases)('the dashboard figures ($name)', (database) => {
  let handle: DbHandle;
  let openBefore = 0;

  beforeAll(async () => {
    handle = await database.create({ seed: true });
    const db = handle.db;
    const before = await loadDashboard(db, ['openSupport'], NOW);
    openBefore = before.openSupport!;

    // New learners: today 1, yesterday by this time 1, this month 4 (its first instant included), last month's same days 1.
    const person = (n: string, createdAt: Date, userType: number = s.USER_TYPE.learner) => ({ email: `dash-${n}@example.com`, firstName: 'Dash', lastName: n, userType, createdAt });
    const made = await db
      .insert(s.users)
      .values([
        person('today', at('05-20T08:00:00')),
        person('yesterday', at('05-19T09:00:00')),
        person('yesterday-late', at('05-19T13:00:00')),
        person('month-start', at('05-01T00:00:00')),
        person('april', at('04-10T10:00:00')),
        person('april-late', at('04-25T10:00:00')),
        person('staff', at('05-20T09:00:00'), s.USER_TYPE.admin),
        person('now', NOW),
      ])
      .returning({ id: s.users.id });
    const buyer = made[0]!.id;

    // Active learners: A today (lesson and exam), B yesterday and in April, C's exam graded yesterday.
    const [sub] = await db.select({ id: s.subtopics.id, courseId: s.topics.courseId }).from(s.subtopics).innerJoin(s.topics, eq(s.topics.id, s.subtopics.topicId)).limit(1);
    const [evaluation] = await db.select({ id: s.evaluations.id, courseId: s.evaluations.courseId }).from(s.evaluations).limit(1);
    const [other] = await db.select({ id: s.courses.id }).from(s.courses).where(eq(s.courses.isTest, false)).limit(2).offset(1);
    const contacts = await db
      .insert(s.contacts)
      .values(['a', 'b', 'c'].map((n) => ({ firstName: 'Dash', lastName: n, email: `dash-contact-${n}@example.com` })))
      .returning({ id: s.contacts.id });
    const [a, b, c] = contacts.map((r) => r.id) as [number, number, number];
    await db.insert(s.tracking).values([
      { contactId: a, courseId: sub!.courseId, subtopicId: sub!.id, updatedAt: at('05-20T10:00:00') },
      { contactId: b, courseId: sub!.courseId, subtopicId: sub!.id, updatedAt: at('05-19T10:00:00') },
    ]);
    const attempt = (contactId: number, startedAt: Date, submittedAt: Date | null) => ({ evaluationId: evaluation!.id, contactId, attemptNumber: 1, questionIds: [], startedAt, deadlineAt: new Date(startedAt.getTime() + 3_600_000), submittedAt });
    await db.insert(s.examAttempts).values([attempt(a, at('05-20T11:00:00'), null), attempt(b, at('04-05T10:00:00'), at('04-05T10:30:00')), attempt(c, at('05-18T23:50:00'), at('05-19T00:10:00'))]);

    // Completions: today 1, yesterday 1 (another revoked), this month 2, April 1.
    const cert = (contactId: number, courseId: number, issuedAt: Date, code: string, revokedAt: Date | null = null) => ({ contactId, courseId, issuedAt, code, holderName: 'Dash', revokedAt });
    await db.insert(s.certificates).values([
      cert(a, evaluation!.courseId, at('05-20T09:00:00'), 'DASH-0001'),
      cert(b, evaluation!.courseId, at('04-02T09:00:00'), 'DASH-0002'),
      cert(c, evaluation!.courseId, at('05-19T11:00:00'), 'DASH-0003', at('05-19T11:05:00')),
      cert(c, other!.id, at('05-19T11:30:00'), 'DASH-0004'),
    ]);

    // Revenue: today 49.90, yesterday 10.00, this month 84.90, April 40,000,012.34 (past 32 bits of cents).
    const order = (key: string, totalCents: number, status: 'pending' | 'paid' | 'failed' | 'refunded', paidAt: Date | null, createdAt = paidAt ?? at('05-20T07:00:00')) => ({
      userId: buyer,
      idempotencyKey: `dash-${key}`,
      subtotalCents: totalCents,
      totalCents,
      status,
      paidAt,
      createdAt,
    });
    await db.insert(s.orders).values([
      order('today', 4990, 'paid', at('05-20T10:00:00')),
      order('yesterday', 1000, 'paid', at('05-19T06:00:00')),
      order('month', 2500, 'paid', at('05-02T06:00:00')),
      order('april', 1234, 'paid', at('04-03T06:00:00')),
      order('april-big-1', 2_000_000_000, 'paid', at('04-04T06:00:00')),
      order('april-big-2', 2_000_000_000, 'paid', at('04-05T06:00:00')),
      order('refunded', 7777, 'refunded', null),
      order('pending', 8888, 'pending', null),
      order('failed', 9999, 'failed', null),
    ]);

    // Open support messages: 3 more (2 new, 1 in progress), answered and closed ones left out.
    const message = (status: 'new' | 'in_progress' | 'answered' | 'closed') => ({ typeId: 8, name: 'Dash', lastName: status, email: 'dash@example.com', countryPhoneCode: '+57', phone: '3001234567', description: 'Hola', countryCode: 'CO', language: 'es', accepts: true, status });
    await db.insert(s.contactMessages).values([message('new'), message('new'), message('in_progress'), message('answered'), message('closed')]);
  });
  afterAll(async () => {
    await handle.close();
  });

  it('counts each figure in its four periods', async () => {
    const dashboard = await loadDashboard(handle.db, ['newLearners', 'activeLearners', 'completions', 'revenue', 'openSupport'], NOW);
    const figures = (f: keyof typeof dashboard.periods) => {
      const p = dashboard.periods[f]!;
      return [p.day.current, p.day.previous, p.month.current, p.month.previous];
    };
    expect(figures('newLearners')).toEqual([1, 1, 4, 1]);
    expect(figures('activeLearners')).toEqual([1, 2, 3, 1]);
    expect(figures('completions')).toEqual([1, 1, 2, 1]);
    expect(figures('revenue')).toEqual([4990, 1000, 8490, 4_000_001_234]);
    expect(dashboard.openSupport).toBe(openBefore + 3);
    expect(dashboard.periods.newLearners!.month.change).toEqual({ direction: 'up', delta: 3, percent: 300 });
    expect(dashboard.periods.revenue!.day.change).toEqual({ direction: 'up', delta: 3990, percent: 399 });
  });

  it('reads only the figures asked for', async () => {
    const dashboard = await loadDashboard(handle.db, ['newLearners', 'activeLearners', 'completions'], NOW);
    expect(Object.keys(dashboard.periods).sort()).toEqual(['activeLearners', 'completions', 'newLearners']);
    expect(dashboard.openSupport).toBeUndefined();
  });

  it('is all zeros, and the same, in a period with nothing', async () => {
    const dashboard = await loadDashboard(handle.db, ['newLearners', 'revenue'], new Date('2040-01-15T12:00:00Z'));
    expect(dashboard.periods.revenue).toEqual({
      day: { current: 0, previous: 0, change: { direction: 'same', delta: 0, percent: 0 } },
      month: { current: 0, previous: 0, change: { direction: 'same', delta: 0, percent: 0 } },
    });
  });
});
