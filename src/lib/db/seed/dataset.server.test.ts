/**
 * The reports' data set generator (`bench/dataset.ts`) at a tiny scale on the embedded database: the
 * sizes asked for exactly, every foreign key holding, the rows as the application reads them (attempts
 * graded from their answers, certificates for passed attempts only, coupon uses counted, memberships
 * never due for renewal), and a second run refused.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../client';
import { queryRows } from '../client';
import { testDatabases } from '../testing';
import { datasetCounts, foreignKeyViolations, generateDataset, hasDataset, type DatasetSummary } from './dataset.server';

const AT = new Date('2026-06-15T12:00:00Z');

describe('the generated data set, at a tiny scale on PGlite', () => {
  let handle: DbHandle;
  let before: Awaited<ReturnType<typeof datasetCounts>>;
  let summary: DatasetSummary;
  const rows = <T>(q: ReturnType<typeof sql>) => queryRows<T>(handle.db, q);

  beforeAll(async () => {
    handle = await (await testDatabases())[0]!.create({ seed: true });
    before = await datasetCounts(handle.db);
    const t0 = performance.now();
    summary = await generateDataset(handle.db, { scale: 0.002, seed: 7, at: AT });
    console.log(`generated in ${(performance.now() - t0).toFixed(0)} ms`);
  }, 120_000);
  afterAll(async () => {
    await handle?.close();
  });

  it('adds exactly the learners, progress rows, exam attempts and orders asked for', () => {
    expect(summary.wanted).toEqual({ learners: 200, progress: 4000, attempts: 400, orders: 100 });
    const added = (t: keyof typeof before) => summary.counts[t] - before[t];
    expect(added('tracking')).toBe(4000);
    expect(added('exam_attempts')).toBe(400);
    expect(added('orders')).toBe(100);
    expect(added('order_items')).toBeGreaterThanOrEqual(100);
    expect(added('payment_attempts')).toBe(100);
    for (const t of ['certificates', 'referrals', 'ibos', 'memberships', 'coupon_redemptions', 'contact_messages', 'support_entries', 'sessions', 'audit_events', 'course_grants', 'order_refunds', 'order_refund_lines', 'membership_changes', 'affiliate_visits'] as const) expect(added(t), t).toBeGreaterThan(0);
  });

  it('keeps every foreign key', async () => {
    expect(await foreignKeyViolations(handle.db)).toEqual([]);
    const [learners] = await rows<{ n: number }>(sql`select count(*)::int as n from users u join contacts c on c.user_id = u.id where u.email like 'learner-%@bench.example' and u.user_type = 1`);
    expect(learners!.n).toBe(200);
  });

  it('writes rows as the application reads them', async () => {
    // Scores graded from the answers kept (whole percent, rounded down), and passed by the exam's minimum.
    const [wrong] = await rows<{ n: number }>(sql`
      select count(*)::int as n from exam_attempts a join evaluations e on e.id = a.evaluation_id
      cross join lateral (select count(*) filter (where (a.answers -> q.id::text) = (select jsonb_agg(o.id order by o.position) from question_options o where o.question_id = q.id and o.is_correct)) as right, count(*) as total
        from jsonb_array_elements_text(a.question_ids) qid join questions q on q.id = qid::int) g
      join contacts c on c.id = a.contact_id
      where c.email like '%@bench.example' and (a.score <> floor(g.right * 100.0 / g.total) or a.passed <> (a.score >= e.passing_score) or a.submitted_at > ${AT.toISOString()}::timestamptz)`);
    expect(wrong!.n).toBe(0);
    // Some questions are answered wrong, mostly with one distractor: item analysis has something to find.
    const [answers] = await rows<{ right: number; wrong: number }>(sql`select count(*) filter (where passed)::int as right, count(*) filter (where not passed)::int as wrong from exam_attempts where option_order <> '{}'::jsonb`);
    expect(answers!.right).toBeGreaterThan(0);
    expect(answers!.wrong).toBeGreaterThan(0);
    // A certificate for each course passed, and none for a course never passed.
    const [unearned] = await rows<{ n: number }>(sql`select count(*)::int as n from certificates c join evaluations e on e.course_id = c.course_id where c.code like 'ACAD-B%' and not exists (select 1 from exam_attempts a where a.contact_id = c.contact_id and a.evaluation_id = e.id and a.passed)`);
    expect(unearned!.n).toBe(0);
    const [codes] = await rows<{ n: number }>(sql`select count(*)::int as n from certificates where code !~ '^ACAD(-[0-9ABCDEFGHJKMNPQRSTVWXYZ]{4}){4}$'`);
    expect(codes!.n).toBe(0);
    // Coupon uses are the orders holding them; refunded and failed orders exist, and some were referred by an IBO.
    const [uses] = await rows<{ n: number }>(sql`select count(*)::int as n from coupons c where c.code like 'BENCH%' and c.uses <> (select count(*) from coupon_redemptions r where r.coupon_id = c.id)`);
    expect(uses!.n).toBe(0);
    const statuses = await rows<{ status: string }>(sql`select distinct status from orders where idempotency_key like 'bench-%' order by 1`);
    expect(statuses.map((s) => s.status)).toEqual(['failed', 'paid', 'refunded']);
    const [referred] = await rows<{ n: number }>(sql`select count(*)::int as n from orders where referring_ibo_id is not null`);
    expect(referred!.n).toBeGreaterThan(0);
    // Nothing the server's jobs would act on at once: no membership due for renewal, nothing dated after the data set's end.
    const [due] = await rows<{ n: number }>(sql`select count(*)::int as n from memberships where cancelled_at is null and ends_at <= ${AT.toISOString()}::timestamptz`);
    expect(due!.n).toBe(0);
    const [late] = await rows<{ n: number }>(sql`select (select count(*) from tracking t join contacts c on c.id = t.contact_id where c.email like '%@bench.example' and t.updated_at > ${AT.toISOString()}::timestamptz)
      + (select count(*) from orders where idempotency_key like 'bench-%' and (created_at > ${AT.toISOString()}::timestamptz or paid_at > ${AT.toISOString()}::timestamptz)) as n`);
    expect(Number(late!.n)).toBe(0);
  });

  it('dates lesson progress when it began, and fills what the reports read besides', async () => {
    // Enrolments are counted by the first progress row's creation: spread over the months, never after its last update.
    const [spread] = await rows<{ days: number; late: number }>(sql`select count(distinct t.created_at::date)::int as days, count(*) filter (where t.created_at > t.updated_at or t.created_at > ${AT.toISOString()}::timestamptz)::int as late
      from tracking t join contacts c on c.id = t.contact_id where c.email like '%@bench.example'`);
    expect(spread!.late).toBe(0);
    expect(spread!.days).toBeGreaterThan(100);
    // Each refunded order that charged something has one refund of its whole total, its lines adding up to it; no other order has one.
    const [refunds] = await rows<{ orders: number; refunded: number; wrong: number; others: number }>(sql`select
      (select count(*)::int from orders where idempotency_key like 'bench-%' and status = 'refunded' and total_cents > 0) as orders,
      (select count(*)::int from order_refunds r join orders o on o.id = r.order_id where o.idempotency_key like 'bench-%' and o.status = 'refunded' and r.status = 'refunded' and r.amount_cents = o.total_cents) as refunded,
      (select count(*)::int from order_refunds r where r.amount_cents <> (select coalesce(sum(l.amount_cents), 0) from order_refund_lines l where l.refund_id = r.id)) as wrong,
      (select count(*)::int from order_refunds r join orders o on o.id = r.order_id where o.status <> 'refunded') as others`);
    expect(refunds!.orders).toBeGreaterThan(0);
    expect(refunds).toEqual({ orders: refunds!.orders, refunded: refunds!.orders, wrong: 0, others: 0 });
    // A granted course is held without an order; an extension moved the membership's end to where it is.
    const [grants] = await rows<{ n: number }>(sql`select count(*)::int as n from course_grants g where not exists (select 1 from purchase_access a where a.user_id = g.user_id and a.course_id = g.course_id)`);
    expect(grants!.n).toBe(0);
    const [changes] = await rows<{ n: number }>(sql`select count(*)::int as n from membership_changes c join memberships m on m.id = c.membership_id where c.ends_after <> m.ends_at or c.ends_before >= c.ends_after`);
    expect(changes!.n).toBe(0);
    // Every visitor of an affiliate link is counted on some day of its IBO, once or twice.
    const [visits] = await rows<{ visitors: number; counted: number }>(sql`select (select count(*)::int from referrals where visitor_id like 'bench-%') as visitors, (select sum(v.visits)::int from affiliate_visits v join ibos i on i.id = v.ibo_id where i.code like 'BENCH%') as counted`);
    expect(visits!.counted).toBeGreaterThanOrEqual(visits!.visitors);
    expect(visits!.counted).toBeLessThanOrEqual(2 * visits!.visitors);
    // The kept report figures are filled although the rows were loaded without their triggers: one
    // enrolment per contact and course with progress, one result per graded attempt's question.
    const [kept] = await rows<{ enrolments: number; pairs: number; items: number; drawn: number }>(sql`select
      (select count(*)::int from enrolments) as enrolments, (select count(*)::int from (select distinct contact_id, course_id from tracking) p) as pairs,
      (select count(*)::int from exam_item_results) as items,
      (select coalesce(sum(jsonb_array_length(question_ids)), 0)::int from exam_attempts where submitted_at is not null and score is not null) as drawn`);
    expect(kept!.pairs).toBeGreaterThan(0);
    expect(kept!.enrolments).toBe(kept!.pairs);
    expect(kept!.items).toBe(kept!.drawn);
    const [active] = await rows<{ missing: number }>(sql`select count(*)::int as missing from tracking t where not exists (select 1 from learner_activity a where a.span = 'day' and a.contact_id = t.contact_id and a.starts = (t.updated_at at time zone 'UTC')::date and a.first_at <= t.updated_at)`);
    expect(active!.missing).toBe(0);
  });

  it('refuses a database that already holds a data set', async () => {
    expect(await hasDataset(handle.db)).toBe(true);
    await expect(generateDataset(handle.db, { scale: 0.002, seed: 7, at: AT })).rejects.toThrow(/already holds/);
  });
});
