/**
 * Exam load benchmark (not a test: it asserts nothing). Starts the production server on a fresh PGlite
 * database holding N learners (default 1,000) who completed every lesson of course 1, each with a
 * session of known token, and the course's exam shortened to `--minutes` (default 1). Then, as
 * browsers do:
 *
 *   1. every learner starts the exam within `--spread` seconds (default 10; random moments): the start
 *      action, then the exam page (which holds the drawn questions);
 *   2. each saves an answer every 5 s (a random option of a random question of their attempt) until
 *      their own deadline on the server's clock;
 *   3. at the deadline every learner submits — one in ten twice at once (a double click) — while the
 *      server's own grading job runs too.
 *
 * Before that, 50 other learners warm the server up for `--warmup` seconds (default 10; 0 for none),
 * starting, opening and answering the exam over and over: the figures are a serving process's, not
 * those of its first seconds, when its code is not yet compiled. They are not in the figures or checks.
 *
 * Prints latency p50/p99/max of starts, exam pages, saves and submits, errors, the server's RSS, and
 * after the server's clean shutdown checks the database: every acknowledged answer stored (lost
 * answers), every attempt graded exactly once (one graded row per learner, its score the grade of its
 * stored answers, and every submit of an attempt answered with that same score).
 *
 *   npm run bench:exams
 *   npm run bench:exams -- --learners=1000 --minutes=1 --spread=10 --warmup=10
 *   WEB_CONCURRENCY=2 BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/exam_bench npm run bench:exams
 *   BENCH_EXAMS_PORT=4513 DIST_DIR=dist-other npm run bench:exams
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/exam_bench npm run bench:exams
 *
 * With BENCH_DATABASE_URL the server and the checks use that PostgreSQL database (a scratch one: the
 * benchmark migrates and seeds it, shortens course 1's exam and adds its learners, new ones each run).
 */
import { performance } from 'node:perf_hooks';
import { resolve } from 'node:path';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { openDatabase, type Db } from '../src/lib/db/client';
import { migrate } from '../src/lib/db/migrate';
import { seed } from '../src/lib/db/seed/seed.server';
import * as s from '../src/lib/db/schema';
import { hashToken, newToken } from '../src/lib/identity/session.server';
import { gradeAttempt } from '../src/lib/exams/exams';
import { loadExam } from '../src/lib/exams/exam-source.server';
import { startBenchServer, treeRssMb } from './server';

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const LEARNERS = Number(arg('learners') ?? process.env.BENCH_EXAM_LEARNERS ?? 1000);
const MINUTES = Number(arg('minutes') ?? 1);
const SPREAD_S = Number(arg('spread') ?? 10);
const SAVE_EVERY_MS = 5_000;
const WARMERS = 50;
const port = Number(process.env.BENCH_EXAMS_PORT ?? 4513);
const COURSE_ID = 1;
const databaseUrl = process.env.BENCH_DATABASE_URL || null;
/** Tells this run's learners from an earlier run's in the same PostgreSQL database. */
const RUN = Date.now().toString(36);

interface Learner {
  token: string;
  contactId: number;
  attemptId: number;
  /** Question id → its option ids, as the exam page shows them. */
  questions: Map<number, number[]>;
  /** The last answer the server acknowledged per question. */
  acknowledged: Map<number, number[]>;
  /** The scores the submits answered. */
  scores: number[];
}
const learners: Learner[] = [];
/**
 * Learners of the warm-up (`--warmup` seconds, default 10; 0: none): before the measured window they
 * start, open and answer their exam over and over, so that the server's code is compiled as it is
 * after minutes of serving, not measured in its first seconds. They are not in the figures or checks.
 */
const WARMUP_S = Number(arg('warmup') ?? 10);
const warmers: Learner[] = [];

/** Fills the fresh data folder (or the PostgreSQL database): catalogue, the shortened exam, and N learners who completed course 1. */
async function prepare(dataDir: string): Promise<void> {
  const handle = await openDatabase({ databaseUrl, dataDir });
  await migrate(handle);
  await seed(handle.db, resolve('media'));
  const db = handle.db;
  await db.update(s.evaluations).set({ minutes: MINUTES }).where(eq(s.evaluations.courseId, COURSE_ID));
  const expiresAt = new Date(Date.now() + 24 * 3600_000);
  const everyone = LEARNERS + (WARMUP_S > 0 ? WARMERS : 0);
  for (let from = 0; from < everyone; from += 250) {
    const batch = Array.from({ length: Math.min(250, everyone - from) }, (_, i) => from + i);
    const users = await db
      .insert(s.users)
      .values(batch.map((i) => ({ email: `examinee${i}.${RUN}@bench.example`, firstName: 'Examinee', lastName: String(i) })))
      .returning({ id: s.users.id });
    const contacts = await db
      .insert(s.contacts)
      .values(users.map((u, i) => ({ userId: u.id, firstName: 'Examinee', lastName: String(from + i), email: `examinee${from + i}.${RUN}@bench.example` })))
      .returning({ id: s.contacts.id, userId: s.contacts.userId });
    const tokens = users.map(() => newToken());
    await db.insert(s.sessions).values(users.map((u, i) => ({ tokenHash: hashToken(tokens[i]!), kind: 'user' as const, userId: u.id, expiresAt })));
    await db.execute(sql`insert into tracking (contact_id, course_id, subtopic_id, completed_at)
      select c.id, ${COURSE_ID}, st.id, now() from contacts c, subtopics st join topics t on t.id = st.topic_id
      where t.course_id = ${COURSE_ID} and c.id in ${sql.raw(`(${contacts.map((c) => c.id).join(',')})`)}`);
    const byUser = new Map(contacts.map((c) => [c.userId, c.id]));
    users.forEach((u, i) => (from + i < LEARNERS ? learners : warmers).push({ token: tokens[i]!, contactId: byUser.get(u.id)!, attemptId: 0, questions: new Map(), acknowledged: new Map(), scores: [] }));
  }
  await handle.close();
}

