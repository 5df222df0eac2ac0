/**
 * An IBO's people on the database (see `people.ts`): the list with its filters, counts and pages, each
 * listed person's courses and exam results, and one person read for a nudge. Every read starts from the
 * IBO: its prospects (`contacts_ibo_created_idx`) and the people who signed up through its link
 * (`users_referred_created_idx`), kept only when the consent rule (`visibleToIbo`) allows; a person's
 * courses come from the kept `enrolments`, their last active day from `learner_activity` (read
 * backwards from `learner_activity_contact_idx`), a purchase from `orders_user_created_idx`.
 */
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
import { num } from '../reports/reports.server';
import { visibleToIbo } from './consent.server';
import { PEOPLE_PAGE_SIZE, STUCK_DAYS, utcDayStart, type CourseStanding, type PeopleQuery, type PeopleShow, type Relation } from './people';

/**
 * The IBO's people as `(contact_id)` rows: the prospects it registered and the people who signed up
 * through its link, each kept only if the consent rule lets the IBO see them.
 */
function mine(iboId: number): SQL {
  return sql`select ct.id as contact_id from contacts ct left join users u on u.id = ct.user_id where ct.ibo_id = ${iboId} and ${visibleToIbo(iboId)}
    union
    select ct.id from users u join contacts ct on ct.user_id = u.id where u.referred_by_ibo_id = ${iboId} and ${visibleToIbo(iboId)}`;
}

/** Each of the IBO's people with what the filters read (one row per person). */
/** Each course's lessons (`lessons`: course_id, n), for the people's progress. */
const LESSONS = sql`lessons as (select tp.course_id, count(*)::int as n from subtopics st join topics tp on tp.id = st.topic_id group by 1)`;

/** An instant the database returned (a Date from one driver, a text from the other), or null. */
const instantOrNull = (v: unknown): Date | null => (v === null || v === undefined ? null : v instanceof Date ? v : new Date(String(v)));

function people(iboId: number, now: Date): SQL {
  const today = utcDayStart(now).toISOString().slice(0, 10);
  return sql`with ${LESSONS},
    people as (
      select ct.id as contact_id, ct.first_name, ct.last_name, coalesce(u.email, ct.email) as email, least(ct.created_at, u.created_at) as created_at, u.id as user_id,
        case when ct.ibo_id = ${iboId} then 'registered' else 'signedUp' end as relation,
        (select max(a.starts) from learner_activity a where a.contact_id = ct.id and a.span = 'day') as last_day,
        coalesce(e.courses, 0) as courses, coalesce(e.finished, 0) as finished, coalesce(e.passed, 0) as passed, coalesce(e.certified, 0) as certified, coalesce(e.open, 0) as open,
        u.id is not null and exists (select 1 from orders o where o.user_id = u.id and o.referring_ibo_id = ${iboId} and o.status in ('paid', 'refunded')) as bought
      from (${mine(iboId)}) m
      join contacts ct on ct.id = m.contact_id
      left join users u on u.id = ct.user_id
      left join lateral (
        select count(*) as courses,
          count(*) filter (where e.lessons_done >= l.n) as finished,
          count(e.passed_at) as passed,
          count(e.certified_at) as certified,
          count(*) filter (where e.lessons_done < l.n and e.passed_at is null) as open
        from enrolments e join lessons l on l.course_id = e.course_id where e.contact_id = ct.id
      ) e on true
    ),
    shown as (
      select p.*, to_char(p.last_day, 'YYYY-MM-DD') as last_day_text,
        p.open > 0 and (p.last_day is null or p.last_day <= ${today}::date - ${STUCK_DAYS}::int) as stuck from people p
    )`;
}

const SHOW_SQL: Record<PeopleShow, SQL> = {
  all: sql`true`,
  stuck: sql`stuck`,
  finished: sql`finished > 0`,
  passed: sql`passed > 0`,
  bought: sql`bought`,
};

/** The search: names and addresses containing the text, letter case ignored (`%` and `_` taken literally). */
function searched(q: string): SQL {
  if (!q) return sql`true`;
  const like = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql`(lower(first_name || ' ' || last_name) like ${like} or lower(email) like ${like})`;
}

/** One of the IBO's people as the list shows them. */
export interface PersonLine {
  contactId: number;
  firstName: string;
  lastName: string;
  email: string;
  relation: Relation;
  since: Date;
  lastActive: string | null;
  courses: number;
  finished: number;
  passed: number;
  certified: number;
  bought: boolean;
  stuck: boolean;
  /** Whether the person has an account (a prospect may have none yet). */
  hasAccount: boolean;
  standings: CourseStanding[];
}

/** The list: a page of people (most recently active first), how many match, and how many each filter holds. */
export interface PeoplePage {
  lines: PersonLine[];
  total: number;
  counts: Record<PeopleShow, number>;
}

