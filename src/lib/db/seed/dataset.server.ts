/**
 * A generated academy at scale, for the reports' benchmark (`bench/dataset.ts`): learners with their
 * lesson progress, exam attempts with every answer (so item analysis has data), certificates of the
 * passed attempts, orders with lines (some refunded, some with coupons, some attributed to the IBO that
 * referred the buyer), memberships, IBOs with their referrals and prospects, support messages, sessions
 * and audit events, spread over the ~18 months before `at`.
 *
 * Everything is made inside the database by set-based statements (`INSERT … SELECT … FROM
 * generate_series`), deterministic for a seed: every choice is a hash of a row's number and the seed
 * (`hashint8extended`), never `random()`. The sizes at scale 1 are exact: 100,000 learners, 2,000,000
 * progress rows, 200,000 exam attempts and 50,000 orders (each × `scale`). It writes on top of the seeded
 * catalogue (courses, lessons, questions, books, plans) and respects every constraint of the schema, in
 * one transaction: a failure leaves nothing behind. Generated accounts end in `@bench.example`.
 */
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../client';
import { queryRows } from '../client';

/** The e-mail domain of every generated account (how a filled database is recognised). */
export const DATASET_DOMAIN = 'bench.example';

/** The sizes at scale 1 (issue: 100k learners, 2M progress rows, 200k attempts, 50k orders). */
export const FULL_SIZE = { learners: 100_000, progress: 2_000_000, attempts: 200_000, orders: 50_000 } as const;

export interface DatasetOptions {
  /** 1 for the full size; 0.001 for a hundred learners. */
  scale: number;
  /** Every choice follows from it: the same seed and scale give the same rows. */
  seed: number;
  /** The instant the data set ends at (its "now"): everything happens in the ~18 months before. */
  at: Date;
  /** Told each step as it ends, with its milliseconds. */
  log?: (step: string, ms: number) => void;
}

/** Rows per table after the generation (the whole table, seeded rows included). */
export type DatasetCounts = Record<(typeof COUNTED)[number], number>;

const COUNTED = [
  'users',
  'contacts',
  'ibos',
  'referrals',
  'tracking',
  'exam_attempts',
  'certificates',
  'orders',
  'order_items',
  'payment_attempts',
  'coupons',
  'coupon_redemptions',
  'purchase_access',
  'course_grants',
  'order_refunds',
  'order_refund_lines',
  'memberships',
  'membership_changes',
  'affiliate_visits',
  'contact_messages',
  'support_entries',
  'sessions',
  'audit_events',
] as const;

/** What was generated: the sizes asked for, the rows each table now holds, and the time it took. */
export interface DatasetSummary {
  wanted: { learners: number; progress: number; attempts: number; orders: number };
  counts: DatasetCounts;
  ms: number;
}

/** True when the database already holds a generated data set. */
export async function hasDataset(db: Db): Promise<boolean> {
  const [row] = await queryRows<{ n: number }>(db, sql.raw(`select count(*)::int as n from (select 1 from users where email like '%@${DATASET_DOMAIN}' limit 1) x`));
  return (row?.n ?? 0) > 0;
}

/** Rows per counted table. */
export async function datasetCounts(db: Db | Tx): Promise<DatasetCounts> {
  const [row] = await queryRows<Record<string, number>>(db as Db, sql.raw(`select ${COUNTED.map((t) => `(select count(*)::int from ${t}) as ${t}`).join(', ')}`));
  return row as DatasetCounts;
}

/**
 * Every foreign key of the schema checked over whole tables (an anti-join each): the constraints whose
 * rows name a missing row, with how many, e.g. `tracking_contact_id_contacts_id_fk: 3 rows`. Empty when
 * every reference holds.
 */
export async function foreignKeyViolations(db: Db | Tx): Promise<string[]> {
  const keys = await queryRows<{ name: string; child: string; parent: string; cols: string[]; pcols: string[] }>(
    db as Db,
    sql`select c.conname as name, c.conrelid::regclass::text as child, c.confrelid::regclass::text as parent,
          array(select a.attname::text from unnest(c.conkey) with ordinality k(n, o) join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.n order by k.o) as cols,
          array(select a.attname::text from unnest(c.confkey) with ordinality k(n, o) join pg_attribute a on a.attrelid = c.confrelid and a.attnum = k.n order by k.o) as pcols
        from pg_constraint c where c.contype = 'f' and c.connamespace = 'public'::regnamespace order by 1`,
  );
  const broken: string[] = [];
  for (const k of keys) {
    const q = (id: string) => `"${id.replace(/"/g, '""')}"`;
    const present = k.cols.map((c) => `x.${q(c)} is not null`).join(' and ');
    const same = k.cols.map((c, i) => `y.${q(k.pcols[i]!)} = x.${q(c)}`).join(' and ');
    const [row] = await queryRows<{ n: number }>(db as Db, sql.raw(`select count(*)::int as n from ${k.child} x where ${present} and not exists (select 1 from ${k.parent} y where ${same})`));
    if (row?.n) broken.push(`${k.name}: ${row.n} rows`);
  }
  return broken;
}