/** Reads an Astro action's answer (devalue's flat form: values by index, the root at 0). */
function unflatten(text: string): unknown {
  const flat = JSON.parse(text) as unknown[];
  const at = (i: number): unknown => {
    const v = flat[i];
    if (Array.isArray(v)) return v.map((j) => at(j as number));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, j]) => [k, at(j as number)]));
    return v;
  };
  return at(0);
}

const stats = { start: [] as number[], page: [] as number[], save: [] as number[], submit: [] as number[] };
const errors = new Map<string, number>();
const fail = (what: string) => errors.set(what, (errors.get(what) ?? 0) + 1);

const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!);
const summary = (name: string, xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return `${name.padEnd(10)} ${String(xs.length).padStart(6)}  p50 ${percentile(sorted, 50).toFixed(1).padStart(7)} ms  p99 ${percentile(sorted, 99).toFixed(1).padStart(7)} ms  max ${(sorted.at(-1) ?? 0).toFixed(1).padStart(7)} ms`;
};
const sleep = (t: number) => new Promise((r) => setTimeout(r, t));

async function timed(into: number[], what: string, url: string, init: RequestInit): Promise<Response | null> {
  const t0 = performance.now();
  try {
    const res = await fetch(url, init);
    // Read the whole answer before stopping the clock, as a browser would.
    const body = await res.arrayBuffer();
    into.push(performance.now() - t0);
    if (res.status >= 400) fail(`${what} ${res.status}`);
    return new Response(body, { status: res.status, headers: res.headers });
  } catch (err) {
    const cause = (err as Error & { cause?: { code?: string } }).cause?.code;
    fail(`${what} ${(err as Error).message}${cause ? ` (${cause})` : ''}`);
    return null;
  }
}

async function run(base: string): Promise<void> {
  const headers = (l: Learner, type?: string) => ({ cookie: `session=${l.token}`, origin: base, ...(type ? { 'content-type': type } : {}) });
  const form = (o: Record<string, string | number>) => new URLSearchParams(Object.entries(o).map(([k, v]) => [k, String(v)])).toString();
  const deadlineOf = new Map<Learner, number>();

  /** The start action, then the exam page (as the rules page's form and its redirect do); the time left on the server's clock, or null. */
  const startAndOpen = async (l: Learner, into: typeof stats, what = ''): Promise<number | null> => {
    const started = await timed(into.start, `${what}start`, `${base}/_actions/exams.start`, { method: 'POST', headers: headers(l, 'application/x-www-form-urlencoded'), body: form({ course: COURSE_ID, lang: 'es' }) });
    if (!started || started.status !== 200) return null;
    l.attemptId = (unflatten(await started.text()) as { attempt: number }).attempt;
    const page = await timed(into.page, `${what}exam page`, `${base}/course-exam/${COURSE_ID}`, { headers: headers(l) });
    if (!page || page.status !== 200) return null;
    const html = await page.text();
    l.questions.clear();
    for (const m of html.matchAll(/name="q(\d+)" value="(\d+)"/g)) {
      const q = Number(m[1]);
      l.questions.set(q, [...(l.questions.get(q) ?? []), Number(m[2])]);
    }
    return Number(/"remainingMs":\[0,(\d+)\]/.exec(html)?.[1] ?? /remainingMs&quot;:\[0,(\d+)\]/.exec(html)?.[1] ?? MINUTES * 60_000);
  };
  /** Saves a random option of a random question of the learner's attempt; true when acknowledged. */
  const saveOne = async (l: Learner, into: number[], what = ''): Promise<void> => {
    const ids = [...l.questions.keys()];
    const q = ids[Math.floor(Math.random() * ids.length)]!;
    const options = l.questions.get(q)!;
    const answer = [options[Math.floor(Math.random() * options.length)]!];
    const res = await timed(into, `${what}save`, `${base}/_actions/exams.answer`, {
      method: 'POST',
      headers: headers(l, 'application/json'),
      body: JSON.stringify({ course: COURSE_ID, attempt: l.attemptId, question: q, answer, lang: 'es' }),
    });
    if (res?.status === 200) l.acknowledged.set(q, answer);
  };

  if (WARMUP_S > 0) {
    const until = performance.now() + WARMUP_S * 1000;
    const scratch = () => ({ start: [], page: [], save: [], submit: [] });
    await Promise.all(
      warmers.map(async (l) => {
        await sleep(Math.random() * 1000);
        while (performance.now() < until) {
          const into = scratch();
          if ((await startAndOpen(l, into, 'warm-up ')) === null) return;
          await saveOne(l, into.save, 'warm-up ');
          await sleep(200 + Math.random() * 400);
        }
      }),
    );
  }

  const oneLearner = async (l: Learner) => {
    await sleep(Math.random() * SPREAD_S * 1000);
    const startedAt = performance.now();
    const remaining = await startAndOpen(l, stats);
    if (remaining === null) return;
    const deadline = startedAt + remaining;
    deadlineOf.set(l, deadline);
    // Saves every 5 s (the first at a random moment of the first 5 s) until the deadline.
    await sleep(Math.random() * SAVE_EVERY_MS);
    while (performance.now() < deadline - 1_000) {
      await saveOne(l, stats.save);
      await sleep(SAVE_EVERY_MS);
    }
    // Submit at the deadline; one learner in ten double-clicks.
    await sleep(Math.max(0, deadline - performance.now()));
    const submitOnce = async () => {
      const res = await timed(stats.submit, 'submit', `${base}/_actions/exams.submit`, { method: 'POST', headers: headers(l, 'application/x-www-form-urlencoded'), body: form({ course: COURSE_ID, attempt: l.attemptId, lang: 'es' }) });
      if (res?.status === 200) l.scores.push((unflatten(await res.text()) as { score: number }).score);
    };
    await Promise.all(learners.indexOf(l) % 10 === 0 ? [submitOnce(), submitOnce()] : [submitOnce()]);
  };
  await Promise.all(learners.map(oneLearner));
}

