/**
 * The reports' queries: every figure is an aggregate computed by the database (never rows loaded to be
 * counted here), each in one statement over the filter's range, found through the indexes of the
 * reports' migration. What the reports count:
 *
 * - an enrolment: a contact's first lesson progress on a course (`tracking.created_at` of their earliest
 *   row there), read from the kept `enrolments` (migration 0034, with their lessons done, first pass and
 *   certificate); a completion: a certificate issued and not revoked (as on the dashboard);
 * - the progress funnel: the contacts who enrolled in the period, and how far each got by now, every
 *   step within the one before: half the course's lessons completed, all of them, the exam passed, the
 *   certificate;
 * - the exam results: graded attempts in the period; item analysis reads each drawn question as graded
 *   by the exams' rule (exactly the right options, of the version the attempt drew), kept per attempt in
 *   `exam_item_results` (migration 0034);
 * - revenue: `revenueLines`, the one place that says what was earned and refunded (see there);
 * - acquisition per IBO: affiliate-link visits counted per day, prospects the IBO registered, people who
 *   signed up through the IBO's link, and buyers whose order the IBO referred, each in the period.
 *
 * The IBO filter of learning figures is the learner's IBO: the one whose link they signed up through,
 * else the IBO who registered them as a prospect.
 */
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
import { bucketsOf, fillBuckets, type Bucket, type ReportFilter } from './reports';

/** Rows of a raw statement. */
const rows = queryRows;

/** A count or sum the database returns (bigint and numeric may come back as strings). */
export function num(value: unknown): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : value === null || value === undefined ? 0 : Number.NaN;
  if (!Number.isFinite(n)) throw new RangeError(`The database returned a figure that is not a number: ${String(value)}`);
  return n;
}

const iso = (at: Date) => sql`${at.toISOString()}::timestamptz`;
export const inRange = (column: SQL, f: Pick<ReportFilter, 'from' | 'to'>) => sql`${column} >= ${iso(f.from)} and ${column} < ${iso(f.to)}`;
const BUCKET_SQL: Record<Bucket, SQL> = { day: sql.raw(`'day'`), week: sql.raw(`'week'`), month: sql.raw(`'month'`) };
/** The bucket of an instant as `YYYY-MM-DD` (weeks start on Monday in PostgreSQL too). */
export const bucketOf = (column: SQL, bucket: Bucket) => sql`to_char(date_trunc(${BUCKET_SQL[bucket]}, ${column} at time zone 'UTC'), 'YYYY-MM-DD')`;

/** The course filters on a course id column (`true` without any). */
export function courseScope(courseId: SQL, f: ReportFilter): SQL {
  const conds: SQL[] = [];
  if (f.courseId !== undefined) conds.push(sql`c.id = ${f.courseId}`);
  if (f.categoryId !== undefined) conds.push(sql`c.category_id = ${f.categoryId}`);
  if (f.businessId !== undefined) conds.push(sql`c.business_id = ${f.businessId}`);
  if (conds.length === 0) return sql`true`;
  return sql`${courseId} in (select c.id from courses c where ${sql.join(conds, sql` and `)})`;
}

/** The IBO filter on a contact id column: the learner's IBO (`true` without it). */
function learnerIboScope(contactId: SQL, f: ReportFilter): SQL {
  if (f.iboId === undefined) return sql`true`;
  return sql`(select coalesce(u.referred_by_ibo_id, ct.ibo_id) from contacts ct left join users u on u.id = ct.user_id where ct.id = ${contactId}) = ${f.iboId}`;
}

/** The kept enrolments (alias `e`, migration 0034) begun in the period that match the filters. */
function enrolmentRows(f: ReportFilter): SQL {
  return sql`enrolments e where ${inRange(sql`e.started_at`, f)} and ${courseScope(sql`e.course_id`, f)} and ${learnerIboScope(sql`e.contact_id`, f)}`;
}

/* ───────────── (a) enrolments and completions ───────────── */

