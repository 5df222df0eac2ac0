/**
 * What the kept report figures' triggers (migrations 0034–0036) cost the writes that carry them
 * (not a test: it asserts nothing). On a fresh seeded PGlite database in memory it times, side by side
 * in one run, with the triggers on and off (`alter table … disable trigger user`), alternating three
 * times:
 *
 *   - a progress write as the writer batches them: one upsert of 20 people's rows already there;
 *   - lessons begun: one insert of 100 people's first rows of a lesson (per row);
 *   - grading: one exam attempt marked submitted, scored and passed.
 *
 *   npm run bench:kept
 */
import { sql } from 'drizzle-orm';
import { testDatabases } from '../src/lib/db/testing';

const [pglite] = await testDatabases();
const handle = await pglite!.create({ seed: true });
const db = handle.db;
const q = async <T = Record<string, unknown>>(text: string) => ((await db.execute(sql.raw(text))) as unknown as { rows: T[] }).rows;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const lessons = await q<{ id: number; course_id: number }>(`select st.id, tp.course_id from subtopics st join topics tp on tp.id = st.topic_id order by st.id limit 60`);
const people = (await q<{ id: number }>(`insert into contacts (first_name, last_name, email) select 'Bench', 'Kept', 'bench-kept-' || g || '@bench.example' from generate_series(1, 100) g returning id`)).map((r) => r.id);
const [evaluation] = await q<{ id: number; questions: number[] }>(`select e.id, (select json_agg(x.id) from (select id from questions where evaluation_id = e.id order by id limit 10) x) as questions from evaluations e order by e.id limit 1`);
const answers = JSON.stringify(Object.fromEntries(evaluation!.questions.map((id) => [id, [1]])));
const attempts = (
  await q<{ id: number }>(
    `insert into exam_attempts (evaluation_id, contact_id, attempt_number, question_ids, answers, deadline_at)
     select ${evaluation!.id}, c, 1, '${JSON.stringify(evaluation!.questions)}'::jsonb, '${answers}'::jsonb, now() + interval '1 hour' from unnest(array[${people.join(',')}]) c returning id`,
  )
).map((r) => r.id);
// Every person's row of the first lesson, for the progress writes to update.
await q(`insert into tracking (contact_id, course_id, subtopic_id) select c, ${lessons[0]!.course_id}, ${lessons[0]!.id} from unnest(array[${people.join(',')}]) c`);

let nextLesson = 1;
let nextAttempt = 0;
let tick = 0;
const measures = {
  'progress write (upsert of 20 rows already there)': async () => {
    const batch = people.slice((tick % 5) * 20, (tick % 5) * 20 + 20);
    tick++;
    const t = performance.now();
    await q(`insert into tracking (contact_id, course_id, subtopic_id, last_position, updated_at) values ${batch.map((c) => `(${c}, ${lessons[0]!.course_id}, ${lessons[0]!.id}, ${tick}, now())`).join(', ')}
      on conflict (contact_id, subtopic_id) do update set last_position = excluded.last_position, completed_at = coalesce(tracking.completed_at, excluded.completed_at), updated_at = greatest(tracking.updated_at, excluded.updated_at)`);
    return performance.now() - t;
  },
  'lesson begun (per row of a 100-row insert)': async () => {
    const lesson = lessons[nextLesson++ % lessons.length]!;
    const t = performance.now();
    await q(`insert into tracking (contact_id, course_id, subtopic_id) select c, ${lesson.course_id}, ${lesson.id} from unnest(array[${people.join(',')}]) c on conflict do nothing`);
    return (performance.now() - t) / people.length;
  },
  'grading one attempt': async () => {
    const id = attempts[nextAttempt++ % attempts.length]!;
    const t = performance.now();
    await q(`update exam_attempts set submitted_at = now(), score = 70 + (${nextAttempt} % 30), passed = true where id = ${id}`);
    return performance.now() - t;
  },
};
const ROUNDS = { 'progress write (upsert of 20 rows already there)': 30, 'lesson begun (per row of a 100-row insert)': 5, 'grading one attempt': 15 };
const tables = ['tracking', 'exam_attempts'];
const results: Record<string, { on: number[]; off: number[] }> = {};
for (let pass = 0; pass < 3; pass++) {
  for (const on of [true, false]) {
    for (const t of tables) await q(`alter table ${t} ${on ? 'enable' : 'disable'} trigger user`);
    for (const [name, measure] of Object.entries(measures)) {
      const r = (results[name] ??= { on: [], off: [] });
      for (let i = 0; i < ROUNDS[name as keyof typeof ROUNDS]; i++) (on ? r.on : r.off).push(await measure());
    }
  }
}
for (const t of tables) await q(`alter table ${t} enable trigger user`);
console.log('\nKept report figures: what their triggers cost each write (PGlite, median of all rounds; on and off alternated 3 times)\n');
console.log(`${'write'.padEnd(50)}  ${'triggers on'.padStart(12)}  ${'off'.padStart(9)}  ${'ratio'.padStart(6)}`);
for (const [name, r] of Object.entries(results)) {
  const on = median(r.on);
  const off = median(r.off);
  console.log(`${name.padEnd(50)}  ${`${on.toFixed(3)} ms`.padStart(12)}  ${`${off.toFixed(3)} ms`.padStart(9)}  ${`${(on / off).toFixed(2)}×`.padStart(6)}`);
}
await handle.close();