async function verify(db: Db): Promise<void> {
  const exam = (await loadExam(db, COURSE_ID))!;
  const rows = await db
    .select()
    .from(s.examAttempts)
    .where(and(eq(s.examAttempts.evaluationId, exam.evaluationId), inArray(s.examAttempts.contactId, learners.map((l) => l.contactId))));
  const byContact = new Map<number, (typeof rows)[number][]>();
  for (const r of rows) byContact.set(r.contactId, [...(byContact.get(r.contactId) ?? []), r]);
  let lost = 0;
  let acknowledged = 0;
  let graded = 0;
  let wrongScore = 0;
  let disagreeing = 0;
  let extraRows = 0;
  for (const l of learners) {
    const mine = byContact.get(l.contactId) ?? [];
    if (mine.length > 1) extraRows += mine.length - 1;
    const row = mine[0];
    if (!row) continue;
    for (const [q, answer] of l.acknowledged) {
      acknowledged++;
      const stored = row.answers?.[String(q)];
      if (!stored || stored.join() !== [...answer].sort((a, b) => a - b).join()) lost++;
    }
    if (!row.submittedAt) continue;
    graded++;
    const asked = exam.pool.filter((q) => row.questionIds.includes(q.id));
    if (row.score !== gradeAttempt(asked, row.answers ?? {}).score) wrongScore++;
    if (l.scores.some((sc) => sc !== row.score)) disagreeing++;
  }
  console.log(`\nafter shutdown: ${rows.length} attempts for ${learners.length} learners (${extraRows} extra); ${graded} graded (the rest were still in their grace when the server stopped); ${wrongScore} graded scores not the grade of the stored answers; ${disagreeing} learners whose submits answered another score`);
  console.log(`answers: ${acknowledged} acknowledged (the last per question), ${lost} lost`);
}

let peakRss = 0;
const server = await startBenchServer(port, {
  prepare,
  env: databaseUrl ? { DATABASE_URL: databaseUrl } : {},
  afterStop: async (dataDir) => {
    const handle = await openDatabase({ databaseUrl, dataDir });
    await verify(handle.db).finally(() => handle.close());
  },
});
const memory = setInterval(() => (peakRss = Math.max(peakRss, treeRssMb(server.serverPid()))), 500);
console.log(`${LEARNERS} learners start course ${COURSE_ID}'s exam within ${SPREAD_S} s, save an answer every ${SAVE_EVERY_MS / 1000} s, and submit at the ${MINUTES}-minute deadline (${databaseUrl ? 'PostgreSQL' : 'PGlite'}, ${Number(process.env.WEB_CONCURRENCY) > 1 ? `${process.env.WEB_CONCURRENCY} workers` : 'one process'}${WARMUP_S > 0 ? `, after a ${WARMUP_S} s warm-up` : ''})…`);
const t0 = performance.now();
try {
  await run(server.base);
} finally {
  clearInterval(memory);
  console.log(`\nran ${((performance.now() - t0) / 1000).toFixed(0)} s; server RSS peak ${peakRss.toFixed(0)} MB (with its workers)`);
  for (const [name, xs] of Object.entries(stats)) console.log(summary(name, xs));
  console.log(`errors: ${errors.size === 0 ? 'none' : [...errors].map(([k, v]) => `${k} ×${v}`).join(', ')}`);
  await server.stop();
}