export interface EnrolmentsReport {
  series: { bucket: string; enrolments: number; completions: number }[];
  totals: { enrolments: number; completions: number };
}

export async function enrolmentsReport(db: Db, f: ReportFilter): Promise<EnrolmentsReport> {
  const found = await rows<{ bucket: string; enrolments: unknown; completions: unknown }>(
    db,
    sql`with n as (select ${bucketOf(sql`e.started_at`, f.bucket)} as bucket, count(*) as n from ${enrolmentRows(f)} group by 1),
      k as (select ${bucketOf(sql`k.issued_at`, f.bucket)} as bucket, count(*) as n from certificates k
            where ${inRange(sql`k.issued_at`, f)} and k.revoked_at is null and ${courseScope(sql`k.course_id`, f)} and ${learnerIboScope(sql`k.contact_id`, f)} group by 1)
    select coalesce(n.bucket, k.bucket) as bucket, coalesce(n.n, 0) as enrolments, coalesce(k.n, 0) as completions from n full join k on k.bucket = n.bucket`,
  );
  const series = fillBuckets(f, found.map((r) => ({ bucket: r.bucket, enrolments: num(r.enrolments), completions: num(r.completions) })), ['enrolments', 'completions']);
  return { series, totals: { enrolments: series.reduce((s, r) => s + r.enrolments, 0), completions: series.reduce((s, r) => s + r.completions, 0) } };
}

/* ───────────── (b) the progress funnel per course ───────────── */

export interface FunnelRow {
  courseId: number;
  nameEs: string;
  nameEn: string;
  lessons: number;
  started: number;
  half: number;
  all: number;
  passed: number;
  certified: number;
}

export async function funnelReport(db: Db, f: ReportFilter): Promise<FunnelRow[]> {
  const found = await rows<Record<string, unknown>>(
    db,
    sql`with cohort as (select e.course_id, e.lessons_done as done, e.passed_at is not null as passed, e.certified_at is not null as certified from ${enrolmentRows(f)}),
      lessons as (select tp.course_id, count(*)::int as n from subtopics s join topics tp on tp.id = s.topic_id where tp.course_id in (select course_id from cohort) group by 1),
      reached as (select co.*, coalesce(l.n, 0) as n from cohort co left join lessons l on l.course_id = co.course_id)
    select r.course_id, c.name_es, c.name_en, max(r.n) as lessons, count(*) as started,
      count(*) filter (where r.n > 0 and r.done * 2 >= r.n) as half,
      count(*) filter (where r.n > 0 and r.done >= r.n) as "all",
      count(*) filter (where r.n > 0 and r.done >= r.n and r.passed) as passed,
      count(*) filter (where r.n > 0 and r.done >= r.n and r.passed and r.certified) as certified
    from reached r join courses c on c.id = r.course_id
    group by r.course_id, c.name_es, c.name_en order by started desc, r.course_id`,
  );
  return found.map((r) => ({
    courseId: num(r.course_id),
    nameEs: String(r.name_es),
    nameEn: String(r.name_en),
    lessons: num(r.lessons),
    started: num(r.started),
    half: num(r.half),
    all: num(r.all),
    passed: num(r.passed),
    certified: num(r.certified),
  }));
}

/* ───────────── (c) exam results and item analysis ───────────── */

export interface ExamSummaryRow {
  courseId: number;
  nameEs: string;
  nameEn: string;
  attempts: number;
  passed: number;
  averageScore: number | null;
}

/** Graded attempts in the period, per course's exam. */
export async function examSummary(db: Db, f: ReportFilter): Promise<ExamSummaryRow[]> {
  const found = await rows<Record<string, unknown>>(
    db,
    sql`select c.id as course_id, c.name_es, c.name_en, count(*) as attempts, count(*) filter (where a.passed) as passed, round(avg(a.score), 1) as average
    from exam_attempts a join evaluations ev on ev.id = a.evaluation_id join courses c on c.id = ev.course_id
    where a.submitted_at is not null and ${inRange(sql`a.submitted_at`, f)} and ${courseScope(sql`ev.course_id`, f)} and ${learnerIboScope(sql`a.contact_id`, f)}
    group by c.id, c.name_es, c.name_en order by attempts desc, c.id`,
  );
  return found.map((r) => ({ courseId: num(r.course_id), nameEs: String(r.name_es), nameEn: String(r.name_en), attempts: num(r.attempts), passed: num(r.passed), averageScore: r.average === null ? null : num(r.average) }));
}