/** Generates the data set on a migrated, seeded database without one (`hasDataset`). */
export async function generateDataset(db: Db, opts: DatasetOptions): Promise<DatasetSummary> {
  if (!(opts.scale > 0 && opts.scale <= 10)) throw new RangeError('The scale is a number above 0 and at most 10.');
  if (!Number.isSafeInteger(opts.seed) || opts.seed < 0 || opts.seed > 1_000_000) throw new RangeError('The seed is a whole number from 0 to 1,000,000.');
  if (await hasDataset(db)) throw new Error('The database already holds a generated data set.');
  const started = performance.now();
  const wanted = {
    learners: Math.max(20, Math.round(FULL_SIZE.learners * opts.scale)),
    progress: Math.max(400, Math.round(FULL_SIZE.progress * opts.scale)),
    attempts: Math.max(40, Math.round(FULL_SIZE.attempts * opts.scale)),
    orders: Math.max(10, Math.round(FULL_SIZE.orders * opts.scale)),
  };
  const counts = await db.transaction(async (tx) => {
    // A superuser (PGlite's, the local server's) loads without the per-row foreign-key triggers (the
    // usual bulk load, several times faster); every foreign key is then checked at once, set-based.
    const [role] = await queryRows<{ superuser: boolean }>(tx as unknown as Db, sql`select rolsuper as superuser from pg_roles where rolname = current_user`);
    if (role?.superuser) await tx.execute(sql`select set_config('session_replication_role', 'replica', true)`);
    const statements = datasetStatements({ ...opts, ...wanted });
    for (const [step, text] of statements) {
      const t0 = performance.now();
      // One statement at a time: PGlite's queries take one each.
      for (const one of text.split(/;\n/)) {
        await tx.execute(sql.raw(one));
        // The planner's statistics of each temporary table, for the joins that read it.
        const made = /^\s*create temp table (\w+)/.exec(one);
        if (made) await tx.execute(sql.raw(`analyze ${made[1]}`));
      }
      opts.log?.(step, performance.now() - t0);
    }
    if (role?.superuser) {
      await tx.execute(sql`select set_config('session_replication_role', 'origin', true)`);
      const t0 = performance.now();
      const broken = await foreignKeyViolations(tx);
      if (broken.length) throw new Error(`The generated rows break foreign keys: ${broken.join('; ')}`);
      opts.log?.('foreign keys checked', performance.now() - t0);
    }
    // The kept report figures, which the triggers of a bulk load without them did not write.
    const t0 = performance.now();
    await tx.execute(sql`select enrolments_rebuild()`);
    await tx.execute(sql`select exam_item_results_rebuild()`);
    await tx.execute(sql`select learner_activity_rebuild()`);
    await tx.execute(sql`select revenue_lines_rebuild()`);
    opts.log?.('kept report figures', performance.now() - t0);
    return datasetCounts(tx);
  });
  return { wanted, counts, ms: performance.now() - started };
}

interface Sizes {
  scale: number;
  seed: number;
  at: Date;
  learners: number;
  progress: number;
  attempts: number;
  orders: number;
}

