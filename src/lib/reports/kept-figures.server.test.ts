/**
 * The kept report figures (migration 0034): `enrolments` and `exam_item_results` are written by the
 * database's triggers, so every write path keeps them. Each step below writes the source tables the way
 * some part of the academy does (a bulk progress insert, a lesson completed, an upsert that moves a
 * lesson's row, grading and regrading, issuing and revoking a certificate, a lesson removed, a person
 * erased), then checks the kept rows it must have produced, and that they equal what the rebuild from
 * scratch (`enrolments_rebuild()`, `exam_item_results_rebuild()`) computes.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, DbHandle } from '../db/client';
import * as s from '../db/schema';
import { testDatabases } from '../db/testing';
import { keptFiguresDrift, keptRows, type KeptTable } from '../testing/kept-figures';

const databases = await testDatabases();

/** The kept rows now, after checking that a rebuild from the source rows gives the very same. */
async function kept(db: Db, table: KeptTable): Promise<unknown[]> {
  expect(await keptFiguresDrift(db)).toEqual([]);
  return keptRows(db, table);
}

describe.each(databases)('the kept report figures ($name)', (database) => {
  let handle: DbHandle;
  let db: Db;
  let course: number;
  let otherCourse: number;
  let evaluation: number;
  let lessons: number[];
  let otherLessons: number[];
  let people: number[];
  let questions: { id: number; right: number[]; wrong: number[] }[];
  const at = (day: number) => new Date(Date.UTC(2031, 2, day, 10));

  const enrolmentOf = async (contactId: number, courseId = course) =>
    (await db.select().from(s.enrolments).where(and(eq(s.enrolments.contactId, contactId), eq(s.enrolments.courseId, courseId))))[0] ?? null;

  beforeAll(async () => {
    handle = await database.create({ seed: true });
    db = handle.db;
    const [ev] = await db
      .select()
      .from(s.evaluations)
      .where(sql`(select count(*) from subtopics st join topics tp on tp.id = st.topic_id where tp.course_id = ${s.evaluations.courseId}) >= 4
        and (select count(*) from questions q where q.evaluation_id = ${s.evaluations.id}) >= 2`)
      .orderBy(s.evaluations.id)
      .limit(1);
    evaluation = ev!.id;
    course = ev!.courseId;
    const lessonsOf = async (courseId: number) =>
      (await db.select({ id: s.subtopics.id }).from(s.subtopics).innerJoin(s.topics, eq(s.topics.id, s.subtopics.topicId)).where(eq(s.topics.courseId, courseId)).orderBy(s.subtopics.id)).map((r) => r.id);
    lessons = await lessonsOf(course);
    const [other] = await db.select({ id: s.courses.id }).from(s.courses).where(sql`${s.courses.id} <> ${course} and exists (select 1 from topics tp join subtopics st on st.topic_id = tp.id where tp.course_id = ${s.courses.id})`).limit(1);
    otherCourse = other!.id;
    otherLessons = await lessonsOf(otherCourse);
    people = (
      await db
        .insert(s.contacts)
        .values([0, 1, 2].map((n) => ({ firstName: 'Kept', lastName: String(n), email: `kept-${n}@example.com` })))
        .returning({ id: s.contacts.id })
    ).map((r) => r.id);
    const qs = await db.select({ id: s.questions.id }).from(s.questions).where(eq(s.questions.evaluationId, evaluation)).orderBy(s.questions.id).limit(2);
    questions = [];
    for (const q of qs) {
      const options = await db.select().from(s.questionOptions).where(eq(s.questionOptions.questionId, q.id)).orderBy(s.questionOptions.id);
      questions.push({ id: q.id, right: options.filter((o) => o.isCorrect).map((o) => o.id), wrong: options.filter((o) => !o.isCorrect).map((o) => o.id) });
    }
  });
  afterAll(async () => {
    await handle?.close();
  });

  it('begins an enrolment at the first progress row, and counts the completed lessons of one bulk insert', async () => {
    const [a, b] = people as [number, number];
    await db.insert(s.tracking).values([
      { contactId: a, courseId: course, subtopicId: lessons[0]!, createdAt: at(5), updatedAt: at(5), completedAt: at(5) },
      { contactId: a, courseId: course, subtopicId: lessons[1]!, createdAt: at(3), updatedAt: at(3) },
      { contactId: b, courseId: course, subtopicId: lessons[0]!, createdAt: at(7), updatedAt: at(7), completedAt: at(7) },
      { contactId: b, courseId: otherCourse, subtopicId: otherLessons[0]!, createdAt: at(8), updatedAt: at(8) },
    ]);
    expect(await enrolmentOf(a)).toMatchObject({ startedAt: at(3), lessonsDone: 1, passedAt: null, certifiedAt: null });
    expect(await enrolmentOf(b)).toMatchObject({ startedAt: at(7), lessonsDone: 1 });
    expect(await enrolmentOf(b, otherCourse)).toMatchObject({ startedAt: at(8), lessonsDone: 0 });
    await kept(db, 'enrolments');
  });

  it('counts a lesson completed later once, and follows a row the writer moves to another course', async () => {
    const [a] = people as [number];
    const complete = () => db.update(s.tracking).set({ completedAt: at(9), updatedAt: at(9) }).where(and(eq(s.tracking.contactId, a), eq(s.tracking.subtopicId, lessons[1]!)));
    await complete();
    expect((await enrolmentOf(a))!.lessonsDone).toBe(2);
    // Progress reported again: a write that leaves the completion as it was changes nothing.
    await db.update(s.tracking).set({ updatedAt: at(10), lastPosition: '12.00' }).where(and(eq(s.tracking.contactId, a), eq(s.tracking.subtopicId, lessons[1]!)));
    expect((await enrolmentOf(a))!.lessonsDone).toBe(2);
    // The upsert of a lesson now in another course carries the row there.
    await db.update(s.tracking).set({ courseId: otherCourse }).where(and(eq(s.tracking.contactId, a), eq(s.tracking.subtopicId, lessons[1]!)));
    expect(await enrolmentOf(a)).toMatchObject({ startedAt: at(5), lessonsDone: 1 });
    expect(await enrolmentOf(a, otherCourse)).toMatchObject({ startedAt: at(3), lessonsDone: 1 });
    await db.update(s.tracking).set({ courseId: course }).where(and(eq(s.tracking.contactId, a), eq(s.tracking.subtopicId, lessons[1]!)));
    expect(await enrolmentOf(a, otherCourse)).toBeNull();
    expect(await enrolmentOf(a)).toMatchObject({ startedAt: at(3), lessonsDone: 2 });
    await kept(db, 'enrolments');
  });

  it('counts right when one upsert (as the progress writer batches them) completes a row and adds a completed one of the same course', async () => {
    const [, b] = people as [number, number];
    await db.insert(s.tracking).values({ contactId: b, courseId: course, subtopicId: lessons[1]!, createdAt: at(8), updatedAt: at(8) });
    const before = (await enrolmentOf(b))!;
    await db.execute(sql`insert into tracking (contact_id, course_id, subtopic_id, created_at, updated_at, completed_at)
      values (${b}, ${course}, ${lessons[1]!}, ${at(9).toISOString()}::timestamptz, ${at(9).toISOString()}::timestamptz, ${at(9).toISOString()}::timestamptz),
             (${b}, ${course}, ${lessons[3]!}, ${at(9).toISOString()}::timestamptz, ${at(9).toISOString()}::timestamptz, ${at(9).toISOString()}::timestamptz)
      on conflict (contact_id, subtopic_id) do update set completed_at = coalesce(tracking.completed_at, excluded.completed_at), updated_at = greatest(tracking.updated_at, excluded.updated_at)`);
    // Lesson 1 completed by the update, lesson 3 added completed: two more, each once.
    expect(await enrolmentOf(b)).toMatchObject({ startedAt: before.startedAt, lessonsDone: before.lessonsDone + 2 });
    await kept(db, 'enrolments');
  });

  it('keeps the first pass, takes it back when a regrade fails the attempt, and keeps each question right or wrong', async () => {
    const [a] = people as [number];
    const [q1, q2] = questions as [(typeof questions)[number], (typeof questions)[number]];
    // In progress: answers saved, nothing graded, nothing kept.
    const [attempt] = await db
      .insert(s.examAttempts)
      .values({ evaluationId: evaluation, contactId: a, attemptNumber: 1, questionIds: [q1.id, q2.id], answers: { [q1.id]: q1.right }, startedAt: at(11), deadlineAt: at(12) })
      .returning({ id: s.examAttempts.id });
    await db.update(s.examAttempts).set({ answers: { [q1.id]: q1.right, [q2.id]: [q2.wrong[0]!] } }).where(eq(s.examAttempts.id, attempt!.id));
    const itemsOf = (attemptId: number) => db.select().from(s.examItemResults).where(eq(s.examItemResults.attemptId, attemptId)).orderBy(s.examItemResults.questionId);
    expect(await itemsOf(attempt!.id)).toEqual([]);
    expect((await enrolmentOf(a))!.passedAt).toBeNull();

    await db.update(s.examAttempts).set({ submittedAt: at(11), score: 80, passed: true }).where(eq(s.examAttempts.id, attempt!.id));
    expect((await enrolmentOf(a))!.passedAt).toEqual(at(11));
    expect((await itemsOf(attempt!.id)).map((r) => ({ q: r.questionId, right: r.isRight, wrong: r.wrongOptions, score: r.score, course: r.courseId }))).toEqual([
      { q: q1.id, right: true, wrong: [], score: 80, course },
      { q: q2.id, right: false, wrong: [q2.wrong[0]], score: 80, course },
    ]);

    // A regrade that fails it: no pass is kept; the new score is the items'.
    await db.update(s.examAttempts).set({ score: 40, passed: false }).where(eq(s.examAttempts.id, attempt!.id));
    expect((await enrolmentOf(a))!.passedAt).toBeNull();
    expect((await itemsOf(attempt!.id)).map((r) => r.score)).toEqual([40, 40]);
    // An attempt stored already graded (as the seed writes them) is kept at once.
    const [stored] = await db.insert(s.examAttempts).values({ evaluationId: evaluation, contactId: a, attemptNumber: 2, questionIds: [q1.id], answers: { [q1.id]: q1.right }, startedAt: at(13), deadlineAt: at(14), submittedAt: at(13), score: 100, passed: true }).returning({ id: s.examAttempts.id });
    expect((await enrolmentOf(a))!.passedAt).toEqual(at(13));
    expect((await itemsOf(stored!.id)).map((r) => [r.questionId, r.isRight])).toEqual([[q1.id, true]]);
    await kept(db, 'enrolments');
    await kept(db, 'exam_item_results');
  });

  it('keeps a certificate until it is revoked', async () => {
    const [a] = people as [number];
    const [k] = await db.insert(s.certificates).values({ contactId: a, courseId: course, code: 'ACAD-KEPT-0000-0000-0001', holderName: 'Kept 0', issuedAt: at(14) }).returning({ id: s.certificates.id });
    expect((await enrolmentOf(a))!.certifiedAt).toEqual(at(14));
    await db.update(s.certificates).set({ revokedAt: at(15), revokedReason: 'test' }).where(eq(s.certificates.id, k!.id));
    expect((await enrolmentOf(a))!.certifiedAt).toBeNull();
    await db.update(s.certificates).set({ revokedAt: null, revokedReason: null }).where(eq(s.certificates.id, k!.id));
    expect((await enrolmentOf(a))!.certifiedAt).toEqual(at(14));
    await kept(db, 'enrolments');
  });

  it("follows a lesson removed (its progress rows cascade, every learner's at once) and ends an enrolment with its last row", async () => {
    const [a, b] = people as [number, number];
    await db.delete(s.subtopics).where(eq(s.subtopics.id, lessons[0]!));
    // a keeps the other lesson (begun on the 3rd, completed); b keeps lessons 1 and 3 (from the 8th), then loses them too.
    expect(await enrolmentOf(a)).toMatchObject({ startedAt: at(3), lessonsDone: 1 });
    expect(await enrolmentOf(b)).toMatchObject({ startedAt: at(8), lessonsDone: 2 });
    await db.delete(s.tracking).where(and(eq(s.tracking.contactId, b), eq(s.tracking.courseId, course)));
    expect(await enrolmentOf(b)).toBeNull();
    expect(await enrolmentOf(b, otherCourse)).not.toBeNull();
    await kept(db, 'enrolments');
  });

  it("keeps each person's first activity of each UTC day and month: progress written on later days, an attempt started and graded", async () => {
    const [, , c] = people as [number, number, number];
    const activity = async () =>
      (await db.select().from(s.learnerActivity).where(eq(s.learnerActivity.contactId, c)).orderBy(s.learnerActivity.span, s.learnerActivity.starts)).map((r) => [r.span, r.starts, r.firstAt.toISOString()]);
    const iso = (day: number, hour = 10) => new Date(Date.UTC(2031, 2, day, hour)).toISOString();
    await db.insert(s.tracking).values({ contactId: c, courseId: course, subtopicId: lessons[2]!, createdAt: at(20), updatedAt: at(20) });
    const write = (when: Date) => db.update(s.tracking).set({ updatedAt: when }).where(and(eq(s.tracking.contactId, c), eq(s.tracking.subtopicId, lessons[2]!)));
    await write(new Date(Date.UTC(2031, 2, 20, 18))); // later the same day: not a first
    await write(new Date(Date.UTC(2031, 2, 22, 7))); // another day
    const [attempt] = await db
      .insert(s.examAttempts)
      .values({ evaluationId: evaluation, contactId: c, attemptNumber: 1, questionIds: [], startedAt: new Date(Date.UTC(2031, 2, 31, 23, 50)), deadlineAt: new Date(Date.UTC(2031, 3, 1, 1)) })
      .returning({ id: s.examAttempts.id });
    await db.update(s.examAttempts).set({ submittedAt: new Date(Date.UTC(2031, 3, 1, 0, 10)), score: 0, passed: false }).where(eq(s.examAttempts.id, attempt!.id));
    expect(await activity()).toEqual([
      ['day', '2031-03-20', iso(20)],
      ['day', '2031-03-22', iso(22, 7)],
      ['day', '2031-03-31', new Date(Date.UTC(2031, 2, 31, 23, 50)).toISOString()],
      ['day', '2031-04-01', new Date(Date.UTC(2031, 3, 1, 0, 10)).toISOString()],
      ['month', '2031-03-01', iso(20)],
      ['month', '2031-04-01', new Date(Date.UTC(2031, 3, 1, 0, 10)).toISOString()],
    ]);
  });

  it("keeps an order's revenue lines from its payment: the coupon spread over the lines, a line refunded, then the whole order", async () => {
    const [buyer] = await db.insert(s.users).values({ email: 'kept-buyer@example.com', firstName: 'Kept', lastName: 'Buyer' }).returning({ id: s.users.id });
    // A pending order of three lines (two courses, one book) with 10.00 off 100.00: nothing earned yet.
    const [order] = await db
      .insert(s.orders)
      .values({ userId: buyer!.id, idempotencyKey: 'kept-order', status: 'pending', subtotalCents: 10_000, discountCents: 1_000, totalCents: 9_000, couponCode: 'KEPT10', createdAt: at(1) })
      .returning({ id: s.orders.id });
    const items = await db
      .insert(s.orderItems)
      .values([
        { orderId: order!.id, productKind: 'course' as const, productId: course, productCode: 'C1', titleEs: 'Uno', titleEn: 'One', priceCents: 3_333 },
        { orderId: order!.id, productKind: 'course' as const, productId: otherCourse, productCode: 'C2', titleEs: 'Dos', titleEn: 'Two', priceCents: 3_333 },
        { orderId: order!.id, productKind: 'book' as const, productId: 1, productCode: 'B1', titleEs: 'Libro', titleEn: 'Book', priceCents: 3_334 },
      ])
      .returning({ id: s.orderItems.id });
    const lines = async () =>
      (await db.select().from(s.revenueLines).where(eq(s.revenueLines.orderId, order!.id)).orderBy(s.revenueLines.lineId)).map((l) => [l.productKind, l.gross, l.refunded, l.lastOfOrder, l.lastOfKind]);
    expect(await lines()).toEqual([]);

    await db.update(s.orders).set({ status: 'paid', paidAt: at(2) }).where(eq(s.orders.id, order!.id));
    // 1,000 off by price: 333, 333, the last line the 334 left; the lines add up to the 9,000 paid.
    expect(await lines()).toEqual([
      ['course', 3_000, 0, false, false],
      ['course', 3_000, 0, false, true],
      ['book', 3_000, 0, true, true],
    ]);
    // A refund asked of the gateway changes nothing; confirmed, its line gives back what it returned.
    const [refund] = await db
      .insert(s.orderRefunds)
      .values({ orderId: order!.id, requestKey: 'kept-refund', idempotencyKey: 'kept-refund', gateway: 'sandbox', chargeId: 'ch_kept', amountCents: 2_500, reason: 'Prueba' })
      .returning({ id: s.orderRefunds.id });
    await db.insert(s.orderRefundLines).values({ refundId: refund!.id, orderItemId: items[0]!.id, amountCents: 2_500 });
    expect((await lines()).map((l) => l[2])).toEqual([0, 0, 0]);
    await db.update(s.orderRefunds).set({ status: 'refunded' }).where(eq(s.orderRefunds.id, refund!.id));
    expect((await lines()).map((l) => l[2])).toEqual([2_500, 0, 0]);
    await kept(db, 'revenue_lines');
    // Refunded whole without refund lines (as before they were kept): every line gives back all it earned,
    // but for the line whose refund is kept.
    await db.update(s.orders).set({ status: 'refunded' }).where(eq(s.orders.id, order!.id));
    expect((await lines()).map((l) => l[2])).toEqual([2_500, 3_000, 3_000]);
    await kept(db, 'revenue_lines');
    // A line removed goes; the order gone takes its lines.
    await db.delete(s.orderItems).where(eq(s.orderItems.id, items[2]!.id));
    expect((await lines()).map((l) => l.slice(3))).toEqual([
      [false, false],
      [true, true],
    ]);
    await db.delete(s.orders).where(eq(s.orders.id, order!.id));
    expect(await lines()).toEqual([]);
    await kept(db, 'revenue_lines');
  });

  it("goes with the person when they are erased, their attempts' results and activity included", async () => {
    const [a, , c] = people as [number, number, number];
    await db.delete(s.contacts).where(eq(s.contacts.id, a));
    await db.delete(s.contacts).where(eq(s.contacts.id, c));
    expect(await db.select().from(s.learnerActivity).where(sql`${s.learnerActivity.contactId} in (${a}, ${c})`)).toEqual([]);
    expect(await enrolmentOf(a)).toBeNull();
    expect(await db.select().from(s.examItemResults).where(eq(s.examItemResults.contactId, a))).toEqual([]);
    await kept(db, 'enrolments');
    await kept(db, 'exam_item_results');
  });
});