export interface ItemRow {
  questionId: number;
  position: number;
  promptEs: string;
  promptEn: string;
  retired: boolean;
  answers: number;
  right: number;
  /** Point-biserial correlation of answering right with the attempt's score (null: undefined). */
  discrimination: number | null;
  wrong: { optionId: number; textEs: string; textEn: string; times: number } | null;
}

/** The kept question results (alias `r`) of one course's exam graded in the period. */
function answered(courseId: number, f: ReportFilter): SQL {
  return sql`exam_item_results r where r.course_id = ${courseId} and ${inRange(sql`r.submitted_at`, f)} and ${learnerIboScope(sql`r.contact_id`, f)}`;
}

/** Item analysis of one course's exam: per question drawn in the period, its figures and the wrong option chosen most. */
export async function itemAnalysis(db: Db, courseId: number, f: ReportFilter): Promise<ItemRow[]> {
  const stats = await rows<Record<string, unknown>>(
    db,
    sql`with g as (select r.question_id as qid, r.score, r.is_right from ${answered(courseId, f)})
    select g.qid, q.position, q.prompt_es, q.prompt_en, q.retired_at is not null as retired, count(*) as answers, count(*) filter (where g.is_right) as right_count,
      corr(case when g.is_right then 1 else 0 end, g.score) as discrimination
    from g join questions q on q.id = g.qid group by g.qid, q.position, q.prompt_es, q.prompt_en, q.retired_at order by q.retired_at is not null, q.position, g.qid`,
  );
  const wrong = await rows<Record<string, unknown>>(
    db,
    sql`with missed as (select r.question_id as qid, r.wrong_options from ${answered(courseId, f)} and cardinality(r.wrong_options) > 0),
      chosen as (select m.qid, w.opt, count(*) as times from missed m cross join lateral unnest(m.wrong_options) as w(opt) group by 1, 2),
      ranked as (select chosen.*, row_number() over (partition by qid order by times desc, opt) as rank from chosen)
    select r.qid, r.opt, r.times, o.text_es, o.text_en from ranked r join question_options o on o.id = r.opt and o.question_id = r.qid where r.rank = 1`,
  );
  const wrongBy = new Map(wrong.map((w) => [num(w.qid), { optionId: num(w.opt), textEs: String(w.text_es), textEn: String(w.text_en), times: num(w.times) }]));
  return stats.map((r) => ({
    questionId: num(r.qid),
    position: num(r.position),
    promptEs: String(r.prompt_es),
    promptEn: String(r.prompt_en),
    retired: r.retired === true,
    answers: num(r.answers),
    right: num(r.right_count),
    discrimination: r.discrimination === null ? null : num(r.discrimination),
    wrong: wrongBy.get(num(r.qid)) ?? null,
  }));
}

/* ───────────── (d) revenue ───────────── */

/** Whether a course filter leaves only some lines of an order (then orders are counted by their distinct ids). */
const linesFiltered = (f: ReportFilter) => f.courseId !== undefined || f.categoryId !== undefined || f.businessId !== undefined;

/**
 * Revenue's lines in the period, as a `lines` CTE: the kept `revenue_lines` (migration 0036, whose
 * `revenue_lines_refresh` is the one definition of what a line earned and what was refunded) of orders
 * paid in the period (`paid_at`; a refund shows in the period of its payment), for the filters. With a
 * course filter only the matching course lines are left, and an order is counted by its distinct id;
 * otherwise by the lines that are its last (of the order, or of its kind).
 */
