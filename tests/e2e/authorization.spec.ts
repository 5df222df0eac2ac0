/**
 * The authorization matrix (`support/matrix.ts`) run for every role against the e2e server: each role
 * logs in once through the real actions, then every row (pages in both languages, actions, endpoints,
 * lesson media, socket connections and events) is requested in parallel and compared with the table;
 * no answer may carry another person's name or e-mail, or a course the role may not know of. Rows that
 * change or end the session run last. A completeness test fails when a page, endpoint or action of the
 * source is missing from the table, or an action declares no access (`src/actions/access.ts`, which the
 * action rows read their refusals from). The rows of holes still open fail until their fixes land (the
 * report names the issue item); see also the hole journeys at the end.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, outboxMail, test } from './fixtures';
import { Client, loopback, type Answer } from './support/http';
import { COURSE, forbiddenFor, matrix, PROSPECT, ROLES, RUN, type Role, type Row, type Seen } from './support/matrix';
import { actionNames, routeFiles, routeOf } from './support/routes';
import { ACTION_RULES, ruleOf } from '../../src/actions/access';
import { firstLesson, IBO_OWNERS, PEOPLE } from './support/seed';
import { connect, emitAck, outcome } from './support/socket';
import { proveWithFreshCode } from './support/staff';

const MATRIX = matrix();

interface RoleContext {
  role: Role;
  /** The role's requests, with its cookies (a plain HTTP client: Playwright's request API cost the test processes more than the server spent answering). */
  api: Client;
}

/**
 * What the rows send besides their own headers: what a browser's fetch sends (no Accept-Encoding: what
 * the matrix checks is who gets what, not compression, which the journeys' pages go through).
 */
const ROW_HEADERS = { accept: '*/*', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) academy-authorization-matrix' };

/** Opens a role's session through the real actions: one login (or IBO code) per role. */
async function enter(role: Role, base: string): Promise<RoleContext> {
  const api = new Client(base, undefined, 8);
  const post = (path: string, form: Record<string, string>) => api.post(path, { form, headers: ROW_HEADERS });
  const ok = (r: Answer, what: string) => expect(r.status, `${role}: ${what}: ${r.body.slice(0, 300)}`).toBe(200);
  if (role === 'guest' || role === 'prospect') {
    ok(await post('/_actions/ibo.enter', { code: 'HORIZONTE01', lang: 'es' }), 'enter with an IBO code');
  }
  if (role === 'prospect') {
    const r = await post('/_actions/ibo.confirmProspect', { ...PROSPECT, lang: 'es' });
    ok(r, 'confirm a new prospect');
    expect(r.body).toContain(PROSPECT.email);
  }
  if (role === 'learner' || role === 'buyer' || role === 'admin') {
    ok(await post('/_actions/auth.login', { email: PEOPLE[role].email, password: PEOPLE[role].password, lang: 'es' }), 'log in');
  }
  if (role === 'owner' || role === 'suspended') {
    const who = IBO_OWNERS[role];
    ok(await post('/_actions/auth.login', { email: who.email, password: who.password, lang: 'es' }), 'log in');
  }
  if (role === 'admin') {
    // Staff: the second factor gives the session its administrator role.
    const proved = await proveWithFreshCode(async (code) => {
      const r = await post('/_actions/staff.proveCode', { code, lang: 'es' });
      return { status: r.status, r };
    });
    ok(proved.r, 'prove the second factor');
  }
  if (role === 'refused') {
    // A user of type 2 is refused at login with the message anyone with a wrong password gets, and no session.
    const refused = await post('/_actions/auth.login', { email: PEOPLE.refused.email, password: PEOPLE.refused.password, lang: 'en' });
    const nobody = await post('/_actions/auth.login', { email: `nadie.${RUN}@example.com`, password: 'Nadie2026x', lang: 'en' });
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body)).toEqual(JSON.parse(nobody.body));
    expect([...api.cookies.keys()]).not.toContain('session');
  }
  return { role, api };
}

const sessionCookie = (api: Client) => (api.cookies.has('session') ? `session=${api.cookies.get('session')}` : '');