export async function iboPeople(db: Db, iboId: number, query: PeopleQuery, now = new Date()): Promise<PeoplePage> {
  const base = people(iboId, now);
  // One pass: every searched person with the counts of each filter beside them, then the page of the filter asked.
  const countsOf = sql`count(*) over () as all_n, count(*) filter (where stuck) over () as stuck_n, count(*) filter (where finished > 0) over () as finished_n,
    count(*) filter (where passed > 0) over () as passed_n, count(*) filter (where bought) over () as bought_n`;
  const found = await queryRows<Record<string, unknown>>(
    db,
    sql`${base}, counted as (select shown.*, ${countsOf} from shown where ${searched(query.q)})
      select * from counted where ${SHOW_SQL[query.show]}
      order by last_day desc nulls last, created_at desc, contact_id desc limit ${PEOPLE_PAGE_SIZE} offset ${(query.page - 1) * PEOPLE_PAGE_SIZE}`,
  );
  // A page past the end has no row to carry the counts: read them alone.
  const counted = found.length > 0 ? found : await queryRows<Record<string, unknown>>(db, sql`${base} select ${countsOf} from shown where ${searched(query.q)} limit 1`);
  const c = counted[0] ?? {};
  const counts = { all: num(c.all_n), stuck: num(c.stuck_n), finished: num(c.finished_n), passed: num(c.passed_n), bought: num(c.bought_n) };
  const contactIds = found.map((r) => num(r.contact_id));
  const standings = await courseStandings(db, contactIds);
  const total = counts[query.show];
  return {
    total,
    counts,
    lines: found.map((r) => ({
      contactId: num(r.contact_id),
      firstName: String(r.first_name),
      lastName: String(r.last_name),
      email: String(r.email),
      relation: r.relation === 'registered' ? 'registered' : 'signedUp',
      since: instantOrNull(r.created_at)!,
      // The day as the database writes it, one form from both drivers.
      lastActive: typeof r.last_day_text === 'string' ? r.last_day_text : null,
      courses: num(r.courses),
      finished: num(r.finished),
      passed: num(r.passed),
      certified: num(r.certified),
      bought: r.bought === true,
      stuck: r.stuck === true,
      hasAccount: r.user_id !== null && r.user_id !== undefined,
      standings: standings.get(num(r.contact_id)) ?? [],
    })),
  };
}

/** The courses the people `contactIds` began, with their lessons done, pass, certificate and exam results, by person. */
async function courseStandings(db: Db, contactIds: readonly number[]): Promise<Map<number, CourseStanding[]>> {
  const out = new Map<number, CourseStanding[]>();
  if (contactIds.length === 0) return out;
  const found = await queryRows<Record<string, unknown>>(
    db,
    sql`with ${LESSONS} select e.contact_id, e.course_id, e.lessons_done, e.started_at, e.passed_at, e.certified_at, coalesce(l.n, 0) as lessons,
        x.best, coalesce(x.attempts, 0) as attempts
      from enrolments e
      left join lessons l on l.course_id = e.course_id
      left join lateral (
        select max(a.score) as best, count(*) as attempts from exam_attempts a join evaluations ev on ev.id = a.evaluation_id
        where ev.course_id = e.course_id and a.contact_id = e.contact_id and a.submitted_at is not null
      ) x on true
      where e.contact_id in (${sql.join(contactIds.map((id) => sql`${id}`), sql`, `)})
      order by e.contact_id, e.started_at desc, e.course_id`,
  );
  for (const r of found) {
    const id = num(r.contact_id);
    const list = out.get(id) ?? [];
    list.push({
      courseId: num(r.course_id),
      lessons: num(r.lessons),
      lessonsDone: num(r.lessons_done),
      startedAt: instantOrNull(r.started_at)!,
      passedAt: instantOrNull(r.passed_at),
      certifiedAt: instantOrNull(r.certified_at),
      bestScore: r.best === null || r.best === undefined ? null : num(r.best),
      attempts: num(r.attempts),
    });
    out.set(id, list);
  }
  return out;
}

/** One person as a nudge reads them, if they are the IBO's to see (null otherwise: nothing of them is told). */
export interface NudgeTarget {
  contactId: number;
  firstName: string;
  email: string;
  locale: 'es' | 'en' | null;
  stoppedAt: Date | null;
}

export async function nudgeTarget(db: Db, iboId: number, contactId: number): Promise<NudgeTarget | null> {
  const [r] = await queryRows<Record<string, unknown>>(
    db,
    sql`select ct.id, ct.first_name, coalesce(u.email, ct.email) as email, u.locale, ct.nudges_stopped_at from contacts ct left join users u on u.id = ct.user_id
      where ct.id = ${contactId} and ${visibleToIbo(iboId)}`,
  );
  if (!r) return null;
  return {
    contactId: num(r.id),
    firstName: String(r.first_name),
    email: String(r.email),
    locale: r.locale === 'es' || r.locale === 'en' ? r.locale : null,
    stoppedAt: instantOrNull(r.nudges_stopped_at),
  };
}