export function revenueLines(f: ReportFilter): SQL {
  const lineScope = linesFiltered(f) ? sql`l.product_kind = 'course' and ${courseScope(sql`l.product_id`, f)}` : sql`true`;
  return sql`lines as (
      select l.* from revenue_lines l
      where ${inRange(sql`l.paid_at`, f)} and ${f.iboId === undefined ? sql`true` : sql`l.referring_ibo_id = ${f.iboId}`} and ${lineScope})`;
}

export interface RevenueRow {
  key: string;
  labelEs: string;
  labelEn: string;
  orders: number;
  gross: number;
  refunded: number;
  net: number;
}

export interface RevenueReport {
  byDay: (RevenueRow & { bucket: string })[];
  byCourse: RevenueRow[];
  byKind: RevenueRow[];
  byCoupon: RevenueRow[];
  byIbo: RevenueRow[];
  totals: Omit<RevenueRow, 'key' | 'labelEs' | 'labelEn'>;
}

const REVENUE_BREAKDOWNS = ['byDay', 'byCourse', 'byKind', 'byCoupon', 'byIbo'] as const;

export async function revenueReport(db: Db, f: ReportFilter): Promise<RevenueReport> {
  const groups: Record<(typeof REVENUE_BREAKDOWNS)[number], { key: SQL; labelEs: SQL; labelEn: SQL; from?: SQL }> = {
    byDay: { key: bucketOf(sql`l.paid_at`, f.bucket), labelEs: sql`''`, labelEn: sql`''` },
    byCourse: { key: sql`l.product_id::text`, labelEs: sql`min(l.title_es)`, labelEn: sql`min(l.title_en)`, from: sql`l.product_kind = 'course'` },
    byKind: { key: sql`l.product_kind`, labelEs: sql`''`, labelEn: sql`''` },
    byCoupon: { key: sql`coalesce(l.coupon_code, '')`, labelEs: sql`''`, labelEn: sql`''` },
    byIbo: { key: sql`coalesce(l.referring_ibo_id::text, '')`, labelEs: sql`coalesce(min(b.code || ' · ' || b.company_name), '')`, labelEn: sql`coalesce(min(b.code || ' · ' || b.company_name), '')` },
  };
  // An order's lines share its day, coupon and IBO, and it holds a course once: counting the lines that
  // are its last (of the order, of a kind) counts each order once without sorting them.
  const ordersOf = (name: (typeof REVENUE_BREAKDOWNS)[number] | 'totals'): SQL =>
    linesFiltered(f) ? sql`count(distinct l.order_id)` : name === 'byCourse' ? sql`count(*)` : name === 'byKind' ? sql`count(*) filter (where l.last_of_kind)` : sql`count(*) filter (where l.last_of_order)`;
  const parts = REVENUE_BREAKDOWNS.map(
    (name) =>
      sql`select ${sql.raw(`'${name}'`)}::text as breakdown, ${groups[name].key} as key, ${groups[name].labelEs} as label_es, ${groups[name].labelEn} as label_en, ${ordersOf(name)} as orders, sum(l.gross) as gross, sum(l.refunded) as refunded
      from lines l left join ibos b on b.id = l.referring_ibo_id where ${groups[name].from ?? sql`true`} group by 2`,
  );
  const found = await rows<Record<string, unknown>>(
    db,
    sql`with ${revenueLines(f)} ${sql.join(parts, sql` union all `)}
      union all select 'totals', '', '', '', ${ordersOf('totals')}, coalesce(sum(l.gross), 0), coalesce(sum(l.refunded), 0) from lines l`,
  );
  const row = (r: Record<string, unknown>): RevenueRow => {
    const gross = num(r.gross);
    const refunded = num(r.refunded);
    return { key: String(r.key), labelEs: String(r.label_es), labelEn: String(r.label_en), orders: num(r.orders), gross, refunded, net: gross - refunded };
  };
  const of = (name: string) => found.filter((r) => r.breakdown === name).map(row).sort((a, b) => b.net - a.net || a.key.localeCompare(b.key));
  const days = new Map(of('byDay').map((r) => [r.key, r]));
  const byDay = bucketsOf(f).map((bucket) => ({ bucket, ...(days.get(bucket) ?? { key: bucket, labelEs: '', labelEn: '', orders: 0, gross: 0, refunded: 0, net: 0 }) }));
  const total = found.find((r) => r.breakdown === 'totals');
  const totals = total ? row(total) : { orders: 0, gross: 0, refunded: 0, net: 0 };
  return { byDay, byCourse: of('byCourse'), byKind: of('byKind'), byCoupon: of('byCoupon'), byIbo: of('byIbo'), totals: { orders: totals.orders, gross: totals.gross, refunded: totals.refunded, net: totals.net } };
}