/** The row's request with the role's placeholders filled in. */
function fill<T>(value: T, ctx: RoleContext): T {
  const host = new URL(ctx.api.origin).host;
  const text = JSON.stringify(value ?? null)
    .replaceAll('{role}', ctx.role)
    .replaceAll('{self}', host);
  return JSON.parse(text) as T;
}

async function runHttp(row: Row, ctx: RoleContext): Promise<{ outcome: string; seen: Seen }> {
  const spec = fill(row.http!, ctx);
  // Extra cookies go with this request only: a copy of the role's jar, thrown away after it.
  let api = ctx.api;
  if (spec.cookies) {
    api = new Client(ctx.api.origin);
    for (const [name, value] of [...ctx.api.cookies, ...Object.entries(spec.cookies)]) api.cookies.set(name, value);
  }
  try {
    const res = await api.request(spec.method, spec.path, {
      headers: { ...ROW_HEADERS, ...spec.headers },
      ...(spec.form ? { form: spec.form } : {}),
      ...(spec.json !== undefined ? { json: spec.json } : {}),
    });
    // One text per header (Node gives only Set-Cookie as a list: its lines, one per cookie).
    const headers = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join('\n') : (v ?? '')]));
    const setCookies = [res.headers['set-cookie'] ?? []].flat();
    let where = '';
    if (res.location) {
      const to = new URL(res.location, ctx.api.origin);
      where = ` → ${to.origin === ctx.api.origin ? `${to.pathname}${to.search}` : to.href}`;
    }
    return { outcome: `${res.status}${where}`, seen: { status: res.status, headers, body: res.body, setCookies } };
  } finally {
    if (api !== ctx.api) api.close();
  }
}

async function runSocket(row: Row, ctx: RoleContext): Promise<{ outcome: string; seen: Seen }> {
  const spec = row.socket!;
  const cookie = sessionCookie(ctx.api);
  const c = await connect(ctx.api.origin, spec.courseId, { ...(cookie ? { cookie } : {}), ...(spec.origin ? { origin: 'http://evil.example' } : {}), ...(spec.namespace ? { namespace: spec.namespace } : {}) });
  const seen: Seen = { status: 0, headers: {}, body: '', setCookies: [] };
  try {
    if (spec.origin) return { outcome: c.ok ? 'ok' : 'refused', seen };
    if (!spec.event) return { outcome: outcome(c), seen };
    if (!c.ok) return { outcome: `no connection (${c.error})`, seen };
    const ack = (await emitAck(c.socket, spec.event.name, spec.event.payload)) as { ok?: boolean; error?: string; timeout?: boolean };
    seen.body = JSON.stringify(ack);
    return { outcome: ack.ok ? 'ok' : (ack.error ?? (ack.timeout ? 'no answer' : JSON.stringify(ack))), seen };
  } finally {
    if (c.ok) c.socket.close();
  }
}

/** The strings of another person (or of a course the role may not know of) found in an answer. */
function leaks(role: Role, row: Row, seen: Seen): string[] {
  const asked = JSON.stringify(row.http ?? row.socket ?? '');
  const text = `${seen.body}\n${Object.values(seen.headers).join('\n')}`;
  return forbiddenFor(role, row.everyCourse === true, row.seesPeople === true).filter((m) => !asked.includes(m) && text.includes(m));
}

/** Runs `fn` over `items` with at most `n` at a time, keeping the order of the results. */
async function pool<T, R>(items: readonly T[], n: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out;
}

interface Result {
  row: Row;
  expected: string;
  got: string;
  problems: string[];
  ms: number;
}

async function runRow(row: Row, ctx: RoleContext): Promise<Result> {
  const expected = row.expect[ctx.role];
  const started = Date.now();
  try {
    const { outcome: got, seen } = row.socket ? await runSocket(row, ctx) : await runHttp(row, ctx);
    const problems: string[] = [];
    if (got !== expected) problems.push(`expected ${expected}, got ${got}`);
    if (seen.status >= 500 && row.expect[ctx.role] !== '500') problems.push(`server error: ${seen.body.slice(0, 200)}`);
    const leaked = leaks(ctx.role, row, seen);
    if (leaked.length) problems.push(`shows ${leaked.map((l) => JSON.stringify(l)).join(', ')}`);
    const extra = row.check?.(ctx.role, seen);
    if (extra) problems.push(extra);
    return { row, expected, got, problems, ms: Date.now() - started };
  } catch (err) {
    return { row, expected, got: 'error', problems: [`request failed: ${(err as Error).message}`], ms: Date.now() - started };
  }
}