/** The generation's statements in order, each with the name of its step. */
export function datasetStatements(z: Sizes): [string, string][] {
  const s = z.scale;
  const ibos = Math.max(4, Math.round(60 * s));
  const prospects = Math.max(10, Math.round(15_000 * s));
  const visits = Math.max(20, Math.round(200_000 * s));
  const coupons = Math.max(5, Math.round(60 * s));
  const messages = Math.max(20, Math.round(20_000 * s));
  const audits = Math.max(50, Math.round(100_000 * s));
  const at = `'${z.at.toISOString()}'::timestamptz`;
  /** A number in [0, 1) from `expr` and a salt: the same inputs, the same number. */
  const R = (expr: string, salt: number) => `((hashint8extended((${expr})::int8, ${z.seed * 1000 + salt}) & 2147483647)::float8 / 2147483648.0)`;
  /** A whole number in [0, n). */
  const N = (expr: string, salt: number, n: string | number) => `floor(${R(expr, salt)} * (${n}))::int`;
  const secs = (x: string) => `make_interval(secs => (${x})::float8)`;
  const DAY = 86_400;
  const pick = (list: string[], expr: string, salt: number) => `(array[${list.map((v) => `'${v}'`).join(',')}])[1 + ${N(expr, salt, list.length)}]`;
  const first = ['Ana', 'Luis', 'María', 'José', 'Carmen', 'Jorge', 'Lucía', 'Pedro', 'Sofía', 'Diego', 'Elena', 'Pablo', 'Valeria', 'Andrés', 'Camila', 'Miguel', 'Isabel', 'Tomás', 'Paula', 'Daniel', 'Grace', 'John', 'Emily', 'David', 'Laura', 'Marta', 'Raúl', 'Inés', 'Hugo', 'Nora'];
  const last = ['García', 'Rodríguez', 'Martínez', 'López', 'González', 'Pérez', 'Sánchez', 'Ramírez', 'Torres', 'Flores', 'Rivera', 'Gómez', 'Díaz', 'Cruz', 'Morales', 'Reyes', 'Ortiz', 'Vargas', 'Castro', 'Romero', 'Smith', 'Johnson', 'Brown', 'Silva', 'Mendoza', 'Herrera', 'Medina', 'Aguilar', 'Navarro', 'Rojas'];
  const st: [string, string][] = [];
  const add = (step: string, text: string) => st.push([step, text]);

  // The temporary tables stay in memory (temp_buffers is taken before the first one is made).
  add('settings', `select set_config('temp_buffers', '${Math.max(16, Math.min(1024, Math.round(600 * s)))}MB', true), set_config('work_mem', '256MB', true), set_config('synchronous_commit', 'off', true)`);
  // Where the generated ids start: after what the database holds (the seed), so they never collide.
  add(
    'bases',
    `create temp table bench_base on commit drop as select
      (select coalesce(max(id), 0) from users) as u0, (select coalesce(max(id), 0) from contacts) as c0,
      (select coalesce(max(id), 0) from ibos) as i0, (select coalesce(max(id), 0) from orders) as o0,
      (select coalesce(max(id), 0) from contact_messages) as m0, (select coalesce(max(id), 0) from coupons) as k0,
      (select id from users where lower(email) = 'admin@academia.example') as admin_id`,
  );

  /* ───── IBOs, learners, prospects ───── */
  add(
    'ibos',
    `with b as (select * from bench_base), g as (select n, ${at} - ${secs(`${600 * DAY} + ${R('n', 1)} * ${30 * DAY}`)} as created from generate_series(1, ${ibos}) n),
     u as (insert into users (id, email, first_name, last_name, user_type, locale, email_verified_at, created_at)
       select b.u0 + n, 'ibo-' || n || '@${DATASET_DOMAIN}', ${pick(first, 'n', 2)}, ${pick(last, 'n', 3)}, 1, 'es', created, created from g, b returning id)
     insert into ibos (id, user_id, code, company_name, status, created_at)
       select b.i0 + n, b.u0 + n, 'BENCH' || lpad(n::text, 4, '0'), 'Bench Viajes ' || n, case when ${R('n', 4)} < 0.05 then 'suspended' else 'active' end, created from g, b`,
  );
  // One row per learner with what the later steps derive from it: ids, creation, ability, referring IBO.
  add(
    'learner plan',
    `create temp table bench_learner on commit drop as
     select i, b.u0 + ${ibos} + i as user_id, b.c0 + i as contact_id,
       ${at} - ${secs(`60 + ${548 * DAY} * power(${R('i', 10)}, 1.15)`)} as created,
       ${R('i', 11)} as ability,
       case when ${R('i', 12)} < 0.3 then b.i0 + 1 + ${N('i', 13, `${ibos}`)} * ${N('i', 14, 1000)} / 1000 end as ibo_id,
       ${pick(first, 'i', 15)} as first_name, ${pick(last, 'i', 16)} as last_name
     from generate_series(1, ${z.learners}) i, bench_base b`,
  );
  add(
    'learners',
    `insert into users (id, email, first_name, last_name, user_type, locale, gender, referred_by_ibo_id, email_verified_at, created_at)
     select user_id, 'learner-' || i || '@${DATASET_DOMAIN}', first_name, last_name, 1,
       case when ${R('i', 20)} < 0.7 then 'es' when ${R('i', 20)} < 0.9 then 'en' end,
       ${pick(['F', 'M', 'O'], 'i', 21)}, ibo_id,
       case when ${R('i', 22)} < 0.9 then created + ${secs(`60 + ${R('i', 23)} * 3600`)} end, created
     from bench_learner`,
  );
  add(
    'learner contacts',
    `insert into contacts (id, user_id, first_name, last_name, email, created_at)
     select contact_id, user_id, first_name, last_name, 'learner-' || i || '@${DATASET_DOMAIN}', created from bench_learner`,
  );
  add(
    'prospects',
    `with b as (select * from bench_base), g as (select p, b.i0 + 1 + ${N('p', 30, ibos)} as ibo_id, b.u0 + ${ibos} + ${z.learners} + p as user_id, b.c0 + ${z.learners} + p as contact_id,
        ${at} - ${secs(`60 + ${540 * DAY} * ${R('p', 31)}`)} as created, ${pick(first, 'p', 32)} as first_name, ${pick(last, 'p', 33)} as last_name from generate_series(1, ${prospects}) p, b),
     u as (insert into users (id, email, first_name, last_name, user_type, main_user_id, created_by, created_at)
       select g.user_id, 'prospect-' || p || '@${DATASET_DOMAIN}', first_name, last_name, 9, i.user_id, i.user_id, created from g join ibos i on i.id = g.ibo_id returning id)
     insert into contacts (id, user_id, first_name, last_name, email, ibo_id, created_by, created_at)
       select g.contact_id, g.user_id, first_name, last_name, 'prospect-' || p || '@${DATASET_DOMAIN}', g.ibo_id, i.user_id, created from g join ibos i on i.id = g.ibo_id`,
  );
  // Affiliate-link visits: the referred learners' (first and last touch, their account) and those that never signed up.
  add(
    'referrals',
    `insert into referrals (visitor_id, first_ibo_id, first_at, last_ibo_id, last_at, user_id)
     select 'bench-l-' || i, case when ${R('i', 40)} < 0.2 then b.i0 + 1 + ${N('i', 41, ibos)} else ibo_id end,
       created - ${secs(`3600 + ${R('i', 42)} * ${20 * DAY}`)}, ibo_id, created - ${secs(`60 + ${R('i', 43)} * 3000`)}, user_id
     from bench_learner, bench_base b where ibo_id is not null
     union all
     select 'bench-v-' || v, b.i0 + 1 + ${N('v', 44, ibos)} * ${N('v', 45, 1000)} / 1000, t, b.i0 + 1 + ${N('v', 44, ibos)} * ${N('v', 45, 1000)} / 1000, t, null
     from (select v, ${at} - ${secs(`60 + ${548 * DAY} * ${R('v', 46)}`)} as t from generate_series(1, ${visits}) v) x, bench_base b`,
  );

  /* ───── lesson progress ───── */
  add(
    'catalogue',
    `create temp table bench_course on commit drop as
     select c.id as course_id, c.price > 0 as paid, count(st.id)::int as lessons, e.id as eval_id, e.passing_score, e.minutes,
       least(e.question_count, (select count(*) from questions q where q.evaluation_id = e.id and q.retired_at is null))::int as question_count
     from courses c join topics t on t.course_id = c.id join subtopics st on st.topic_id = t.id left join evaluations e on e.course_id = c.id
     where not c.is_test and not c.hidden group by c.id, e.id;
     create temp table bench_lesson on commit drop as
     select t.course_id, row_number() over (partition by t.course_id order by t.position, st.position)::int as ord, st.id as subtopic_id
     from topics t join subtopics st on st.topic_id = t.id where t.course_id in (select course_id from bench_course)`,
  );
  // Each learner takes each course with its popularity (free courses far more than paid ones), scaled so
  // the candidates are ~25% more than the progress rows wanted; half the enrolments reach the last lesson.
  add(
    'enrolments',
    `create temp table bench_enrol on commit drop as
     with pop as (select course_id, lessons, case when paid then 0.02 + 0.03 * ${R('course_id', 50)} else 0.15 + 0.35 * ${R('course_id', 51)} end as p from bench_course),
     f as (select 1.25 * ${z.progress / z.learners} / sum(p * (0.5 * lessons + 0.5 * (lessons + 1) / 2.0)) as k from pop),
     e as (select l.i, l.contact_id, l.user_id, l.created, l.ability, pop.course_id, pop.lessons,
             ${R('l.i * 1000 + pop.course_id', 53)} < 0.5 as whole,
             l.i::int8 * 1000 + pop.course_id as h
           from bench_learner l cross join pop cross join f where ${R('l.i * 1000 + pop.course_id', 52)} < least(0.95, pop.p * f.k))
     select *, case when whole then lessons else 1 + ${N('h', 54, 'lessons')} end as done from e`,
  );
  // Exactly the rows wanted: enrolments in a hashed order, kept while the running sum of their lessons fits; the one across the line keeps fewer lessons.
  add(
    'exact progress',
    `create temp table bench_cut on commit drop as
     select *, row_number() over (order by ${R('h', 55)}, h) as n from (
       select e.*, sum(done) over (order by ${R('h', 55)}, h rows unbounded preceding) as upto from bench_enrol e) x
     where upto - done < ${z.progress};
     create temp table bench_kept on commit drop as
     select i, contact_id, user_id, created, ability, course_id, lessons, h, n,
       whole and upto <= ${z.progress} as whole, case when upto > ${z.progress} then done - (upto - ${z.progress})::int else done end as done, start,
       least(${0.2 * DAY} + ${R('h', 57)} * ${4 * DAY}, extract(epoch from ${at} - start) / (done + 4)) as gap
     from (select *, created + ${secs(`${R('h', 56)} * least(${60 * DAY}, extract(epoch from ${at} - created) * 0.5)`)} as start from bench_cut) c`,
  );
  // Lessons in order, each a gap after the one before; the last of an unfinished course still playing.
  add(
    'progress',
    `insert into tracking (contact_id, course_id, subtopic_id, last_position, furthest_position, played_seconds, completed_at, updated_at, created_at)
     select k.contact_id, k.course_id, l.subtopic_id, x.pos, x.pos, x.pos, case when l.ord < k.done or k.whole then x.t end, x.t, x.t - ${secs('x.pos')}
     from bench_kept k join bench_lesson l on l.course_id = k.course_id and l.ord <= k.done
     cross join lateral (select k.start + ${secs('k.gap * l.ord')} as t,
         round(((120 + ${R('k.h * 100 + l.ord', 58)} * 900) * (case when l.ord < k.done or k.whole then 1 else 0.4 end))::numeric, 2) as pos) x
     order by k.contact_id, l.ord`,
  );

  /* ───── exams ───── */
  add(
    'question pools',
    `create temp table bench_pool on commit drop as
     select q.evaluation_id as eval_id, (row_number() over (partition by q.evaluation_id order by q.position, q.id) - 1)::int as ord, q.id as question_id, ${R('q.id', 60)} as difficulty,
       (select jsonb_agg(o.id order by o.position) from question_options o where o.question_id = q.id) as opts,
       (select jsonb_agg(o.id order by o.position) from question_options o where o.question_id = q.id and o.is_correct) as correct,
       (select array_agg(o.id order by o.position) from question_options o where o.question_id = q.id and not o.is_correct) as wrongs
     from questions q where q.retired_at is null and q.evaluation_id in (select eval_id from bench_course);
     create temp table bench_poolsize on commit drop as select eval_id, count(*)::int as m from bench_pool group by eval_id`,
  );
  // Up to three attempts per enrolment that reached the last lesson (most who fail try again).
  add(
    'attempt plan',
    `create temp table bench_try on commit drop as
     select k.n as enrol, a.k, k.contact_id, k.course_id, c.eval_id, c.passing_score, c.minutes, c.question_count, k.ability, k.h, k.i,
       k.start + ${secs('k.gap * (k.done + a.k)')} as started
     from bench_kept k join bench_course c on c.course_id = k.course_id cross join generate_series(1, 3) a(k)
     where k.whole and c.eval_id is not null and c.question_count > 0
       and a.k <= case when ${R('k.h', 61)} < 0.1 then 1 when ${R('k.h', 61)} < 0.25 then 2 else 3 end`,
  );
  // Each drawn question (a rotation of the pool: no question twice) answered right with a chance that
  // grows with the learner's ability and shrinks with the question's difficulty; a wrong answer is most
  // often the question's first distractor, so item analysis finds one.
  add(
    'answers',
    `create temp table bench_ans on commit drop as
     select t.enrol, t.k, j, p.question_id,
       case when p.wrongs is null or ${R('t.h * 100 + t.k * 10 + j', 62)} < greatest(0.05, least(0.97, 0.3 + 0.65 * t.ability - 0.3 * p.difficulty + 0.08 * (t.k - 1)))
         then null else p.wrongs[1 + floor(power(${R('t.h * 100 + t.k * 10 + j', 63)}, 2) * array_length(p.wrongs, 1))::int] end as wrong
     from bench_try t join bench_poolsize ps on ps.eval_id = t.eval_id cross join generate_series(0, t.question_count - 1) j
     join bench_pool p on p.eval_id = t.eval_id and p.ord = (${N('t.h * 10 + t.k', 64, 'ps.m')} + j) % ps.m`,
  );
  // Graded as the exam grades (whole percent, rounded down); nothing after the first pass; exactly the attempts wanted.
  add(
    'attempts graded',
    `create temp table bench_att on commit drop as
     with gr as (select a.enrol, a.k, count(*) as total, count(*) filter (where a.wrong is null) as correct,
         jsonb_agg(a.question_id order by a.j) as qids, jsonb_object_agg(a.question_id::text, p.opts) as oorder,
         jsonb_object_agg(a.question_id::text, case when a.wrong is null then p.correct else jsonb_build_array(a.wrong) end) as answers
       from bench_ans a join bench_pool p on p.question_id = a.question_id group by a.enrol, a.k),
     g as (select t.*, gr.qids, gr.oorder, gr.answers, floor(gr.correct * 100.0 / gr.total)::int as score from bench_try t join gr using (enrol, k)),
     p as (select g.*, score >= passing_score as passed, min(k) filter (where score >= passing_score) over (partition by enrol) as firstpass from g),
     q as (select * from p where k <= coalesce(firstpass, 3)),
     c as (select enrol, count(*) as n from q group by enrol),
     r as (select enrol, n, sum(n) over (order by ${R('enrol', 65)}, enrol rows unbounded preceding) as upto from c)
     select q.*, least(q.started + ${secs(`60 + ${R('q.h * 10 + q.k', 66)} * (q.minutes * 60 - 60)`)}, ${at}) as submitted
     from q join r using (enrol) where r.upto - r.n < ${z.attempts} and q.k <= ${z.attempts} - (r.upto - r.n)`,
  );
  add(
    'exam attempts',
    `insert into exam_attempts (evaluation_id, contact_id, attempt_number, question_ids, option_order, answers, started_at, deadline_at, submitted_at, score, passed)
     select eval_id, contact_id, k, qids, oorder, answers, started, started + make_interval(mins => minutes), submitted, score, passed from bench_att order by started`,
  );
  const crockford = (x: string) => `substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((${x}) & 31)::int + 1, 1)`;
  const chars = (x: string, n: number) => Array.from({ length: n }, (_, i) => crockford(`(${x}) >> ${5 * (n - 1 - i)}`)).join(' || ');
  // A certificate for each passed attempt; its code unique by construction (the row's number in its last 8 characters).
  add(
    'certificates',
    `insert into certificates (contact_id, course_id, code, holder_name, issued_at, revoked_at, revoked_reason)
     select a.contact_id, a.course_id,
       'ACAD-B' || ${chars(`hashint8extended(a.n, ${z.seed})`, 3)} || '-' || ${chars(`hashint8extended(a.n, ${z.seed}) >> 15`, 4)} || '-' || ${chars('a.n >> 20', 4)} || '-' || ${chars('a.n', 4)},
       l.first_name || ' ' || l.last_name, a.submitted,
       case when ${R('a.n', 67)} < 0.005 then least(a.submitted + ${secs(`${R('a.n', 68)} * ${60 * DAY}`)}, ${at}) end,
       case when ${R('a.n', 67)} < 0.005 then 'Examen realizado por otra persona' end
     from (select *, row_number() over (order by submitted, enrol)::int8 as n from bench_att where passed) a join bench_learner l on l.i = a.i`,
  );

  /* ───── commerce ───── */
  add(
    'products and coupons',
    `create temp table bench_product on commit drop as
     select (row_number() over (order by kind, id) - 1)::int as idx, x.* from (
       select 'course' as kind, id, code, name_es as title_es, name_en as title_en, round(price * 100)::int as cents from courses where price > 0 and not is_test and not hidden
       union all select 'book', id, code, title_es, title_en, round(price * 100)::int from books where not hidden and price > 0
       union all select 'plan', id, code, name_es, name_en, round(price * 100)::int from plans where price > 0) x;
     insert into coupons (id, code, kind, percent, amount_cents, minimum_total_cents, created_at, expires_at)
     select b.k0 + c, 'BENCH' || lpad(c::text, 4, '0'), case when ${R('c', 70)} < 0.6 then 'percent' else 'fixed' end,
       case when ${R('c', 70)} < 0.6 then 5 + 5 * ${N('c', 71, 10)} end, case when ${R('c', 70)} >= 0.6 then 500 + 250 * ${N('c', 72, 10)} end,
       case when ${R('c', 73)} < 0.3 then 2000 else 0 end, ${at} - interval '560 days', null
     from generate_series(1, ${coupons}) c, bench_base b`,
  );
  // Orders: first one per enrolment in a paid course (the access it was bought with), then others at
  // random (books, plans, courses bought and not started); 60% one line, 30% two, 10% three.
  add(
    'order plan',
    `create temp table bench_order on commit drop as
     with forced as (select row_number() over (order by k.n) as o, k.i, greatest(k.created, k.start - ${secs(`${R('k.h', 74)} * ${2 * DAY}`)}) as created, p.idx
         from bench_kept k join bench_product p on p.kind = 'course' and p.id = k.course_id),
     f as (select o, i, created, 1 as lines, idx, true as forced from forced where o <= ${z.orders}),
     nf as (select count(*)::int as n from f)
     select * from f
     union all
     select nf.n + r, l.i, l.created + ${secs(`${R('r', 75)} * extract(epoch from ${at} - l.created)`)},
       case when ${R('r', 76)} < 0.6 then 1 when ${R('r', 76)} < 0.9 then 2 else 3 end, ${N('r', 77, '(select count(*) from bench_product)')}, false
     from nf cross join generate_series(1, ${z.orders} - nf.n) r join bench_learner l on l.i = 1 + ${N('r', 78, z.learners)}`,
  );
  add(
    'order lines',
    `create temp table bench_line on commit drop as
     select o.o, p.* from bench_order o cross join generate_series(0, least(o.lines, (select count(*) from bench_product)::int) - 1) j
     join bench_product p on p.idx = (o.idx + j) % (select count(*) from bench_product)`,
  );
  add(
    'order totals',
    `create temp table bench_o2 on commit drop as
     with s as (select o, sum(cents)::int as sub from bench_line group by o),
     x as (select o.*, s.sub, b.o0 + o.o as order_id, l.user_id, l.ibo_id,
         case when o.forced then (case when ${R('o.o', 79)} < 0.03 then 'refunded' else 'paid' end)
              else (case when ${R('o.o', 79)} < 0.08 then 'failed' when ${R('o.o', 79)} < 0.13 then 'refunded' else 'paid' end) end as status,
         case when ${R('o.o', 80)} < 0.15 then b.k0 + 1 + floor(power(${R('o.o', 81)}, 1.5) * ${coupons})::int end as wanted_coupon
       from bench_order o join s using (o) join bench_learner l on l.i = o.i cross join bench_base b)
     select x.*, cp.id as coupon_id, cp.code as coupon_code,
       case when cp.id is null then 0 when cp.kind = 'percent' then least(x.sub, floor((x.sub * cp.percent + 50) / 100)::int) else least(cp.amount_cents, x.sub) end as discount,
       x.created + ${secs(`5 + ${R('x.o', 82)} * 60`)} as paid
     from x left join coupons cp on cp.id = x.wanted_coupon and x.sub >= cp.minimum_total_cents`,
  );
  add(
    'orders',
    `insert into orders (id, user_id, status, subtotal_cents, discount_cents, total_cents, currency_code, country_code, coupon_code, referring_ibo_id, language, idempotency_key, failure_reason, card_brand, card_last4, card_expiry_month, card_expiry_year, created_at, paid_at)
     select order_id, user_id, status, sub, discount, sub - discount, 'USD', ${pick(['USA', 'COL', 'MEX', 'PER', 'ECU', 'ESP', 'CHL'], 'o', 83)}, coupon_code,
       case when ibo_id is not null and ${R('o', 84)} < 0.8 then ibo_id end, case when ${R('o', 85)} < 0.75 then 'es' else 'en' end, 'bench-' || o,
       case when status = 'failed' then ${pick(['declined', 'insufficient-funds'], 'o', 86)} end, ${pick(['visa', 'visa', 'mastercard', 'mastercard', 'amex', 'discover'], 'o', 87)},
       lpad(${N('o', 88, 10000)}::text, 4, '0'), 1 + ${N('o', 89, 12)}, 2027 + ${N('o', 90, 5)}, created, case when status <> 'failed' then paid end
     from bench_o2;
     insert into order_items (order_id, product_kind, product_id, product_code, title_es, title_en, price_cents)
     select o.order_id, l.kind, l.id, l.code, l.title_es, l.title_en, l.cents from bench_line l join bench_o2 o using (o);
     insert into payment_attempts (order_id, attempt_number, gateway, idempotency_key, charge_id, status, amount_cents, created_at, finished_at)
     select order_id, 1, 'sandbox', 'bench-pay-' || o, case when status <> 'failed' then 'ch_bench_' || o end,
       case when status = 'failed' then ${pick(['declined', 'insufficient-funds'], 'o', 86)} else 'approved' end, sub - discount, created, paid from bench_o2;
     insert into coupon_redemptions (order_id, coupon_id, user_id, discount_cents, created_at)
     select order_id, coupon_id, user_id, discount, created from bench_o2 where coupon_id is not null and status <> 'failed';
     update coupons c set uses = c.uses + x.n from (select coupon_id, count(*)::int as n from bench_o2 where coupon_id is not null and status <> 'failed' group by coupon_id) x where c.id = x.coupon_id`,
  );
  // Each refunded order that charged something refunded whole by staff within ten days, as the back office does: the refund at the
  // gateway and its lines, the total shared among the lines in proportion to their prices (the first line
  // takes what rounding leaves).
  add(
    'refunds',
    `insert into order_refunds (order_id, request_key, idempotency_key, gateway, charge_id, amount_cents, reason, actor_id, status, gateway_refund_id, created_at, finished_at)
     select order_id, 'bench-refund-' || o, 'bench-refund-' || o, 'sandbox', 'ch_bench_' || o, sub - discount,
       ${pick(['El curso no era lo que esperaba', 'Compra duplicada', 'Requested by the customer', 'Cargo no reconocido'], 'o', 94)}, b.admin_id, 'refunded', 're_bench_' || o, r, r
     from (select *, least(paid + ${secs(`60 + ${R('o', 95)} * ${10 * DAY}`)}, ${at}) as r from bench_o2 where status = 'refunded' and sub > discount) x, bench_base b;
     insert into order_refund_lines (refund_id, order_item_id, amount_cents)
     select refund_id, item_id, share + case when k = 1 then amount - sum(share) over (partition by refund_id) else 0 end
     from (select r.id as refund_id, i.id as item_id, r.amount_cents as amount, row_number() over (partition by r.id order by i.id) as k,
             floor(i.price_cents::numeric * r.amount_cents / nullif(o.subtotal_cents, 0))::int as share
           from order_refunds r join orders o on o.id = r.order_id join order_items i on i.order_id = o.id where r.request_key like 'bench-refund-%') l`,
  );
  // Access bought (not what was refunded); memberships of the plans bought: active, renewed up to now, cancelled, or refunded.
  add(
    'access and memberships',
    `insert into purchase_access (user_id, course_id, order_id, granted_at)
     select o.user_id, l.id, o.order_id, o.paid from bench_o2 o join bench_line l using (o) where l.kind = 'course' and o.status = 'paid'
     on conflict do nothing;
     insert into memberships (user_id, plan_id, order_id, starts_at, ends_at, period, price_cents, cancelled_at, renewals, gateway, gateway_token, card_brand, card_last4)
     select user_id, plan_id, order_id, paid,
       case when status = 'refunded' then cancelled
            when first_end > ${at} or not renews then first_end
            else paid + (case when period = 'month' then make_interval(months => months_since + 1) else make_interval(years => months_since / 12 + 1) end) end,
       period, cents,
       case when status = 'refunded' then cancelled when first_end <= ${at} and not renews then first_end - ${secs(`${R('o', 92)} * ${5 * DAY}`)} end,
       case when status = 'paid' and first_end <= ${at} and renews then (case when period = 'month' then months_since else months_since / 12 end) else 0 end,
       'sandbox', 'tok_bench_' || o, 'visa', '4242'
     from (select distinct on (o.user_id, l.id) o.o, o.user_id, l.id as plan_id, o.order_id, o.paid, o.status, l.cents, p.period,
             o.paid + (case when p.period = 'month' then interval '1 month' else interval '1 year' end) as first_end,
             least(o.paid + ${secs(`${R('o.o', 91)} * ${5 * DAY}`)}, ${at}) as cancelled,
             ${R('o.o', 93)} < 0.5 as renews,
             (extract(year from age(${at}, o.paid)) * 12 + extract(month from age(${at}, o.paid)))::int as months_since
           from bench_o2 o join bench_line l using (o) join plans p on p.id = l.id
           where l.kind = 'plan' and o.status <> 'failed' order by o.user_id, l.id, o.paid desc) m`,
  );

  // Courses granted by staff (a scholarship, a compensation) to a few learners: the access and its record.
  add(
    'grants',
    `create temp table bench_grant on commit drop as
     select l.user_id, c.course_id, greatest(l.created, ${at} - ${secs(`60 + ${R('l.i', 97)} * ${500 * DAY}`)}) as t, ${pick(['Beca del programa de formación', 'Compensación por una caída del servicio', 'Scholarship'], 'l.i', 98)} as reason
     from bench_learner l
     join (select course_id, (row_number() over (order by course_id) - 1)::int as k from bench_course where paid) c on c.k = ${N('l.i', 99, '(select count(*) from bench_course where paid)')}
     where ${R('l.i', 96)} < greatest(0.003, 4.0 / ${z.learners});
     insert into purchase_access (user_id, course_id, order_id, granted_at) select user_id, course_id, null, t from bench_grant on conflict do nothing;
     insert into course_grants (user_id, course_id, granted_by, reason, granted_at) select g.user_id, g.course_id, b.admin_id, g.reason, g.t from bench_grant g, bench_base b`,
  );
  // Memberships extended by staff (7 or 30 days, a compensation): the change with the period's end before and after.
  add(
    'membership changes',
    `insert into membership_changes (membership_id, kind, days, reason, actor_id, request_key, ends_before, ends_after, created_at)
     select m.id, 'extend', m.d, 'Compensación por una caída del servicio', b.admin_id, 'bench-change-' || m.id, m.ends_at - make_interval(days => m.d), m.ends_at,
       least(m.starts_at + ${secs(`3600 + ${R('m.id', 142)} * ${5 * DAY}`)}, ${at})
     from (select m.*, case when ${R('m.id', 141)} < 0.5 then 7 else 30 end as d from memberships m join users u on u.id = m.user_id
           where u.email like '%@${DATASET_DOMAIN}' and m.cancelled_at is null
             and ${R('m.id', 140)} < greatest(0.05, 4.0 / (select count(*) from memberships where cancelled_at is null))) m, bench_base b`,
  );
  // The affiliate links' visits per IBO and day, the first step of the acquisition funnel: each visitor
  // counted on the day of their last visit, a third of them visiting twice.
  add(
    'affiliate visits',
    `insert into affiliate_visits (ibo_id, day, visits)
     select last_ibo_id, (last_at at time zone 'UTC')::date, count(*) + count(*) filter (where ${R("hashtext(visitor_id)", 143)} < 0.33)
     from referrals where visitor_id like 'bench-%' group by 1, 2`,
  );

  /* ───── support, sessions, audit ───── */
  add(
    'support inbox',
    `create temp table bench_msg on commit drop as
     select m, b.m0 + m as id, b.admin_id, ${at} - ${secs(`60 + ${548 * DAY} * power(${R('m', 100)}, 1.2)`)} as created from generate_series(1, ${messages}) m, bench_base b;
     insert into contact_messages (id, type_id, name, last_name, email, country_phone_code, phone, description, country_code, language, accepts, created_at, status, assignee_id)
     select id, (select array_agg(id order by id) from contact_us_types)[1 + ${N('m', 101, '(select count(*) from contact_us_types)')}],
       ${pick(first, 'm', 102)}, ${pick(last, 'm', 103)}, 'sender-' || m || '@${DATASET_DOMAIN}', '+57', '3' || lpad(${N('m', 104, 1_000_000_000)}::text, 9, '0'),
       ${pick(['No puedo ver el video de la lección 3.', 'Quiero una factura de mi compra.', 'How do I become an IBO?', '¿Cuándo abre el próximo curso?', 'My payment was declined twice.', 'Olvidé mi contraseña y no llega el correo.'], 'm', 105)},
       ${pick(['COL', 'MEX', 'USA', 'PER', 'ESP'], 'm', 106)}, case when ${R('m', 107)} < 0.75 then 'es' else 'en' end, true, created,
       case when created > ${at} - interval '7 days' then (case when ${R('m', 108)} < 0.6 then 'new' else 'in_progress' end)
            else (case when ${R('m', 108)} < 0.02 then 'new' when ${R('m', 108)} < 0.05 then 'in_progress' when ${R('m', 108)} < 0.5 then 'answered' else 'closed' end) end,
       null
     from bench_msg;
     update contact_messages c set assignee_id = b.admin_id from bench_msg b where c.id = b.id and c.status <> 'new' and ${R('b.m', 109)} < 0.8;
     insert into support_entries (message_id, kind, author_id, body, locale, request_key, created_at, sent_at)
     select c.id, case when c.status = 'in_progress' then 'note' else 'reply' end, b.admin_id,
       case when c.status = 'in_progress' then 'Revisando con facturación.' else 'Gracias por escribirnos: ya está resuelto.' end,
       case when c.status = 'in_progress' then null else c.language end, 'bench-' || b.m,
       least(c.created_at + ${secs(`3600 + ${R('b.m', 110)} * ${2 * DAY}`)}, ${at}), case when c.status <> 'in_progress' then least(c.created_at + ${secs(`3660 + ${R('b.m', 110)} * ${2 * DAY}`)}, ${at}) end
     from contact_messages c join bench_msg b on b.id = c.id where c.status <> 'new'`,
  );
  add(
    'sessions',
    `insert into sessions (token_hash, kind, user_id, created_at, expires_at, last_seen_at, user_agent, address)
     select encode(sha256(('bench-session-${z.seed}-' || i)::bytea), 'hex'), 'user', user_id, t, ${at} + interval '25 days', t + interval '1 hour',
       ${pick(['Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0', 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) Safari/604.1', 'Mozilla/5.0 (Linux; Android 15) Chrome/131.0'], 'i', 121)},
       '203.0.113.' || (i % 250)
     from (select i, user_id, greatest(created, ${at} - ${secs(`${R('i', 122)} * ${20 * DAY}`)}) as t from bench_learner where ${R('i', 120)} < 0.2) x`,
  );
  add(
    'audit events',
    `insert into audit_events (at, action, actor, subject, before, after)
     select ${at} - ${secs(`60 + ${548 * DAY} * ${R('e', 130)}`)}, (array['privacy.export.requested', 'privacy.deletion.scheduled', 'staff.role.granted', 'coupons.created', 'support.status', 'support.reply', 'support.note', 'support.assign', 'questions.question.edited', 'books.created'])[1 + a],
       case when a < 2 then 'user:' || (b.u0 + ${ibos} + 1 + ${N('e', 132, z.learners)}) else 'user:' || b.admin_id end,
       case when a < 3 then 'user:' || (b.u0 + ${ibos} + 1 + ${N('e', 132, z.learners)}) when a = 3 then 'coupon:' || (b.k0 + 1 + ${N('e', 133, coupons)}) when a < 8 then 'message:' || (b.m0 + 1 + ${N('e', 134, messages)}) else 'course:1' end,
       jsonb_build_object('status', 'new'), jsonb_build_object('status', 'answered')
     from (select e, ${N('e', 131, 10)} as a from generate_series(1, ${audits}) e) x, bench_base b`,
  );
  add(
    'sequences',
    `select ${['users', 'contacts', 'ibos', 'orders', 'contact_messages', 'coupons'].map((t) => `setval(pg_get_serial_sequence('${t}', 'id'), (select max(id) from ${t}))`).join(', ')}`,
  );
  return st;
}