/* ───────────── (e) acquisition per IBO ───────────── */

export interface AcquisitionRow {
  iboId: number;
  code: string;
  companyName: string;
  visits: number;
  prospects: number;
  registered: number;
  buyers: number;
}

/** The IBOs with anything in the period (or the one filtered), most visits first. */
export async function acquisitionReport(db: Db, f: ReportFilter): Promise<AcquisitionRow[]> {
  const courseFilter = f.courseId !== undefined || f.categoryId !== undefined || f.businessId !== undefined;
  const found = await rows<Record<string, unknown>>(
    db,
    sql`select * from (select b.id, b.code, b.company_name,
        (select coalesce(sum(v.visits), 0) from affiliate_visits v where v.ibo_id = b.id and v.day between ${f.fromDay}::date and ${f.toDay}::date) as visits,
        (select count(*) from contacts ct where ct.ibo_id = b.id and ${inRange(sql`ct.created_at`, f)}) as prospects,
        (select count(*) from users u where u.referred_by_ibo_id = b.id and ${inRange(sql`u.created_at`, f)}) as registered,
        (select count(distinct o.user_id) from orders o where o.referring_ibo_id = b.id and o.status in ('paid', 'refunded') and ${inRange(sql`o.paid_at`, f)}
          and ${courseFilter ? sql`exists (select 1 from order_items i where i.order_id = o.id and i.product_kind = 'course' and ${courseScope(sql`i.product_id`, f)})` : sql`true`}) as buyers
      from ibos b where ${f.iboId === undefined ? sql`true` : sql`b.id = ${f.iboId}`}) x
    where ${f.iboId === undefined ? sql`x.visits + x.prospects + x.registered + x.buyers > 0` : sql`true`}
    order by x.visits desc, x.registered desc, x.id`,
  );
  return found.map((r) => ({ iboId: num(r.id), code: String(r.code), companyName: String(r.company_name), visits: num(r.visits), prospects: num(r.prospects), registered: num(r.registered), buyers: num(r.buyers) }));
}

/* ───────────── the filters' choices ───────────── */

export interface FilterChoices {
  courses: { id: number; nameEs: string; nameEn: string }[];
  categories: { id: number; nameEs: string; nameEn: string }[];
  businesses: { id: number; nameEs: string; nameEn: string }[];
  ibos: { id: number; code: string; companyName: string }[];
}

/** What the filter form offers (the catalogue's courses, categories and business lines, and the IBOs). */
export async function filterChoices(db: Db): Promise<FilterChoices> {
  const named = (table: string) => rows<{ id: number; name_es: string; name_en: string }>(db, sql`select id, name_es, name_en from ${sql.raw(table)} order by ${sql.raw(table === 'courses' ? 'name_es' : 'position, id')}`);
  const [courses, categories, businesses, ibos] = await Promise.all([
    named('courses'),
    named('categories'),
    named('businesses'),
    rows<{ id: number; code: string; company_name: string }>(db, sql`select id, code, company_name from ibos order by code`),
  ]);
  const n = (r: { id: number; name_es: string; name_en: string }) => ({ id: num(r.id), nameEs: r.name_es, nameEn: r.name_en });
  return { courses: courses.map(n), categories: categories.map(n), businesses: businesses.map(n), ibos: ibos.map((r) => ({ id: num(r.id), code: r.code, companyName: r.company_name })) };
}
