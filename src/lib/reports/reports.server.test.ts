/**
 * The reports' queries on the seeded database, in a year after the seed (so only the rows written here
 * fall in the range): each report's figures from a small data set whose answers are known, the filters,
 * item analysis held to the pure reference (`items.ts`), revenue with a coupon spread over lines and a
 * refund, the affiliate-visit counter, and the year-of-orders export read page by page.
 */
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../db/testing';
import type { DbHandle } from '../db/client';
import * as s from '../db/schema';
import { countAffiliateVisit } from '../identity/ibo.server';
import { answeredRight, pointBiserial, rightShare } from './items';
import { readReportFilter, type ReportFilter } from './reports';
import { acquisitionReport, enrolmentsReport, examSummary, funnelReport, itemAnalysis, revenueReport } from './reports.server';
import { csvStream, ordersCsv, reportCsv } from './csv.server';

const databases = await testDatabases();
const at = (text: string) => new Date(`2031-${text}Z`);
const filterOf = (query: string): ReportFilter => {
  const r = readReportFilter(new URLSearchParams(query), at('12-31T12:00:00'));
  if (!r.ok) throw new Error(r.error);
  return r.filter;
};
const MARCH = filterOf('from=2031-03-01&to=2031-03-31&bucket=week');

async function text(chunks: AsyncGenerator<string, void, undefined>): Promise<string> {
  // Keep the BOM (a decoder takes it off by default): the file must start with it.
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(await new Response(csvStream(chunks)).arrayBuffer());
}