function describeFailure(r: Result): string {
  const tag = r.row.hole ? ` [hole: ${r.row.hole}]` : r.row.pending ? ` [not built yet, today's answer expected: ${r.row.pending}]` : '';
  return `✗ ${r.row.label}: ${r.problems.join('; ')}${tag}`;
}

test.describe('authorization matrix', () => {
  test.describe.configure({ mode: 'parallel' });

  for (const role of ROLES) {
    // About 200 requests and a dozen sockets: seconds on a quiet machine, more when it is shared.
    test(`${role}: pages (es, en), actions, endpoints, media and socket events answer as the matrix says`, async ({ baseURL }) => {
      test.setTimeout(90_000);
      const ctx = await enter(role, baseURL!);
      try {
        const rows = MATRIX.filter((r) => !r.only || r.only.includes(role));
        const first = rows.filter((r) => !r.last);
        const results = await pool(first, 8, (r) => runRow(r, ctx));
        for (const r of rows.filter((x) => x.last)) results.push(await runRow(r, ctx));
        const table = results.map((r) => `${r.problems.length ? '✗' : '✓'} ${r.row.label} → ${r.got} [${r.ms} ms]${r.problems.length ? `   (${r.problems.join('; ')})` : ''}`).join('\n');
        writeFileSync(test.info().outputPath(`matrix-${role}.txt`), table);
        await test.info().attach(`matrix-${role}.txt`, { body: table, contentType: 'text/plain' });
        test.info().annotations.push({ type: 'matrix', description: `${role}: ${results.length} rows` });
        const failures = results.filter((r) => r.problems.length > 0);
        expect(failures.map(describeFailure), `${failures.length} of ${results.length} rows differ for ${role}`).toEqual([]);
      } finally {
        ctx.api.close();
      }
    });
  }

  test('every page, endpoint, action and socket event of the source is in the matrix', async () => {
    const files = routeFiles();
    const covered = new Set(MATRIX.map((r) => r.covers));
    const missing: string[] = [];
    for (const f of files) {
      if (f.kind === 'page') {
        const rows = MATRIX.filter((r) => r.kind === 'page' && r.covers === f.route);
        for (const locale of ['es', 'en'] as const) if (!rows.some((r) => r.locale === locale)) missing.push(`page ${f.route} (${locale}, src/pages/${f.file})`);
        // Each row really is that route: the path the row asks for matches the file's pattern.
        for (const r of rows) {
          const path = r.http!.path.replace(/^\/en(?=\/|$)/, '') || '/';
          const matched = routeOf(path, files);
          if (matched !== f.route) missing.push(`row "${r.label}" says ${f.route} but asks for ${matched ?? 'no route'}`);
        }
      } else {
        for (const m of f.methods) {
          // `ALL` answers the methods the file does not name: a row with one of those covers it.
          const needed = m === 'ALL' ? [...covered].some((c) => c.endsWith(` ${f.route}`) && !f.methods.includes(c.split(' ')[0]!)) : covered.has(`${m} ${f.route}`);
          if (!needed) missing.push(`endpoint ${m} ${f.route} (src/pages/${f.file})`);
        }
      }
    }
    const actions = actionNames();
    expect(actions.length, 'actions found in src/actions').toBeGreaterThanOrEqual(12);
    for (const a of actions) {
      if (!ruleOf(a)) missing.push(`action ${a} declares no access (src/actions/access.ts)`);
      if (!covered.has(a)) missing.push(`action ${a}`);
      if (!MATRIX.some((r) => r.covers === a && r.http?.headers?.origin === 'https://evil.example')) missing.push(`action ${a} from another site`);
    }
    for (const a of covered) if (a.includes('.') && !a.includes('/') && !actions.includes(a)) missing.push(`the matrix names action ${a}, which src/actions does not define`);
    for (const a of Object.keys(ACTION_RULES)) if (!actions.includes(a)) missing.push(`src/actions/access.ts declares ${a}, which src/actions does not define`);
    const events = /TRACKING_EVENTS = \[([^\]]*)\]/.exec(readFileSync(join(process.cwd(), 'src/lib/learning/learning.ts'), 'utf8'))?.[1]?.match(/'[^']+'/g)?.map((s) => s.slice(1, -1)) ?? [];
    expect(events.length, 'socket events found in src/lib/learning/learning.ts').toBeGreaterThanOrEqual(3);
    for (const e of [...events, 'connection']) if (!MATRIX.some((r) => r.kind === 'socket' && r.covers === e)) missing.push(`socket ${e}`);
    // Every other namespace the server opens is connected to by every role.
    const namespaces = [...readFileSync(join(process.cwd(), 'src/lib/business/live.server.ts'), 'utf8').matchAll(/NAMESPACE = '([^']+)'/g)].map((m) => m[1]!);
    expect(namespaces, 'socket namespaces found in src/lib/business/live.server.ts').toEqual(['/business']);
    for (const ns of namespaces) if (!MATRIX.some((r) => r.kind === 'socket' && r.covers === `${ns} connection` && r.socket?.origin === 'foreign')) missing.push(`socket ${ns} connection (and from another origin)`);
    const pages = files.filter((f) => f.kind === 'page').length;
    test.info().annotations.push({
      type: 'matrix size',
      description: `${MATRIX.length} rows (${pages} page files in es and en, ${files.length - pages} endpoint files, ${actions.length} actions, ${events.length} socket events + connection) × ${ROLES.length} roles`,
    });
    expect(missing, 'add these to tests/e2e/support/matrix.ts').toEqual([]);
  });
});

/**
 * Holes found by an attack, written as the behaviour we want. Each uses its own loopback source
 * address (so its per-address limits are its own) and accounts of its own.
 */
test.describe('holes stay closed', () => {
  test.describe.configure({ mode: 'parallel' });

  async function newLearner(c: Client, tag: string) {
    const email = `matriz.${tag}.${RUN}@example.com`;
    const password = 'Matriz2026';
    const r = await c.post('/_actions/auth.register', {
      form: { name: 'Matriz', lastName: tag, email, confirmEmail: email, gender: 'other', birthDay: '1', birthMonth: '1', birthYear: '1990', password, confirmPassword: password, lang: 'en' },
    });
    expect(r.status, r.body.slice(0, 300)).toBe(200);
    return { email, password };
  }

  test("an IBO session cannot take over a registered learner's contact (Trust #1)", async ({ baseURL }) => {
    const attacker = new Client(baseURL!, loopback(21));
    try {
      expect((await attacker.post('/_actions/ibo.enter', { form: { code: 'HORIZONTE01', lang: 'en' } })).status).toBe(200);
      const r = await attacker.post('/_actions/ibo.confirmProspect', { form: { firstName: 'X', lastName: 'Y', email: PEOPLE.learner.email, lang: 'en' } });
      expect(r.status, r.body.slice(0, 300)).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
      for (const m of [PEOPLE.learner.firstName, PEOPLE.learner.lastName, '"id"']) expect(r.body).not.toContain(m);
      const who = await attacker.post('/_actions/auth.verify');
      expect(who.body).not.toContain(PEOPLE.learner.lastName);
      // Nothing of the learner can be read or written through this session.
      const write = await attacker.post('/api/tracking', { json: { event: 'tracking play', courseId: COURSE.free, payload: { Identificador: firstLesson(COURSE.free).id, Avance: 5 } } });
      expect(write.status).toBe(401);
    } finally {
      attacker.close();
    }
  });

  test('a burst of positions does not complete a lesson faster than it plays (Trust #3)', async ({ baseURL }) => {
    const c = new Client(baseURL!, loopback(22));
    try {
      await newLearner(c, 'rapido');
      const lesson = firstLesson(COURSE.free);
      const send = (event: string, Avance: number) => c.post('/api/tracking', { json: { event, courseId: COURSE.free, payload: { Identificador: lesson.id, Avance, Activo: true } } });
      expect((await send('tracking play', 0)).status).toBe(200);
      for (const at of [1.5, 3, 4.5, 6, 7.5]) await send('tracking', at);
      const end = await send('tracking end', 8);
      expect(end.status).toBe(200);
      expect(JSON.parse(end.body)).toMatchObject({ ok: true, completed: false });
    } finally {
      c.close();
    }
  });

  test("a foreign Host header reaches no page nor e-mail (Trust #4, #5)", async ({ baseURL }) => {
    const c = new Client(baseURL!, loopback(23));
    try {
      const path = `/en/courses-details/8?matrix=${RUN}`;
      const poisoned = await c.get(path, { headers: { host: 'evil.example' }, noCookies: true });
      expect(poisoned.status).toBeLessThan(500);
      expect(poisoned.body).not.toContain('evil.example');
      const normal = await c.get(path, { noCookies: true });
      expect(normal.status).toBe(200);
      expect(normal.body).not.toContain('evil.example');
      const { email } = await newLearner(c, 'host');
      const reset = await c.post('/_actions/auth.requestReset', { form: { email, lang: 'en' }, headers: { host: 'evil.example', origin: 'http://evil.example' }, noCookies: true });
      expect(reset.status).toBeLessThan(500);
      if (reset.status === 200) {
        await expect.poll(() => outboxMail(email, 'reset-password'), { timeout: 10_000 }).toBeTruthy();
        expect(await outboxMail(email, 'reset-password')).not.toContain('evil.example');
      }
    } finally {
      c.close();
    }
  });

  test('entering with an IBO code never sends the browser to another site (Trust #9)', async ({ baseURL }) => {
    const c = new Client(baseURL!, loopback(24));
    try {
      for (const next of ['/.//evil.example/phish', '//evil.example', '/\\evil.example', '/%2e//evil.example', 'https://evil.example']) {
        c.cookies.clear();
        const r = await c.post(`/guest?next=${encodeURIComponent(next)}&_action=ibo.enter`, { form: { code: 'HORIZONTE01', lang: 'es' } });
        expect(r.status, next).toBe(303);
        const to = new URL(r.location!, 'http://site.example');
        expect(to.host, `${next} → ${r.location}`).toBe('site.example');
      }
    } finally {
      c.close();
    }
  });

  test('ten wrong passwords from one address do not lock the owner out from another (Trust #10)', async ({ baseURL }) => {
    const owner = new Client(baseURL!, loopback(25));
    const attacker = new Client(baseURL!, loopback(26));
    try {
      const account = await newLearner(owner, 'bloqueo');
      owner.cookies.clear();
      for (let i = 0; i < 10; i++) await attacker.post('/_actions/auth.login', { form: { email: account.email, password: `wrong-${i}-pw`, lang: 'en' } });
      const right = await owner.post('/_actions/auth.login', { form: { ...account, lang: 'en' } });
      expect(right.status, right.body.slice(0, 200)).toBe(200);
    } finally {
      owner.close();
      attacker.close();
    }
  });

  test("a socket of one course hears nothing of the same person's other course (Trust #1, rooms)", async ({ baseURL }) => {
    const c = new Client(baseURL!, loopback(27));
    try {
      await newLearner(c, 'salas');
      const cookie = `session=${c.cookies.get('session')}`;
      const one = await connect(baseURL!, COURSE.free, { cookie });
      const other = await connect(baseURL!, COURSE.members, { cookie });
      expect(one.ok && other.ok).toBe(true);
      if (!one.ok || !other.ok) return;
      const heardOnOne: unknown[] = [];
      one.socket.on('tracking', (m: unknown) => heardOnOne.push(m));
      const heardOnOther = new Promise((resolve) => other.socket.once('tracking', resolve));
      const lesson = firstLesson(COURSE.members);
      expect(await emitAck(other.socket, 'tracking play', { Identificador: lesson.id, Avance: 0 })).toMatchObject({ ok: true });
      await heardOnOther;
      // An answer on the first socket comes after anything sent to it before (one connection, in order).
      expect(await emitAck(one.socket, 'tracking', { Identificador: -1, Avance: 0 })).toMatchObject({ ok: false, error: 'invalid' });
      expect(heardOnOne).toEqual([]);
      one.socket.close();
      other.socket.close();
    } finally {
      c.close();
    }
  });
});