describe.each(databases)('the reports ($name)', (database) => {
  let handle: DbHandle;
  let course: { id: number; categoryId: number; businessId: number };
  let lessons: number[];
  let otherCourse: number;
  let ibo: number;
  let contacts: number[];
  let questions: { id: number; correct: number[]; wrong: number[] }[];
  let learner: number;

  beforeAll(async () => {
    handle = await database.create({ seed: true });
    const db = handle.db;
    const [evaluation] = await db
      .select()
      .from(s.evaluations)
      .where(sql`(select count(*) from subtopics st join topics tp on tp.id = st.topic_id where tp.course_id = ${s.evaluations.courseId}) >= 3`)
      .orderBy(s.evaluations.id)
      .limit(1);
    const [c] = await db.select().from(s.courses).where(eq(s.courses.id, evaluation!.courseId));
    course = { id: c!.id, categoryId: c!.categoryId, businessId: c!.businessId };
    lessons = (await db.select({ id: s.subtopics.id }).from(s.subtopics).innerJoin(s.topics, eq(s.topics.id, s.subtopics.topicId)).where(eq(s.topics.courseId, course.id)).orderBy(s.subtopics.id)).map((r) => r.id);
    const [other] = await db.select({ id: s.courses.id }).from(s.courses).where(sql`${s.courses.id} <> ${course.id}`).limit(1);
    otherCourse = other!.id;
    const [owner] = await db.insert(s.users).values({ email: 'report-ibo@example.com', firstName: 'Ibo', lastName: 'Owner', userType: s.USER_TYPE.admin }).returning({ id: s.users.id });
    const [b] = await db.insert(s.ibos).values({ userId: owner!.id, code: 'REPORTS01', companyName: '=HYPERLINK("http://evil")' }).returning({ id: s.ibos.id });
    ibo = b!.id;
    const [u] = await db.insert(s.users).values({ email: 'report-learner@example.com', firstName: 'Rep', lastName: 'Learner', referredByIboId: ibo, createdAt: at('03-02T10:00:00') }).returning({ id: s.users.id });
    learner = u!.id;

    // Six contacts: 0 is the IBO's registered learner, 1..2 the IBO's prospects, 3..5 nobody's.
    contacts = (
      await db
        .insert(s.contacts)
        .values([0, 1, 2, 3, 4, 5].map((n) => ({ firstName: 'Rep', lastName: String(n), email: `report-contact-${n}@example.com`, userId: n === 0 ? learner : null, iboId: n === 1 || n === 2 ? ibo : null, createdAt: at('03-03T10:00:00') })))
        .returning({ id: s.contacts.id })
    ).map((r) => r.id);

    // Progress: contact 0 did every lesson (first on 3 March); 1 half; 2 one lesson; 3 started in February (not an
    // enrolment of March, though active in it); 4 enrolled on 10 March in the other course; 5 enrolled on 31 March.
    const row = (contactId: number, subtopicId: number, courseId: number, createdAt: Date, done: boolean) => ({ contactId, courseId, subtopicId, createdAt, updatedAt: createdAt, completedAt: done ? createdAt : null });
    const otherLesson = (await db.select({ id: s.subtopics.id }).from(s.subtopics).innerJoin(s.topics, eq(s.topics.id, s.subtopics.topicId)).where(eq(s.topics.courseId, otherCourse)).limit(1))[0]!.id;
    const half = Math.ceil(lessons.length / 2);
    await db.insert(s.tracking).values([
      ...lessons.map((l, i) => row(contacts[0]!, l, course.id, at(`03-0${3 + (i % 5)}T10:00:00`), true)),
      ...lessons.slice(0, half).map((l) => row(contacts[1]!, l, course.id, at('03-04T10:00:00'), true)),
      row(contacts[2]!, lessons[0]!, course.id, at('03-05T10:00:00'), true),
      row(contacts[3]!, lessons[0]!, course.id, at('02-20T10:00:00'), true),
      row(contacts[3]!, lessons[1]!, course.id, at('03-06T10:00:00'), true),
      row(contacts[4]!, otherLesson, otherCourse, at('03-10T10:00:00'), false),
      row(contacts[5]!, lessons[0]!, course.id, at('03-31T23:59:59'), false),
    ]);
    await db.insert(s.certificates).values([
      { contactId: contacts[0]!, courseId: course.id, code: 'REPT-0001', holderName: 'Rep', issuedAt: at('03-09T12:00:00') },
      { contactId: contacts[1]!, courseId: course.id, code: 'REPT-0002', holderName: 'Rep', issuedAt: at('03-09T12:00:00'), revokedAt: at('03-10T12:00:00') },
    ]);

    // Exam: 12 graded attempts over the exam's first questions, answers chosen so every figure is known.
    const qs = await db.select({ id: s.questions.id }).from(s.questions).where(eq(s.questions.evaluationId, evaluation!.id)).orderBy(s.questions.position);
    const opts = await db.select().from(s.questionOptions).where(inArray(s.questionOptions.questionId, qs.map((q) => q.id)));
    questions = qs
      .map((q) => ({ id: q.id, correct: opts.filter((o) => o.questionId === q.id && o.isCorrect).map((o) => o.id), wrong: opts.filter((o) => o.questionId === q.id && !o.isCorrect).map((o) => o.id).sort((a, b) => a - b) }))
      .filter((q) => q.wrong.length >= 2)
      .slice(0, 3);
    expect(questions).toHaveLength(3);
    const attempts = Array.from({ length: 12 }, (_, i) => {
      // Question 0: right for the 8 best. Question 1: right for the 4 worst (negative). Question 2: nobody right, wrong[0] 9 times.
      const answers: Record<string, number[]> = {
        [questions[0]!.id]: i >= 4 ? questions[0]!.correct : [questions[0]!.wrong[0]!],
        [questions[1]!.id]: i < 4 ? questions[1]!.correct : [questions[1]!.wrong[i % questions[1]!.wrong.length]!],
        [questions[2]!.id]: [questions[2]!.wrong[i < 9 ? 0 : 1]!],
      };
      const score = 10 + i * 7;
      return { evaluationId: evaluation!.id, contactId: contacts[(i + 3) % 6]!, attemptNumber: 10 + i, questionIds: questions.map((q) => q.id), answers, startedAt: at('03-12T10:00:00'), deadlineAt: at('03-12T11:00:00'), submittedAt: at('03-12T10:30:00'), score, passed: score >= 70 };
    });
    await db.insert(s.examAttempts).values(attempts);
  });
  afterAll(async () => {
    await handle.close();
  });

  it('counts enrolments (a first progress on a course) and completions (certificates not revoked) per week', async () => {
    const r = await enrolmentsReport(handle.db, MARCH);
    expect(r.totals).toEqual({ enrolments: 5, completions: 1 });
    expect(r.series.map((b) => b.bucket)).toEqual(['2031-02-24', '2031-03-03', '2031-03-10', '2031-03-17', '2031-03-24', '2031-03-31']);
    expect(r.series.map((b) => b.enrolments)).toEqual([0, 3, 1, 0, 0, 1]);
    expect(r.series.map((b) => b.completions)).toEqual([0, 1, 0, 0, 0, 0]);
  });

  it('filters by course, category, business line and the learner\'s IBO', async () => {
    expect((await enrolmentsReport(handle.db, filterOf(`from=2031-03-01&to=2031-03-31&course=${course.id}`))).totals.enrolments).toBe(4);
    expect((await enrolmentsReport(handle.db, filterOf(`from=2031-03-01&to=2031-03-31&course=${course.id}&category=${course.categoryId}&business=${course.businessId}`))).totals.enrolments).toBe(4);
    expect((await enrolmentsReport(handle.db, filterOf(`from=2031-03-01&to=2031-03-31&ibo=${ibo}`))).totals).toEqual({ enrolments: 3, completions: 1 });
    expect((await enrolmentsReport(handle.db, filterOf('from=2031-03-01&to=2031-03-31&course=2147483647'))).totals.enrolments).toBe(0);
  });

  it('draws the progress funnel of those who enrolled, each step within the one before', async () => {
    const rows = await funnelReport(handle.db, filterOf(`from=2031-03-01&to=2031-03-31&course=${course.id}`));
    expect(rows).toHaveLength(1);
    // Contact 0 did every lesson and passed; contact 1 passed too, with half the lessons only: not a step further.
    expect(rows[0]).toMatchObject({ courseId: course.id, lessons: lessons.length, started: 4, half: 2, all: 1, passed: 1, certified: 1 });
  });

  it('sums exam results per course', async () => {
    const [row] = await examSummary(handle.db, filterOf(`from=2031-03-01&to=2031-03-31&course=${course.id}`));
    expect(row).toMatchObject({ courseId: course.id, attempts: 12, passed: 3 });
    expect(row!.averageScore).toBeCloseTo(10 + 5.5 * 7, 1);
  });

  it('analyses each question as the pure reference does: share right, the wrong option chosen most, discrimination', async () => {
    const items = await itemAnalysis(handle.db, course.id, MARCH);
    const byId = new Map(items.map((q) => [q.questionId, q]));
    const [attempts] = await Promise.all([handle.db.select().from(s.examAttempts).where(eq(s.examAttempts.submittedAt, at('03-12T10:30:00')))]);
    for (const q of questions) {
      const responses = attempts.map((a) => ({ right: answeredRight(a.answers![q.id]!, q.correct), score: a.score! }));
      const item = byId.get(q.id)!;
      expect(item.answers).toBe(12);
      expect(item.right / item.answers).toBeCloseTo(rightShare(responses)!, 10);
      const reference = pointBiserial(responses);
      if (reference === null) expect(item.discrimination).toBeNull();
      else expect(item.discrimination!).toBeCloseTo(reference, 6);
    }
    expect(byId.get(questions[0]!.id)!.discrimination!).toBeGreaterThan(0.5);
    expect(byId.get(questions[1]!.id)!.discrimination!).toBeLessThan(0);
    expect(byId.get(questions[2]!.id)!).toMatchObject({ right: 0, discrimination: null, wrong: { optionId: questions[2]!.wrong[0], times: 9 } });
    expect(byId.get(questions[0]!.id)!.wrong).toMatchObject({ optionId: questions[0]!.wrong[0], times: 4 });
  });

  it('reports revenue by period, course, product type, coupon and IBO, the coupon spread over lines to the cent, refunds subtracted', async () => {
    const db = handle.db;
    const order = async (key: string, status: 'paid' | 'refunded' | 'failed', lines: { kind: 'course' | 'book'; id: number; cents: number }[], discount: number, paidAt: Date | null, coupon: string | null, referringIboId: number | null) => {
      const subtotal = lines.reduce((a, l) => a + l.cents, 0);
      const [o] = await db.insert(s.orders).values({ userId: learner, idempotencyKey: `rep-${key}`, status, subtotalCents: subtotal, discountCents: discount, totalCents: subtotal - discount, couponCode: coupon, referringIboId, paidAt, createdAt: paidAt ?? at('03-20T10:00:00') }).returning({ id: s.orders.id });
      await db.insert(s.orderItems).values(lines.map((l) => ({ orderId: o!.id, productKind: l.kind, productId: l.id, productCode: `P${l.id}`, titleEs: `Curso ${l.id}`, titleEn: `Course ${l.id}`, priceCents: l.cents })));
    };
    // 100 off 3 lines of 1000/1000/1001 cents: 33 + 33 + 34 off (the last line takes what is left).
    await order('a', 'paid', [{ kind: 'course', id: course.id, cents: 1000 }, { kind: 'course', id: otherCourse, cents: 1000 }, { kind: 'book', id: 1, cents: 1001 }], 100, at('03-05T10:00:00'), 'SPRING', ibo);
    await order('b', 'refunded', [{ kind: 'course', id: course.id, cents: 5000 }], 0, at('03-06T10:00:00'), null, null);
    await order('c', 'failed', [{ kind: 'course', id: course.id, cents: 7000 }], 0, null, null, null);
    const r = await revenueReport(db, MARCH);
    expect(r.totals).toEqual({ orders: 2, gross: 2901 + 5000, refunded: 5000, net: 2901 });
    expect(r.byDay.find((d) => d.bucket === '2031-03-03')).toMatchObject({ gross: 7901, refunded: 5000, net: 2901 });
    expect(Object.fromEntries(r.byKind.map((k) => [k.key, k.gross]))).toEqual({ course: 967 + 967 + 5000, book: 967 });
    expect(r.byKind.reduce((a, k) => a + k.gross, 0)).toBe(r.totals.gross);
    expect(r.byCoupon.find((c) => c.key === 'SPRING')).toMatchObject({ orders: 1, gross: 2901 });
    expect(r.byIbo.find((c) => c.key === String(ibo))).toMatchObject({ orders: 1, net: 2901 });
    expect(r.byCourse.find((c) => c.key === String(course.id))).toMatchObject({ orders: 2, gross: 967 + 5000, refunded: 5000 });
    const onlyCourse = await revenueReport(db, filterOf(`from=2031-03-01&to=2031-03-31&course=${course.id}`));
    expect(onlyCourse.totals).toMatchObject({ gross: 5967, refunded: 5000 });
    expect((await revenueReport(db, filterOf(`from=2031-03-01&to=2031-03-31&ibo=${ibo}`))).totals.gross).toBe(2901);
  });

  it('subtracts what a refund gave back for the lines it refunded, even while the rest of the order stands; a refund asked and not done subtracts nothing', async () => {
    const db = handle.db;
    const paidAt = at('05-10T10:00:00');
    const [o] = await db.insert(s.orders).values({ userId: learner, idempotencyKey: 'rep-partial', status: 'paid', subtotalCents: 5000, discountCents: 0, totalCents: 5000, paidAt, createdAt: paidAt }).returning({ id: s.orders.id });
    const [book, lesson] = await db
      .insert(s.orderItems)
      .values([
        { orderId: o!.id, productKind: 'book', productId: 1, productCode: 'B1', titleEs: 'Libro', titleEn: 'Book', priceCents: 2000 },
        { orderId: o!.id, productKind: 'course', productId: course.id, productCode: 'C1', titleEs: 'Curso', titleEn: 'Course', priceCents: 3000 },
      ])
      .returning({ id: s.orderItems.id });
    const refund = async (key: string, item: number, cents: number, status: 'requested' | 'refunded') => {
      const [r] = await db.insert(s.orderRefunds).values({ orderId: o!.id, requestKey: key, idempotencyKey: `refund-${key}`, gateway: 'sandbox', chargeId: 'ch_rep', amountCents: cents, reason: 'Prueba', status }).returning({ id: s.orderRefunds.id });
      await db.insert(s.orderRefundLines).values({ refundId: r!.id, orderItemId: item, amountCents: cents });
    };
    await refund('book', book!.id, 2000, 'refunded');
    await refund('course', lesson!.id, 3000, 'requested');
    const may = await revenueReport(db, filterOf('from=2031-05-01&to=2031-05-31'));
    expect(may.totals).toEqual({ orders: 1, gross: 5000, refunded: 2000, net: 3000 });
    expect(Object.fromEntries(may.byKind.map((k) => [k.key, k.refunded]))).toEqual({ book: 2000, course: 0 });
  });

  it('counts affiliate visits per day and the IBO\'s acquisition funnel, its CSV defusing a formula in a name', async () => {
    await countAffiliateVisit(handle.db, ibo, at('03-01T00:00:00'));
    await countAffiliateVisit(handle.db, ibo, at('03-01T23:59:59'));
    await countAffiliateVisit(handle.db, ibo, at('04-01T00:00:00'));
    const visits = await handle.db.select().from(s.affiliateVisits).where(eq(s.affiliateVisits.iboId, ibo)).orderBy(s.affiliateVisits.day);
    expect(visits.map((v) => [v.day, v.visits])).toEqual([['2031-03-01', 2], ['2031-04-01', 1]]);
    const [row] = await acquisitionReport(handle.db, filterOf(`from=2031-03-01&to=2031-03-31&ibo=${ibo}`));
    expect(row).toMatchObject({ iboId: ibo, visits: 2, prospects: 2, registered: 1, buyers: 1 });
    const csv = await text(reportCsv(handle.db, 'acquisition', filterOf(`from=2031-03-01&to=2031-03-31&ibo=${ibo}`), 'es'));
    expect(csv.startsWith('\uFEFFIBO,Empresa,Visitas al enlace,Prospectos,Registrados,Compradores\r\n')).toBe(true);
    expect(csv).toContain(`REPORTS01,"'=HYPERLINK(""http://evil"")",2,2,1,1\r\n`);
    const all = await acquisitionReport(handle.db, MARCH);
    expect(all.map((r) => r.iboId)).toContain(ibo);
  });

  it('writes each report as CSV with headers in the reader\'s language', async () => {
    const en = await text(reportCsv(handle.db, 'enrolments', MARCH, 'en'));
    expect(en.split('\r\n').slice(0, 3)).toEqual(['\uFEFFPeriod,Enrolments,Completions', '2031-02-24,0,0', '2031-03-03,3,1']);
    const items = await text(reportCsv(handle.db, 'exams', filterOf(`from=2031-03-01&to=2031-03-31&course=${course.id}`), 'es'));
    expect(items.split('\r\n')[0]).toBe('\uFEFFPregunta,Respuestas,Aciertos,Opción incorrecta más elegida,Discriminación');
    const revenue = await text(reportCsv(handle.db, 'revenue', MARCH, 'en'));
    expect(revenue).toContain('By product type,Books,1,9.67,0.00,9.67\r\n');
    for (const report of ['funnel', 'exams'] as const) expect((await text(reportCsv(handle.db, report, MARCH, 'es'))).length).toBeGreaterThan(10);
  });

  it('streams a year of orders page by page: an order written after the first page was sent is still in the file', async () => {
    const db = handle.db;
    const values = Array.from({ length: 250 }, (_, i) => ({ userId: learner, idempotencyKey: `rep-year-${i}`, status: 'paid' as const, subtotalCents: 100 + i, totalCents: 100 + i, couponCode: i === 0 ? '=cmd|calc' : null, paidAt: at('06-01T00:00:00'), createdAt: new Date(Date.UTC(2032, 0, 1) + i * 60_000) }));
    await db.insert(s.orders).values(values);
    const chunks = ordersCsv(db, 2032, 'en', 100);
    const reader = csvStream(chunks).getReader();
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
    const first = await reader.read();
    expect(decoder.decode(first.value!)).toBe('\uFEFFOrder,Created,Paid,Status,Subtotal,Discount,Total,Currency,Coupon,IBO,Products\r\n');
    const page1 = decoder.decode((await reader.read()).value!);
    expect(page1.split('\r\n').filter(Boolean)).toHaveLength(100);
    expect(page1).toContain(",'=cmd|calc,");
    // Not read yet: the last pages. A late order (at the year's end) shows up in them.
    await db.insert(s.orders).values({ ...values[0]!, idempotencyKey: 'rep-year-late', couponCode: null, subtotalCents: 999_999, totalCents: 999_999, createdAt: new Date(Date.UTC(2032, 11, 31, 23, 59)) });
    let rest = '';
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      rest += decoder.decode(next.value);
    }
    const lines = rest.split('\r\n').filter(Boolean);
    expect(lines).toHaveLength(151);
    expect(lines.at(-1)).toContain(',9999.99,');
  });

  it('stops reading pages when the download is cancelled', async () => {
    let pages = 0;
    async function* counted() {
      for await (const chunk of ordersCsv(handle.db, 2032, 'es', 10)) {
        pages++;
        yield chunk;
      }
    }
    const reader = csvStream(counted()).getReader();
    await reader.read();
    await reader.read();
    await reader.cancel();
    expect(pages).toBe(2);
  });
});
