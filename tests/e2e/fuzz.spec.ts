/**
 * Property-based attacks (fast-check, fixed seed) on every Astro action, every endpoint, lesson media
 * and the progress socket, against the e2e server: valid requests with some fields replaced by hostile
 * values (control characters and NUL, lone surrogates, invalid UTF-8, 100 KB strings, numbers, arrays,
 * objects, null, prototype keys, huge numbers, number-looking strings), as form, JSON, multipart and
 * raw JSON bodies. The properties: never a 5xx, no SQL, stack or query parameters in any answer, and
 * no partial write (a refused registration leaves the e-mail free and nothing that can log in; a
 * refused contact message writes no mail; a refused prospect is not created; a refused cart change sets
 * no cart; refused progress leaves the lesson's resume point where it was).
 *
 * Each target sends from its own loopback address (127.0.0.x), so per-address rate limits are its own;
 * a 429 still counts as an acceptable refusal. Run counts and the answers seen are in each test's title
 * and annotations.
 */
import fc from 'fast-check';
import Stripe from 'stripe';
import { confirmationToken, expect, outboxMail, test, useOwnServer } from './fixtures';
import { Client, loopback, type Answer } from './support/http';
import { asForm, asJson, asMultipart, EVERY_FIELD, everyField, hostileJsonText, hostileString, hostileValue, mutated, problemOf, Tally, urlPart, type Hostile } from './support/hostile';
import { playerLessons, startPosition } from './support/player';
import { paymentForm } from './support/payment';
import { firstLesson, firstResource, playerPaths, registrationForm } from './support/seed';
import { connect, emitOrDrop, outcome } from './support/socket';
import { actionNames } from './support/routes';
import { ACTION_RULES, ruleOf } from '../../src/actions/access';
import { asAdministrator } from './support/staff';

const SEED = 20_261_123;
const RUNS = 30;
const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

test.describe.configure({ mode: 'parallel' });
test.setTimeout(60_000);

type Encoding = 'form' | 'json' | 'multipart' | 'json-as-form';
/** Mostly the encoding the action accepts (so most runs reach its validation), sometimes every other. */
const encodingsFor = (accept: 'form' | 'json') =>
  accept === 'form' ? fc.constantFrom<Encoding>('form', 'form', 'form', 'multipart', 'json', 'json-as-form') : fc.constantFrom<Encoding>('json', 'json', 'json', 'form', 'multipart');

/** Sends a hostile body to `path` in the chosen encoding. */
async function send(c: Client, path: string, body: Record<string, Hostile>, encoding: Encoding, fileField?: string): Promise<Answer> {
  switch (encoding) {
    case 'form':
      return c.post(path, { form: asForm(body) });
    case 'json':
      return c.post(path, { json: asJson(body) });
    case 'multipart': {
      const m = asMultipart(body, fileField);
      return c.post(path, { raw: m.raw, headers: { 'content-type': m.type } });
    }
    case 'json-as-form':
      return c.post(path, { raw: asJson(body), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  }
}

/** A new learner account (registered through the action), logged in on `c`. */
async function newLearner(c: Client, tag: string): Promise<{ email: string; password: string }> {
  const email = `fuzz.${tag}.${RUN}@example.com`;
  const password = 'Fuzz2026x';
  const r = await c.post('/_actions/auth.register', { form: registerBase(email) });
  expect(r.status, r.body.slice(0, 300)).toBe(200);
  return { email, password };
}

/** Confirms a new learner's address with the link mailed at sign-up (purchases and certificates wait for it). */
async function confirmed(c: Client, email: string): Promise<void> {
  const r = await c.post('/_actions/account.confirmEmail', { form: { token: await confirmationToken(email), lang: 'en' } });
  expect(r.status, r.body.slice(0, 300)).toBe(200);
}

const registerBase = (email: string) => registrationForm(email, 'Fuzz', 'Fuzz2026x');

const sessionSet = (a: Answer) => (a.headers['set-cookie'] ?? []).some((c) => /^session=[^;]+/.test(c) && !/max-age=0/i.test(c));
const cartSet = (a: Answer) => (a.headers['set-cookie'] ?? []).some((c) => c.startsWith('cart='));

/** Runs one property and records the runs and the answers seen. */
async function property<T>(title: string, arb: fc.Arbitrary<T>, check: (value: T, tally: Tally) => Promise<void>, runs = RUNS, examples: T[] = []): Promise<Tally> {
  const tally = new Tally();
  // A fixed seed per target (the same runs every time), different between targets.
  const seed = SEED + [...title].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) % 1_000_003, 0);
  await fc.assert(
    fc.asyncProperty(arb, (v) => check(v, tally)),
    // fast-check counts the fixed examples in `numRuns`: add them, so the random runs stay `runs`.
    { seed, numRuns: runs + examples.length, endOnFailure: true, examples: examples.map((e) => [e] as [T]) },
  );
  test.info().annotations.push({ type: 'fuzz', description: `${title}: ${runs} random runs + ${examples.length} fixed (seed ${seed}); answers ${tally}` });
  return tally;
}

/**
 * The answer, or `undefined` when the server's HTTP parser closed the connection on a request line
 * longer than Node allows (16 KB of headers): refusing such a request outright is fine.
 */
async function tooLargeOrAnswer(pending: Promise<Answer>, url: string): Promise<Answer | undefined> {
  try {
    const a = await pending;
    if (url.length > 16 * 1024 && (a.status === 431 || a.status === 414 || a.status === 400)) return undefined;
    return a;
  } catch (err) {
    if (url.length > 16 * 1024 && /ECONNRESET|EPIPE|socket hang up/.test((err as Error).message)) return undefined;
    throw err;
  }
}

/** The property every answer must hold. */
function expectClean(a: Answer, what: unknown): void {
  const problem = problemOf(a);
  if (problem) throw new Error(`${problem}\nrequest: ${JSON.stringify(what).slice(0, 400)}`);
}

/** The actions `actionFuzz` covers. */
const FUZZED = new Set<string>();

/** The generic action property: hostile bodies in every encoding; `extra` adds the action's own invariant. */
function actionFuzz(
  name: string,
  address: number,
  base: (i: number) => Record<string, string>,
  opts: {
    /** What the action accepts (default form). */
    accept?: 'form' | 'json';
    setup?: (c: Client) => Promise<void>;
    extra?: (a: Answer, body: Record<string, Hostile>, changed: string[], i: number, c: Client) => Promise<void> | void;
    runs?: number;
    finally?: () => Promise<void>;
  } = {},
) {
  const runs = opts.runs ?? RUNS;
  // An action that declares no access fails the whole file here.
  const rule = ruleOf(name);
  if (!rule) throw new Error(`action ${name} declares no access: add it to src/actions/access.ts`);
  FUZZED.add(name);
  test(`${name}: ${runs} hostile bodies (form, JSON, multipart) and every field NUL, lone surrogate, 100 KB — never a 5xx, no SQL or stack, no partial write`, async ({ baseURL }) => {
    const c = new Client(baseURL!, loopback(address));
    try {
      await opts.setup?.(c);
      let i = 0;
      await property(
        name,
        fc.record({ m: mutated(base(0)), encoding: encodingsFor(opts.accept ?? 'form') }),
        async ({ m, encoding }, tally) => {
          const n = i++;
          // Each run starts from its own valid body (unique e-mails, markers), then applies the same mutation.
          const fresh = base(n);
          const body = Object.fromEntries(Object.entries(m.body).map(([k, v]) => [k, m.changed.includes(k) || !(k in fresh) ? v : fresh[k]!]));
          const a = await send(c, `/_actions/${name}`, body, encoding, m.changed[0]);
          tally.add(a.status);
          expectClean(a, { encoding, body });
          // Without a session, an action its declaration keeps from visitors never does its work.
          if (!opts.setup && rule.access !== 'public') expect([400, 401, 403, 413, 415], `${name} without a session`).toContain(a.status);
          await opts.extra?.(a, body, m.changed, n, c);
        },
        runs,
        // Every field gets a NUL, a lone surrogate (JSON keeps it) and 100 KB at least once.
        everyField(base(0)).map((m, k) => ({ m, encoding: k % 3 === 1 ? 'json' : (opts.accept ?? 'form') })),
      );
      await opts.finally?.();
      expect((await c.get('/healthz')).status).toBe(200);
    } finally {
      c.close();
    }
  });
}

/* ───────────── accounts ───────────── */

actionFuzz('auth.login', 101, (i) => ({ email: `fuzz.nadie.${RUN}.${i}@example.com`, password: 'Nadie2026x', lang: 'en', next: '/courses' }), {
  // Nobody with these credentials exists: a hostile login never starts a session.
  extra: (a) => {
    expect(a.status, a.body.slice(0, 200)).not.toBe(200);
    expect(sessionSet(a)).toBe(false);
  },
});

actionFuzz('auth.logout', 102, () => ({ lang: 'en' }));

{
  const refused: { email: string; password: string }[] = [];
  // With the consent box ticked and said to be shown: with no IBO involved, the server stores nothing of it.
  actionFuzz('auth.register', 103, (i) => ({ ...registerBase(`fuzz.alta.${RUN}.${i}@example.com`), iboSharing: 'on', iboSharingOffered: '1' }), {
    extra: (a, body, changed) => {
      if (a.status !== 200 && !changed.includes('email') && typeof body.email === 'string') refused.push({ email: body.email, password: 'Fuzz2026x' });
      if (a.status !== 200) expect(sessionSet(a)).toBe(false);
    },
    // A refused registration left nothing: the e-mail cannot log in, and it is still free to register.
    finally: async () => {
      expect(refused.length, 'refused registrations with the run’s own e-mail').toBeGreaterThan(0);
      const checker = new Client(test.info().project.use.baseURL!, loopback(104));
      try {
        for (const r of refused.slice(0, 6)) {
          const login = await checker.post('/_actions/auth.login', { form: { email: r.email, password: r.password, lang: 'en' } });
          expect(login.status, `${r.email} can log in after a refused registration`).toBe(400);
          const again = await checker.post('/_actions/auth.register', { form: registerBase(r.email) });
          expect(again.status, `${r.email} is taken after a refused registration: ${again.body.slice(0, 200)}`).toBe(200);
          checker.cookies.clear();
        }
      } finally {
        checker.close();
      }
    },
  });
}

actionFuzz('auth.requestReset', 105, (i) => ({ email: `fuzz.reset.${RUN}.${i}@example.com`, lang: 'en' }));

actionFuzz('auth.resetPassword', 106, () => ({ token: 'forged-token-0000000000000000000000000000000', password: 'Fuzz2026x', confirmPassword: 'Fuzz2026x', lang: 'en' }), {
  extra: (a) => expect(a.status, a.body.slice(0, 200)).not.toBe(200),
});

actionFuzz('auth.verify', 107, () => ({ lang: 'en' }), {
  accept: 'json',
  // Nobody is logged in on this client: whatever the body, nobody is reported.
  extra: (a) => expect(a.status).not.toBe(200),
});

/* ───────────── cart ───────────── */

for (const [name, address] of [
  ['cart.add', 108],
  ['cart.remove', 109],
] as const) {
  actionFuzz(name, address, () => ({ kind: 'course', id: '6', intent: 'add', lang: 'en' }), {
    // A refused change leaves the cart cookie alone.
    extra: (a) => {
      if (a.status !== 200) expect(cartSet(a), `${a.status} set the cart cookie`).toBe(false);
    },
  });
}

actionFuzz('cart.view', 141, () => ({ lang: 'en' }), {
  accept: 'json',
  // Pricing the cart only reads: an empty cart's cookie is never written, whatever the body.
  extra: (a) => expect(cartSet(a), `${a.status} set the cart cookie`).toBe(false),
});

/* ───────────── IBO ───────────── */

actionFuzz('ibo.enter', 110, () => ({ code: 'HORIZONTE01', lang: 'en' }), {
  extra: (a) => {
    if (a.status !== 200) expect(sessionSet(a), `${a.status} started a session`).toBe(false);
  },
});

{
  const enterIbo = async (c: Client) => expect((await c.post('/_actions/ibo.enter', { form: { code: 'HORIZONTE01', lang: 'en' } })).status).toBe(200);
  actionFuzz('ibo.lookup', 111, () => ({ email: 'learner@academia.example', lang: 'en' }), {
    accept: 'json',
    setup: enterIbo,
    // The answer is yes or no, nothing about the person.
    extra: (a) => {
      if (a.status === 200) expect(a.body.replace(/\s/g, '')).toMatch(/^\[\{"found":1\},(true|false)\]$/);
      expect(a.body).not.toContain('Méndez');
    },
  });

  let confirms = 0;
  const refusedProspects: string[] = [];
  let lookupClient: Client | undefined;
  actionFuzz('ibo.confirmProspect', 112, (i) => ({ firstName: 'Fuzz', lastName: 'Prospecto', email: `fuzz.prospecto.${RUN}.${i}@example.com`, lang: 'en' }), {
    setup: async (c) => {
      await enterIbo(c);
      lookupClient = new Client(test.info().project.use.baseURL!, loopback(113));
      await enterIbo(lookupClient);
    },
    extra: async (a, body, changed, _i, c) => {
      if (a.status !== 200 && !changed.includes('email') && typeof body.email === 'string') refusedProspects.push(body.email);
      // Confirmations are limited per session: a new IBO session every few keeps the runs reaching validation.
      if (a.status === 429 || ++confirms % 8 === 0) await enterIbo(c);
    },
    // A refused prospect was not created: the look-up does not find it.
    finally: async () => {
      try {
        for (const email of refusedProspects.slice(0, 20)) {
          const r = await lookupClient!.post('/_actions/ibo.lookup', { json: { email, lang: 'en' } });
          expect(r.status, r.body.slice(0, 200)).toBe(200);
          expect(r.body.replace(/\s/g, ''), `${email} exists after a refused confirmation`).toBe('[{"found":1},false]');
        }
      } finally {
        lookupClient?.close();
      }
    },
  });
}

/* ───────────── contact ───────────── */

{
  const refusedMarkers: string[] = [];
  const contactBase = (i: number) => ({
    name: 'Fuzz',
    lastName: 'Contacto',
    email: `fuzz.contacto.${RUN}.${i}@example.com`,
    countryCode: 'US',
    countryPhoneCode: '+1',
    phone: '3051234567',
    type: '8',
    message: `fuzzmarker${RUN}n${i}end`,
    accepts: 'on',
    language: 'en',
  });
  actionFuzz('contact.send', 114, contactBase, {
    // A valid message first: its mail reaches the outbox, so the check below can see mail at all.
    setup: async (c) => {
      const ok = await c.post('/_actions/contact.send', { form: contactBase(-1) });
      expect(ok.status, ok.body.slice(0, 200)).toBe(200);
      await expect.poll(() => outboxMail(`fuzzmarker${RUN}n-1end`), { timeout: 10_000 }).toBeTruthy();
    },
    extra: (a, _body, changed, i) => {
      if (a.status !== 200 && !changed.includes('message')) refusedMarkers.push(`fuzzmarker${RUN}n${i}end`);
    },
    // A refused message wrote no mail.
    finally: async () => {
      expect(refusedMarkers.length).toBeGreaterThan(0);
      for (const marker of refusedMarkers) expect(await outboxMail(marker), `mail written for a refused message (${marker})`).toBeUndefined();
    },
  });
}

/* ───────────── exams ───────────── */

{
  // A learner who has not completed course 1: starts are refused (403), answers and submits find no
  // attempt of theirs (404); hostile bodies must get a 4xx and never open an attempt.
  const learnerSetup = (tag: string) => async (c: Client) => {
    await newLearner(c, tag);
  };
  const noAttempt = async (_a: Answer, _b: Record<string, Hostile>, _c: string[], _i: number, c: Client) => {
    const info = await c.get('/en/course-exam/1');
    expect(info.status, 'a hostile start opened an attempt').toBe(302);
  };
  actionFuzz('exams.start', 122, () => ({ course: '1', lang: 'en' }), { setup: learnerSetup('examen'), extra: (a, b, ch, i, c) => (i % 10 === 0 ? noAttempt(a, b, ch, i, c) : undefined) });
  actionFuzz('exams.answer', 123, () => ({ course: '1', attempt: '1', question: '5', answer: '17', lang: 'en' }), { accept: 'json', setup: learnerSetup('respuesta') });
  actionFuzz('exams.submit', 124, () => ({ course: '1', attempt: '1', lang: 'en', q5: '17' }), { setup: learnerSetup('entrega'), extra: (a, b, ch, i, c) => (i % 10 === 0 ? noAttempt(a, b, ch, i, c) : undefined) });
}

test(`GET the audit log as the administrator: ${RUNS} hostile filters (actor, action, days, page) — 200 (malformed filters are ignored), never a 5xx`, async ({ baseURL }) => {
  const c = new Client(baseURL!, loopback(166));
  try {
    await asAdministrator(c);
    await property(
      'audit filters',
      fc.record({ actor: hostileValue, action: hostileValue, from: hostileValue, to: hostileValue, page: hostileValue, en: fc.boolean() }),
      async ({ actor, action, from, to, page, en }, tally) => {
        const path = `${en ? '/en' : ''}/admin/audit?actor=${urlPart(actor)}&action=${urlPart(action)}&from=${urlPart(from)}&to=${urlPart(to)}&page=${urlPart(page)}`;
        const a = await tooLargeOrAnswer(c.get(path), path);
        tally.add(a ? a.status : 'closed: request line too large');
        if (!a) return;
        expectClean(a, { path: path.slice(0, 300) });
        expect([200, 400, 414], `${path.slice(0, 200)} → ${a.status}`).toContain(a.status);
      },
      RUNS,
      EVERY_FIELD.map((v) => ({ actor: v, action: v, from: v, to: v, page: v, en: false })),
    );
  } finally {
    c.close();
  }
});

test(`GET the question banks as the administrator: ${RUNS} hostile course ids and edit ids, the page and its CSV — 200 or a 4xx, never a 5xx`, async ({ baseURL }) => {
  const c = new Client(baseURL!, loopback(177));
  try {
    await asAdministrator(c);
    await property(
      'question banks',
      fc.record({ id: hostileValue, edit: hostileValue, lang: hostileValue, csv: fc.boolean(), en: fc.boolean() }),
      async ({ id, edit, lang, csv, en }, tally) => {
        const path = csv ? `/admin/questions/${urlPart(id)}/bank.csv?lang=${urlPart(lang)}` : `${en ? '/en' : ''}/admin/questions/${urlPart(id)}?edit=${urlPart(edit)}`;
        const a = await tooLargeOrAnswer(c.get(path), path);
        tally.add(a ? a.status : 'closed: request line too large');
        if (!a) return;
        expectClean(a, { path: path.slice(0, 300) });
        expect([200, 400, 404, 414], `${path.slice(0, 200)} → ${a.status}`).toContain(a.status);
      },
      RUNS,
      EVERY_FIELD.map((v) => ({ id: v, edit: v, lang: v, csv: false, en: false })),
    );
  } finally {
    c.close();
  }
});

test(`the question banks' actions as the administrator: ${RUNS} hostile questions, settings and CSV files on the test course — a 2xx or a 4xx in words, never a 5xx`, async ({ baseURL }) => {
  const c = new Client(baseURL!, loopback(178));
  // The test course (12): no journey takes its exam, so questions written here disturb nobody.
  const question = { course: '12', kind: 'single', promptEs: '¿Fuzz?', promptEn: 'Fuzz?', option1Es: 'Sí', option1En: 'Yes', option2Es: 'No', option2En: 'No', right: '1', explanationEs: '', explanationEn: '', lang: 'en' };
  const settings = { course: '12', attempts: '3', questions: '1', minutes: '20', minimumScore: '70', lang: 'en' };
  const csv = { course: '12', mode: 'add', lang: 'en', file: 'kind,prompt_es,prompt_en,option1_es,option1_en,option1_right,option2_es,option2_en,option2_right\r\nsingle,¿Fuzz?,Fuzz?,Sí,Yes,x,No,No,\r\n' };
  try {
    await asAdministrator(c);
    for (const [name, base] of [['questions.add', question], ['questions.saveSettings', settings], ['questions.importCsv', csv]] as const) {
      await property(
        `${name} as the administrator`,
        fc.record({ m: mutated(base), encoding: fc.constantFrom<Encoding>('form', 'multipart', 'multipart', 'json') }),
        async ({ m, encoding }, tally) => {
          const a = await send(c, `/_actions/${name}`, m.body, encoding, name === 'questions.importCsv' ? 'file' : m.changed[0]);
          tally.add(a.status);
          expectClean(a, { name, encoding, body: m.body });
          expect([200, 400, 404, 409, 413, 415], `${name} → ${a.status} ${a.body.slice(0, 200)}`).toContain(a.status);
          if (a.status >= 400 && a.status !== 415) expect(JSON.parse(a.body).message, a.body.slice(0, 200)).toMatch(/[a-z]{3,} /i);
        },
        RUNS,
      );
    }
  } finally {
    c.close();
  }
});

test(`GET the exam pages: ${RUNS} hostile course ids and attempt numbers — 200, a redirect or a 4xx, never a 5xx`, async ({ baseURL }) => {
  const c = new Client(baseURL!, loopback(125));
  try {
    await newLearner(c, 'paginas');
    await property(
      'exam pages',
      fc.record({ id: hostileValue, attempt: hostileValue, which: fc.constantFrom('info', 'exam', 'result', 'en-result') }),
      async ({ id, attempt, which }, tally) => {
        const path =
          which === 'info'
            ? `/course-exam-info/${urlPart(id)}`
            : which === 'exam'
              ? `/course-exam/${urlPart(id)}`
              : `${which === 'en-result' ? '/en' : ''}/course-result?course=${urlPart(id)}&attempt=${urlPart(attempt)}`;
        const a = await tooLargeOrAnswer(c.get(path), path);
        tally.add(`${which} ${a ? a.status : 'closed: request line too large'}`);
        if (!a) return;
        expectClean(a, { path: path.slice(0, 300) });
      },
      RUNS,
      EVERY_FIELD.map((v) => ({ id: `1${String(v)}` as Hostile, attempt: String(v) as Hostile, which: 'result' })),
    );
  } finally {
    c.close();
  }
});

/* ───────────── certificates ───────────── */

{
  let learner: Client | undefined;
  actionFuzz('certificates.issue', 131, () => ({ course: '2', lang: 'en' }), {
    // A new learner, who completed nothing: every issue is refused, whatever the body.
    setup: async (c) => {
      await confirmed(c, (await newLearner(c, 'certificado')).email);
      learner = c;
    },
    extra: (a) => expect(a.status, a.body.slice(0, 200)).not.toBe(200),
    // Nothing was issued: the learner holds no certificate of course 2 (or of the test course 12).
    finally: async () => {
      for (const id of [2, 12]) expect((await learner!.get(`/course-certificate/${id}`)).status).toBe(404);
    },
  });
}

/* ───────────── checkout ───────────── */

{
  let buyer: Client | undefined;
  const cartOf6 = encodeURIComponent(JSON.stringify([{ kind: 'course', id: 6 }]));
  actionFuzz(
    'commerce.checkout',
    134,
    // Not a key the server issued: whatever else the body holds, no order may come of it.
    () => paymentForm({ cardholderName: 'Fuzz Pago', coupon: 'BIENVENIDA10', price: '0.01' }),
    {
      setup: async (c) => {
        await confirmed(c, (await newLearner(c, 'pago')).email);
        c.cookies.set('cart', cartOf6);
        buyer = c;
      },
      extra: (a, _b, _ch, _i, c) => {
        expect(a.status, a.body.slice(0, 200)).not.toBe(200);
        // A refused checkout keeps the cart as it was.
        expect(c.cookies.get('cart')).toBe(cartOf6);
      },
      // Nothing was bought: no order, the course still for sale.
      finally: async () => {
        const shopping = await buyer!.get('/myshopping');
        expect(shopping.body).not.toContain('data-order=');
        expect((await buyer!.get('/course-tracking/6')).status).toBe(403);
      },
    },
  );
  // The values the registration stored: a body that passes saves the same profile again.
  actionFuzz('account.updateProfile', 138, () => ({ name: 'Fuzz', lastName: 'Registro', gender: 'other', birthDay: '1', birthMonth: '1', birthYear: '1990', language: 'es', lang: 'en' }), {
    setup: async (c) => void (await newLearner(c, 'perfil')),
  });
  // The account's security: a hostile body never changes the password or the address (the current
  // password is wrong in every run), and never ends a session that is not the fuzzer's own.
  {
    let own: { c: Client; email: string; password: string } | undefined;
    actionFuzz('account.changePassword', 142, () => ({ currentPassword: 'NoEsLaMia1', password: 'Nueva2026x', confirmPassword: 'Nueva2026x', lang: 'en' }), {
      setup: async (c) => void (own = { c, ...(await newLearner(c, 'clave-nueva')) }),
      extra: (a) => expect(a.status, a.body.slice(0, 200)).not.toBe(200),
      // The password is still the one registered: logging in with it works.
      finally: async () => {
        expect((await own!.c.post('/_actions/auth.login', { form: { email: own!.email, password: own!.password, lang: 'en' } })).status).toBe(200);
      },
    });
  }
  actionFuzz('account.changeEmail', 143, (i) => ({ email: `fuzz.nuevo.${RUN}.${i}@example.com`, currentPassword: 'NoEsLaMia1', lang: 'en' }), {
    setup: async (c) => void (await newLearner(c, 'correo-nuevo')),
    extra: (a) => expect(a.status, a.body.slice(0, 200)).not.toBe(200),
  });
  actionFuzz('account.endSession', 144, () => ({ session: '0123456789abcdef01234567', lang: 'en' }), {
    setup: async (c) => void (await newLearner(c, 'sesiones')),
    // No session has that id: nothing ends, the fuzzer stays logged in.
    extra: async (a, _b, _ch, _i, c) => {
      expect(a.status, a.body.slice(0, 200)).not.toBe(200);
      expect((await c.post('/_actions/auth.verify', { json: {} })).status).toBe(200);
    },
  });
  actionFuzz('account.endOtherSessions', 145, () => ({ lang: 'en' }), { setup: async (c) => void (await newLearner(c, 'otras')) });
  actionFuzz('account.resendVerification', 146, () => ({ lang: 'en' }), { setup: async (c) => void (await newLearner(c, 'reenviar')), runs: 20 });
  actionFuzz('account.confirmEmail', 147, () => ({ token: 'forged-token-forged-token-forged-token-0001', lang: 'en' }), {
    // No such link: every answer is a refusal.
    extra: (a) => expect(a.status, a.body.slice(0, 200)).not.toBe(200),
  });
  // The photo field as text, empty, NUL or 100 KB: never a file, so a 4xx and the account keeps no photo.
  actionFuzz('account.setPhoto', 151, () => ({ photo: 'foto', cropX: '0', cropY: '0', cropSize: '64', lang: 'en' }), {
    setup: async (c) => void (await newLearner(c, 'foto')),
    extra: (a) => expect([400, 413, 415, 429], `status ${a.status}`).toContain(a.status),
  });
  // The consent switch of someone who signed up through an IBO's link: whatever the body, a 4xx or their own
  // choice stored (true or false), never someone else's (no field names a person).
  actionFuzz('account.setIboSharing', 153, () => ({ share: 'true', lang: 'en' }), {
    setup: async (c) => {
      expect((await c.get('/HORIZONTE01')).status).toBe(200);
      await newLearner(c, 'consiente');
    },
    extra: (a) => expect([200, 400, 413, 415, 429], `status ${a.status}`).toContain(a.status),
  });
  // A nudge from an IBO's owner of someone not among its people: whatever the body, a 4xx and no mail
  // (a mutation that lands on one of its own people may nudge them once: 200).
  actionFuzz('business.nudge', 245, (i) => ({ person: '2147483647', key: `nudge-fuzz-${RUN}-${i}`.padEnd(16, '0'), lang: 'en' }), {
    setup: async (c) => {
      const login = await c.post('/_actions/auth.login', { form: { email: 'ibo.horizonte@academia.example', password: 'Horizonte2026', lang: 'en' } });
      expect(login.status, login.body.slice(0, 200)).toBe(200);
    },
    extra: (a) => expect([200, 400, 404, 409, 413, 415, 429], `status ${a.status}`).toContain(a.status),
  });
  // The stop link of a nudge's mail, forged: never a stop (the token decides), whoever sends it.
  actionFuzz('business.stopNudges', 246, () => ({ c: '1', t: 'A'.repeat(43), lang: 'en' }), {
    extra: (a) => expect([400, 413, 415, 429], `status ${a.status}`).toContain(a.status),
  });
  // A new learner has no photo to remove: whatever the body, nothing of theirs changes.
  actionFuzz('account.removePhoto', 152, () => ({ lang: 'en' }), { setup: async (c) => void (await newLearner(c, 'sin-foto')) });
  actionFuzz('commerce.newKey', 135, () => ({ lang: 'en' }), { accept: 'json', setup: async (c) => void (await newLearner(c, 'clave')) });
  actionFuzz('commerce.cancelMembership', 137, () => ({ membership: '1', lang: 'en' }), { setup: async (c) => void (await newLearner(c, 'baja')) });
  // Never the learner's password: whatever the body, nothing is scheduled (400, or 429 past the limit).
  actionFuzz('privacy.requestDeletion', 143, () => ({ password: 'NotTheirs2026', lang: 'en' }), {
    setup: async (c) => void (await newLearner(c, 'borrar')),
    extra: (a) => expect(a.status, a.body.slice(0, 200)).not.toBe(200),
  });
  actionFuzz('privacy.requestExport', 144, () => ({ lang: 'en' }), { setup: async (c) => void (await newLearner(c, 'archivo')) });
}

/* ───────────── the staff ───────────── */

// As a learner who is not staff: hostile codes and staff changes reach the schemas and the refusals,
// never a role, a code or another account (the administrator's own refusals are in the authorization matrix).
// The administrators' actions refuse a learner right after their schema: fewer runs cover it.
{
  const refused = (a: Answer) => expect([400, 403, 413, 415, 429], a.body.slice(0, 200)).toContain(a.status);
  actionFuzz('staff.proveCode', 161, () => ({ code: '123456', lang: 'en', next: '/admin' }), { setup: async (c) => void (await newLearner(c, 'codigo')), extra: refused });
  actionFuzz('staff.confirmSetup', 162, () => ({ code: '123456', lang: 'en' }), { setup: async (c) => void (await newLearner(c, 'alta-factor')), extra: refused });
  actionFuzz('staff.grantRole', 163, (i) => ({ email: `fuzz.rol.${RUN}.${i}@example.com`, role: 'editor', lang: 'en' }), { setup: async (c) => void (await newLearner(c, 'rol')), extra: refused, runs: 15 });
  actionFuzz('staff.revokeRole', 164, () => ({ userId: '2147483647', role: 'editor', lang: 'en' }), { setup: async (c) => void (await newLearner(c, 'quitar-rol')), extra: refused, runs: 15 });
  actionFuzz('staff.resetFactor', 165, () => ({ userId: '2147483647', lang: 'en' }), { setup: async (c) => void (await newLearner(c, 'reiniciar')), extra: refused, runs: 15 });
  // Revoking certificates is the administrators': a learner is refused right after the schema, and the seed's certificate stays valid.
  actionFuzz('certificates.revoke', 185, () => ({ code: 'ACAD-GRAD-2026-0000-0002', reason: 'Fuzz', lang: 'en' }), { setup: async (c) => void (await newLearner(c, 'revocar')), extra: refused, runs: 15 });
  // Books and plans are the editors': a learner is refused right after the schema, whatever the body (the editors' own refusals are in the matrix).
  const book = { id: '', titleEs: 'Libro', titleEn: 'Book', author: 'Ana', descriptionEs: 'Uno.', descriptionEn: 'One.', price: '12.50', hidden: 'on', cover: '', lang: 'en' };
  actionFuzz('books.save', 167, () => book, { setup: async (c) => void (await newLearner(c, 'libro')), extra: refused, runs: 15 });
  actionFuzz('books.uploadPdf', 168, () => ({ id: '1', pdf: '%PDF-1.7', lang: 'en' }), { setup: async (c) => void (await newLearner(c, 'pdf')), extra: refused, runs: 15 });
  const plan = { id: '', nameEs: 'Plan', nameEn: 'Plan', descriptionEs: 'Uno.', descriptionEn: 'One.', featuresEs: 'Uno', featuresEn: 'One', price: '9.99', period: 'month', categories: '2', lang: 'en' };
  actionFuzz('plans.save', 169, () => plan, { setup: async (c) => void (await newLearner(c, 'plan')), extra: refused, runs: 15 });
  // Coupons are finance's: a learner is refused right after the schema, whatever the body; the administrator
  // expiring a coupon that does not exist gets a 404 in words, never a 5xx nor a write (the finance refusals are in the matrix).
  const coupon = { id: '', code: 'FUZZ-10', kind: 'percent', percent: '10', amount: '', startsAt: '', endsAt: '2030-01-01T00:00', maxUses: '', lang: 'en' };
  actionFuzz('coupons.save', 187, () => coupon, { setup: async (c) => void (await newLearner(c, 'cupon')), extra: refused, runs: 15 });
  const gone = (a: Answer) => expect([400, 404, 413, 415, 429], a.body.slice(0, 200)).toContain(a.status);
  actionFuzz('coupons.expire', 189, () => ({ id: '2147483647', lang: 'en' }), { setup: async (c) => void (await asAdministrator(c)), extra: gone, runs: 15 });
  // Orders are finance's: a learner is refused after the schema; the administrator refunding an order that
  // does not exist gets a 404 in words, never a 5xx nor a refund.
  actionFuzz('orders.refund', 231, (i) => ({ id: '2147483647', scope: 'all', reason: 'Fuzz', key: `orders-fuzz-${RUN}-${i}-key`, lang: 'en' }), { setup: async (c) => void (await newLearner(c, 'orders-devolucion')), extra: refused, runs: 15 });
  actionFuzz('orders.resendReceipt', 232, () => ({ id: '2147483647', lang: 'en' }), { setup: async (c) => void (await asAdministrator(c)), extra: gone, runs: 15 });
  // Commissions are the administrators': a learner is refused right after the schema, whatever the body; the
  // administrator paying an IBO that does not exist gets a 404 in words, never a 5xx nor a payout.
  actionFuzz('commissions.setRate', 243, () => ({ kind: 'course', rate: '20', lang: 'en' }), { setup: async (c) => void (await newLearner(c, 'comision')), extra: refused, runs: 15 });
  actionFuzz('commissions.recordPayout', 244, (i) => ({ ibo: '2147483647', key: `commission-fuzz-${RUN}-${i}-key`, reference: 'Fuzz', lang: 'en' }), { setup: async (c) => void (await asAdministrator(c)), extra: gone, runs: 15 });
}

/* ───────────── IBOs ───────────── */

// As a learner: every IBO change is refused right after its schema (403), never written. As the
// administrator, a logo for an IBO that does not exist (or with no picture) is a 400 or a 404 in words,
// never a 5xx nor a write. Suspending is fuzzed as a learner only: a mutated id could name a seeded IBO.
{
  const refused = (a: Answer) => expect([400, 403, 413, 415, 429], a.body.slice(0, 200)).toContain(a.status);
  const ibo = { id: '', code: 'HORIZONTE01', companyName: 'Fuzz Viajes', businessId: '1', contactName: 'Ana Fuzz', contactEmail: 'ana.fuzz@example.com', contactPhone: '+57 300 123 4567', accountEmail: 'buyer@academia.example', sponsorCode: 'MUNDO2026', lang: 'en' };
  actionFuzz('ibos.save', 236, () => ibo, { setup: async (c) => void (await newLearner(c, 'ibos-guardar')), extra: refused, runs: 15 });
  actionFuzz('ibos.suspend', 237, () => ({ id: '1', lang: 'en' }), { setup: async (c) => void (await newLearner(c, 'ibos-suspender')), extra: refused, runs: 15 });
  actionFuzz('ibos.reinstate', 238, () => ({ id: '3', lang: 'en' }), { setup: async (c) => void (await newLearner(c, 'ibos-reactivar')), extra: refused, runs: 15 });
  const gone = (a: Answer) => expect([400, 404, 413, 415, 429], a.body.slice(0, 200)).toContain(a.status);
  actionFuzz('ibos.uploadLogo', 239, () => ({ id: '2147483647', logo: '<svg onload="alert(1)"/>', lang: 'en' }), { setup: async (c) => void (await asAdministrator(c)), extra: gone, runs: 15 });
}

test(`GET the IBO list and an IBO's page as the administrator: ${RUNS} hostile filters and ids — 200 or a 4xx in words, never a 5xx`, async ({ baseURL }) => {
  const c = new Client(baseURL!, loopback(240));
  try {
    await asAdministrator(c);
    await property(
      'IBO list filters and ids',
      fc.record({ value: hostileValue, field: fc.constantFrom('q', 'status', 'page', 'id'), en: fc.boolean() }),
      async ({ value, field, en }, tally) => {
        const path = `${en ? '/en' : ''}/admin/ibos${field === 'id' ? `/${urlPart(value)}` : `?${field}=${urlPart(value)}`}`;
        const a = await tooLargeOrAnswer(c.get(path), path);
        tally.add(a ? a.status : 'closed: request line too large');
        if (!a) return;
        expectClean(a, { path: path.slice(0, 300) });
        expect([200, 404, 400, 414], `${path.slice(0, 200)} → ${a.status}`).toContain(a.status);
      },
      RUNS,
      EVERY_FIELD.map((v) => ({ value: v, field: 'q' as const, en: false })),
    );
  } finally {
    c.close();
  }
});

/* ───────────── the support inbox ───────────── */

// As a learner who is not support staff: every change of the inbox is refused right after its schema
// (403), never written. As the administrator (support staff through the policy), hostile notes and
// replies to a message that does not exist are a 400 or a 404 in words, never a 5xx nor a write.
{
  const refused = (a: Answer) => expect([400, 403, 413, 415, 429], a.body.slice(0, 200)).toContain(a.status);
  // A mutation may turn the id into one of a message other journeys sent: answering it is then the
  // staff's legitimate work (200). Any other id is a 404 in words, and a hostile body a 400.
  const gone = (a: Answer, body: Record<string, unknown>, changed: string[]) => {
    if (a.status === 200) expect(changed.includes('id') && /^[1-9]\d{0,5}$/.test(String(body.id)), `a 200 only for a mutated id naming a real message: ${a.body.slice(0, 200)}`).toBe(true);
    else expect([400, 404, 413, 415, 429], a.body.slice(0, 200)).toContain(a.status);
  };
  const message = { id: '2147483647', lang: 'en' };
  actionFuzz('support.setStatus', 195, () => ({ ...message, status: 'closed' }), { setup: async (c) => void (await newLearner(c, 'estado')), extra: refused, runs: 15 });
  actionFuzz('support.assign', 196, () => ({ ...message, assignee: '' }), { setup: async (c) => void (await newLearner(c, 'asignar')), extra: refused, runs: 15 });
  actionFuzz('support.note', 197, () => ({ ...message, body: 'Nota <script>alert(1)</script>' }), { setup: async (c) => void (await asAdministrator(c)), extra: gone });
  actionFuzz('support.reply', 198, (i) => ({ ...message, body: 'Respuesta <b>hola</b>', key: `fuzz-reply-${RUN}-${i}`.padEnd(16, '0') }), { setup: async (c) => void (await asAdministrator(c)), extra: gone });
}

/* ───────────── people ───────────── */

// As a learner who is not support staff: every change of a person is refused right after its schema
// (403), never written, whatever the body. (The administrator's refusals are in the matrix: a fuzzed id
// could name a demo person, and blocking them or granting them a course would change other journeys.)
{
  const refused = (a: Answer) => expect([400, 403, 413, 415, 429], a.body.slice(0, 200)).toContain(a.status);
  const person = { id: '2147483647', lang: 'en' };
  actionFuzz('people.block', 201, () => person, { setup: async (c) => void (await newLearner(c, 'people-bloquear')), extra: refused, runs: 15 });
  actionFuzz('people.setType', 202, () => ({ ...person, type: 'admin' }), { setup: async (c) => void (await newLearner(c, 'people-tipo')), extra: refused, runs: 15 });
  actionFuzz('people.grantCourse', 203, () => ({ ...person, course: '1', reason: 'Regalo <script>alert(1)</script>' }), { setup: async (c) => void (await newLearner(c, 'people-curso')), extra: refused, runs: 15 });
  actionFuzz('people.endSessions', 204, () => person, { setup: async (c) => void (await newLearner(c, 'people-sesiones')), extra: refused, runs: 15 });
  actionFuzz('people.unblock', 206, () => person, { setup: async (c) => void (await newLearner(c, 'people-desbloquear')), extra: refused, runs: 15 });
  actionFuzz('people.resendVerification', 207, () => person, { setup: async (c) => void (await newLearner(c, 'people-verificar')), extra: refused, runs: 15 });
  actionFuzz('people.sendReset', 208, () => person, { setup: async (c) => void (await newLearner(c, 'people-clave')), extra: refused, runs: 15 });
}

test(`GET the people pages as the administrator: ${RUNS} hostile searches and person ids — 200 or a 4xx in words, never a 5xx`, async ({ baseURL }) => {
  const c = new Client(baseURL!, loopback(205));
  try {
    await asAdministrator(c);
    await property(
      'people searches and ids',
      fc.record({ value: hostileValue, field: fc.constantFrom('q', 'page', 'id'), en: fc.boolean() }),
      async ({ value, field, en }, tally) => {
        const path = `${en ? '/en' : ''}/admin/people${field === 'id' ? `/${urlPart(value)}` : `?${field}=${urlPart(value)}`}`;
        const a = await tooLargeOrAnswer(c.get(path), path);
        tally.add(a ? a.status : 'closed: request line too large');
        if (!a) return;
        expectClean(a, { path: path.slice(0, 300) });
        expect([200, 404, 400, 414], `${path.slice(0, 200)} → ${a.status}`).toContain(a.status);
      },
      RUNS,
      EVERY_FIELD.map((v) => ({ value: v, field: 'q' as const, en: false })),
    );
  } finally {
    c.close();
  }
});

/* ───────────── memberships ───────────── */

// As a learner who is not finance staff: every change of a membership is refused right after its schema
// (403), never written. As the administrator (finance through the policy), undoing a cancellation with a
// hostile body is a 400, 404 or 409 in words, never a 5xx (a real id the mutation may name is not
// cancelling: 409). The demo member's membership is left to its own journey: no fuzzed extension or
// cancellation runs as finance.
{
  const refused = (a: Answer) => expect([400, 403, 413, 415, 429], a.body.slice(0, 200)).toContain(a.status);
  const inWords = (a: Answer) => expect([400, 404, 409, 413, 415, 429], a.body.slice(0, 200)).toContain(a.status);
  const form = (i: number) => ({ id: '2147483647', reason: 'Motivo <script>alert(1)</script>', key: `fuzz-membership-${RUN}-${i}`.padEnd(16, '0'), lang: 'en' });
  actionFuzz('memberships.extend', 221, (i) => ({ ...form(i), days: '30' }), { setup: async (c) => void (await newLearner(c, 'socios-extender')), extra: refused, runs: 15 });
  actionFuzz('memberships.cancelNow', 222, form, { setup: async (c) => void (await newLearner(c, 'socios-cancelar')), extra: refused, runs: 15 });
  actionFuzz('memberships.cancelAtEnd', 223, form, { setup: async (c) => void (await newLearner(c, 'socios-final')), extra: refused, runs: 15 });
  actionFuzz('memberships.resume', 224, form, { setup: async (c) => void (await asAdministrator(c)), extra: inWords, runs: 15 });
}

test(`GET the memberships as the administrator: ${RUNS} hostile searches, filters and ids — 200 or a 4xx in words, never a 5xx`, async ({ baseURL }) => {
  const c = new Client(baseURL!, loopback(225));
  try {
    await asAdministrator(c);
    await property(
      'memberships filters and ids',
      fc.record({ value: hostileValue, field: fc.constantFrom('q', 'plan', 'state', 'page', 'id'), en: fc.boolean() }),
      async ({ value, field, en }, tally) => {
        const path = `${en ? '/en' : ''}/admin/memberships${field === 'id' ? `/${urlPart(value)}` : `?${field}=${urlPart(value)}`}`;
        const a = await tooLargeOrAnswer(c.get(path), path);
        tally.add(a ? a.status : 'closed: request line too large');
        if (!a) return;
        expectClean(a, { path: path.slice(0, 300) });
        expect([200, 404, 400, 414], `${path.slice(0, 200)} → ${a.status}`).toContain(a.status);
      },
      RUNS,
      EVERY_FIELD.map((v) => ({ value: v, field: 'q' as const, en: false })),
    );
  } finally {
    c.close();
  }
});

test(`GET the support inbox as the administrator: ${RUNS} hostile filters and message ids — 200 or a 4xx in words, never a 5xx`, async ({ baseURL }) => {
  const c = new Client(baseURL!, loopback(199));
  try {
    await asAdministrator(c);
    await property(
      'support inbox filters and ids',
      fc.record({ value: hostileValue, field: fc.constantFrom('type', 'status', 'page', 'id'), en: fc.boolean() }),
      async ({ value, field, en }, tally) => {
        const path = `${en ? '/en' : ''}/admin/support${field === 'id' ? `/${urlPart(value)}` : `?${field}=${urlPart(value)}`}`;
        const a = await tooLargeOrAnswer(c.get(path), path);
        tally.add(a ? a.status : 'closed: request line too large');
        if (!a) return;
        expectClean(a, { path: path.slice(0, 300) });
        expect([200, 404, 400, 414], `${path.slice(0, 200)} → ${a.status}`).toContain(a.status);
      },
      RUNS,
      EVERY_FIELD.map((v) => ({ value: v, field: 'status' as const, en: false })),
    );
  } finally {
    c.close();
  }
});

test(`GET the reports and their CSV as the administrator: ${RUNS} hostile filters — 200 or a 4xx in words, never a 5xx`, async ({ baseURL }) => {
  const c = new Client(baseURL!, loopback(241));
  try {
    await asAdministrator(c);
    await property(
      'report filters',
      fc.record({
        value: hostileValue,
        field: fc.constantFrom('from', 'to', 'bucket', 'course', 'category', 'business', 'ibo', 'year', 'report'),
        report: fc.constantFrom('enrolments', 'funnel', 'exams', 'revenue', 'acquisition', 'orders'),
        csv: fc.boolean(),
        en: fc.boolean(),
      }),
      async ({ value, field, report, csv, en }, tally) => {
        const name = field === 'report' ? urlPart(value) : report === 'orders' && !csv ? 'revenue' : report;
        const query = field === 'report' ? '' : `?${field}=${urlPart(value)}&lang=${en ? 'en' : 'es'}`;
        const path = csv ? `/admin/reports/${name}.csv${query}` : `${en ? '/en' : ''}/admin/reports/${name}${query}`;
        const a = await tooLargeOrAnswer(c.get(path), path);
        tally.add(a ? a.status : 'closed: request line too large');
        if (!a) return;
        expectClean(a, { path: path.slice(0, 300) });
        expect([200, 400, 404, 414], `${path.slice(0, 200)} → ${a.status}`).toContain(a.status);
      },
      RUNS,
      EVERY_FIELD.map((v) => ({ value: v, field: 'from' as const, report: 'revenue' as const, csv: true, en: false })),
    );
  } finally {
    c.close();
  }
});

test(`GET the books and plans pages as the administrator: ${RUNS} hostile ids — 200 or a 4xx in words, never a 5xx`, async ({ baseURL }) => {
  const c = new Client(baseURL!, loopback(170));
  try {
    await asAdministrator(c);
    await property(
      'books and plans ids',
      fc.record({ id: hostileValue, plans: fc.boolean(), en: fc.boolean() }),
      async ({ id, plans, en }, tally) => {
        const path = `${en ? '/en' : ''}/admin/${plans ? 'plans?plan' : 'books?book'}=${urlPart(id)}`;
        const a = await tooLargeOrAnswer(c.get(path), path);
        tally.add(a ? a.status : 'closed: request line too large');
        if (!a) return;
        expectClean(a, { path: path.slice(0, 300) });
        expect([200, 404, 400, 414], `${path.slice(0, 200)} → ${a.status}`).toContain(a.status);
      },
      RUNS,
      EVERY_FIELD.map((v) => ({ id: v, plans: false, en: false })),
    );
  } finally {
    c.close();
  }
});

test(`GET the certificates page as the administrator: ${RUNS} hostile searches — 200 or a 4xx in words, never a 5xx`, async ({ baseURL }) => {
  const c = new Client(baseURL!, loopback(186));
  try {
    await asAdministrator(c);
    await property(
      'certificate searches',
      fc.record({ q: hostileValue, en: fc.boolean() }),
      async ({ q, en }, tally) => {
        const path = `${en ? '/en' : ''}/admin/certificates?q=${urlPart(q)}`;
        const a = await tooLargeOrAnswer(c.get(path), path);
        tally.add(a ? a.status : 'closed: request line too large');
        if (!a) return;
        expectClean(a, { path: path.slice(0, 300) });
        expect([200, 400, 414], `${path.slice(0, 200)} → ${a.status}`).toContain(a.status);
      },
      RUNS,
      EVERY_FIELD.map((v) => ({ q: v, en: false })),
    );
  } finally {
    c.close();
  }
});
/* ───────────── course authoring ───────────── */

// As a learner who is not an editor: every authoring action reaches its schema and the refusal (403),
// never a draft or a course. Then as the administrator (an editor too), the settings of a course the run
// creates: hostile prices, flags, ids and texts are refused in words or saved to that course's draft.
{
  const refused = (a: Answer) => expect([400, 403, 413, 415, 429], a.body.slice(0, 200)).toContain(a.status);
  const course = { courseId: '1', lang: 'en' };
  const bodies: [string, Record<string, string>, 'form' | 'json'][] = [
    ['authoring.create', { code: `FUZZ-${RUN}`, nameEs: 'Fuzz', nameEn: 'Fuzz', categoryId: '2', businessId: '1', lang: 'en' }, 'form'],
    ['authoring.uploadThumbnail', { ...course, thumbnail: 'not a picture' }, 'form'],
    ['authoring.addModule', { ...course, nameEs: 'Fuzz', nameEn: 'Fuzz' }, 'form'],
    ['authoring.renameModule', { ...course, key: 'm1', nameEs: 'Fuzz', nameEn: 'Fuzz' }, 'form'],
    ['authoring.removeModule', { ...course, key: 'm1' }, 'form'],
    ['authoring.stepModule', { ...course, key: 'm1', direction: 'down' }, 'form'],
    ['authoring.addLesson', { ...course, moduleKey: 'm1', nameEs: 'Fuzz', nameEn: 'Fuzz' }, 'form'],
    ['authoring.editLesson', { ...course, key: 'l1', nameEs: 'Fuzz', nameEn: 'Fuzz', summaryEs: '', summaryEn: '' }, 'form'],
    ['authoring.removeLesson', { ...course, key: 'l1' }, 'form'],
    ['authoring.stepLesson', { ...course, key: 'l1', direction: 'down' }, 'form'],
    ['authoring.moveLesson', { ...course, key: 'l1', moduleKey: 'm2', index: '0' }, 'form'],
    ['authoring.arrangeOutline', { ...course, outline: '[]' }, 'json'],
    ['authoring.setVideo', { ...course, lessonKey: 'l1', mediaFileId: '1' }, 'form'],
    ['authoring.addLink', { ...course, lessonKey: 'l1', titleEs: 'Guía', titleEn: 'Guide', url: 'https://example.com/guia' }, 'form'],
    ['authoring.removeResource', { ...course, key: 'r1' }, 'form'],
    ['authoring.publish', course, 'form'],
    ['authoring.discard', course, 'form'],
  ];
  bodies.forEach(([name, body, accept], k) => actionFuzz(name, 200 + k, () => body, { accept, setup: async (c) => void (await newLearner(c, `autor-${k}`)), extra: refused, runs: 15 }));

  let courseId = '';
  actionFuzz(
    'authoring.saveSettings',
    220,
    () => ({ courseId, nameEs: 'Fuzz', nameEn: 'Fuzz', descriptionEs: '', descriptionEn: '', categoryId: '2', businessId: '1', price: '12.50', allowAll: 'on', prerequisiteCourseId: '', lang: 'en' }),
    {
      setup: async (c) => {
        await asAdministrator(c);
        const made = await c.post('/_actions/authoring.create', { form: { code: `FUZZ-SET-${RUN}`, nameEs: 'Fuzz', nameEn: 'Fuzz', categoryId: '2', businessId: '1', lang: 'en' } });
        expect(made.status, made.body.slice(0, 200)).toBe(200);
        // Astro sends an action's answer flattened (devalue): the first item maps each field to its item's place.
        const flat = JSON.parse(made.body) as [Record<string, number>, ...unknown[]];
        courseId = String(flat[flat[0].courseId!]);
      },
      extra: (a) => expect([200, 400, 404, 413, 415], a.body.slice(0, 200)).toContain(a.status),
    },
  );
  // The question banks' actions refuse a learner (403) whatever the body: no question, setting or import is written.
  const question = { course: '1', kind: 'single', promptEs: '¿Fuzz?', promptEn: 'Fuzz?', option1Es: 'Sí', option1En: 'Yes', option2Es: 'No', option2En: 'No', right: '1', lang: 'en' };
  actionFuzz('questions.add', 171, () => question, { setup: async (c) => void (await newLearner(c, 'pregunta')), extra: refused, runs: 15 });
  actionFuzz('questions.edit', 172, () => ({ ...question, question: '1' }), { setup: async (c) => void (await newLearner(c, 'editar-pregunta')), extra: refused, runs: 15 });
  actionFuzz('questions.retire', 173, () => ({ course: '1', question: '1', lang: 'en' }), { setup: async (c) => void (await newLearner(c, 'retirar')), extra: refused, runs: 15 });
  actionFuzz('questions.saveSettings', 174, () => ({ course: '1', attempts: '3', questions: '1', minutes: '20', minimumScore: '70', lang: 'en' }), { setup: async (c) => void (await newLearner(c, 'ajustes')), extra: refused, runs: 15 });
  actionFuzz('questions.importCsv', 175, () => ({ course: '1', mode: 'replace', file: 'kind,prompt_es,prompt_en\r\n', lang: 'en' }), { setup: async (c) => void (await newLearner(c, 'importar')), extra: refused, runs: 15 });
  actionFuzz('questions.regrade', 176, () => ({ course: '1', lang: 'en' }), { setup: async (c) => void (await newLearner(c, 'recalificar')), extra: refused, runs: 15 });
  actionFuzz('videos.saveCaption', 166, () => ({ videoId: '1', track: 'es', captions: 'WEBVTT\n\n00:00.000 --> 00:01.000\n<script>x</script>\n', lang: 'en' }), { setup: async (c) => void (await newLearner(c, 'subtitulos')), extra: refused, runs: 15 });
}

/* ───────────── course archives ───────────── */

// The import as a learner (403 in words) and as the administrator (an editor): hostile bodies, a file
// field typed as text or sent as a file of garbage, are refused in words; no course is ever created.
{
  const refused = (a: Answer) => expect([400, 403, 413, 415, 429], a.body.slice(0, 200)).toContain(a.status);
  const body = () => ({ file: 'PK\u0003\u0004 not a zip', lang: 'en' });
  // (Fewer runs as a learner: the refusal comes before the body is read; the titles differ by their count.)
  actionFuzz('courseArchive.import', 193, body, { setup: async (c) => void (await newLearner(c, 'archivo-curso')), extra: refused, runs: 12 });
  actionFuzz('courseArchive.import', 194, body, {
    setup: async (c) => {
      await asAdministrator(c);
    },
    extra: (a) => expect([400, 413, 415], a.body.slice(0, 200)).toContain(a.status),
    runs: 15,
  });
}

test(`order pages, receipts, book downloads and data archives: hostile and foreign order and book ids, forged archive links — the not-found page (or the login page), never a 5xx`, async ({ baseURL }) => {
  const c = new Client(baseURL!, loopback(136));
  try {
    await newLearner(c, 'pedido');
    for (const id of ['1', '2', '3', '0', '-1', '2147483648', '99999999999999999999', '1e3', '0x2', 'abc', '%00', '%F0%9F%92%A5', 'A'.repeat(2000)]) {
      for (const path of [`/myshopping-detail/${id}`, `/en/myshopping-detail/${id}`, `/myshopping-detail/${id}/receipt.pdf`, `/myshopping-detail/${id}/receipt.pdf?lang=%00`, `/book-download/${id}`, `/book-download/${id}?lang=%00`, `/my-data/download/${id}`, `/my-data/download/${id}?lang=%00`]) {
        const a = await c.get(path);
        expect([404, 400, 414], `${path} → ${a.status}`).toContain(a.status);
        expectClean(a, { path });
      }
    }
  } finally {
    c.close();
  }
});

test(`certificate pages and downloads: ${RUNS} hostile codes, course ids and forged ids, NUL, 100 KB — a 4xx (or the login page), never a 5xx`, async ({ baseURL }) => {
  const c = new Client(baseURL!, loopback(132));
  const visitor = new Client(baseURL!, loopback(133));
  try {
    await newLearner(c, 'verificar');
    const forged = ['2', '12', '10', '9999', '0', '-1', '2147483648', '99999999999999999999', '1e3', '0x2', 'ACAD-0000-0000-0000-0000', 'ACAD-GRAD-2026-0000-0003', 'acad-grad-2026-oooo-ooo3'];
    const routes = (v: string) => [
      `/verify/${v}`,
      `/en/verify/${v}`,
      `/course-certificate/${v}`,
      `/en/course-certificate/${v}`,
      `/course-certificate/${v}/pdf?lang=en`,
      `/course-certificate/2/pdf?lang=${v}`,
      `/course-certificate/${v}/credential`,
      `/course-generate?course=${v}`,
      `/en/course-generate?course=${v}`,
    ];
    await property(
      'certificate routes',
      fc.record({ value: fc.oneof(fc.constantFrom(...forged), hostileValue), route: fc.integer({ min: 0, max: 8 }), anonymous: fc.boolean() }),
      async ({ value, route, anonymous }, tally) => {
        const path = routes(urlPart(value))[route]!;
        const a = await tooLargeOrAnswer((anonymous ? visitor : c).get(path), path);
        tally.add(a ? `${path.split(/[/?]/)[1] === 'en' ? path.split('/')[2] : path.split(/[/?]/)[1]} ${a.status}` : 'closed: request line too large');
        if (!a) return;
        expectClean(a, { path: path.slice(0, 300), anonymous });
        // Nobody holds a certificate here: every answer is a refusal, a not-found, or the way to log in.
        expect([302, 303, 400, 401, 403, 404, 410, 414, 431], `${path.slice(0, 200)} → ${a.status}`).toContain(a.status);
        if (path.startsWith('/verify/') || path.startsWith('/en/verify/')) {
          expect(a.status, path.slice(0, 200)).toBe(404);
          expect(a.headers['content-type'] ?? '').toContain('text/html');
          expect(a.body).toMatch(path.startsWith('/en/') ? /Certificate not found/ : /Certificado no encontrado/);
          expect(a.body).toContain('noindex');
        }
      },
      RUNS,
      // Every route gets a NUL, a lone surrogate, 100 KB and each forged id at least once.
      [...EVERY_FIELD, ...forged].flatMap((value) => Array.from({ length: 9 }, (_, route) => ({ value: value as Hostile, route, anonymous: false }))),
    );
    expect((await c.get('/healthz')).status).toBe(200);
  } finally {
    c.close();
    visitor.close();
  }
});

/* ───────────── forms posted to pages (no JavaScript) ───────────── */

test(`forms posted to pages (?_action=): ${RUNS} hostile forms and a NUL in every field — never a 5xx, no SQL or stack`, async ({ baseURL }) => {
  const c = new Client(baseURL!, loopback(115));
  const targets: [string, Record<string, string>][] = [
    ['/contact-us?_action=contact.send', { name: 'Fuzz', lastName: 'Pagina', email: 'fuzz@example.com', countryCode: 'US', countryPhoneCode: '+1', phone: '3051234567', type: '8', message: 'hola', accepts: 'on', language: 'es' }],
    ['/en/login?_action=auth.login', { email: 'nadie@example.com', password: 'Nadie2026x', lang: 'en', next: '/courses' }],
    ['/register?_action=auth.register', registerBase(`fuzz.pagina.${RUN}@example.com`)],
    ['/en/guest?_action=ibo.enter', { code: 'NOPE0000', lang: 'en' }],
    ['/forgot-password?_action=auth.requestReset', { email: 'nadie@example.com', lang: 'es' }],
    ['/reset-password?_action=auth.resetPassword', { token: 'forged', password: 'Fuzz2026x', confirmPassword: 'Fuzz2026x', lang: 'es' }],
    ['/course-exam/1?_action=exams.start', { course: '1', lang: 'es' }],
    ['/en/course-result?_action=exams.submit', { course: '1', attempt: '1', lang: 'en', q5: '17' }],
    ['/en/course-generate?course=2&_action=certificates.issue', { course: '2', lang: 'en' }],
    ['/admin/books?book=1&_action=books.save', { id: '1', titleEs: 'Libro', titleEn: 'Book', author: 'Ana', descriptionEs: 'Uno.', descriptionEn: 'One.', price: '12.50', lang: 'es' }],
    ['/en/admin/certificates?q=ACAD-GRAD-2026-0000-0002&_action=certificates.revoke', { code: 'ACAD-GRAD-2026-0000-0002', reason: 'Fuzz', lang: 'en' }],
    ['/en/admin/coupons?_action=coupons.save', { code: 'FUZZ-10', kind: 'percent', percent: '10', endsAt: '2030-01-01T00:00', lang: 'en' }],
    ['/en/admin/ibos/new?_action=ibos.save', { code: 'FUZZ1', companyName: 'Fuzz', contactName: 'Ana', contactEmail: 'ana@example.com', accountEmail: 'buyer@academia.example', lang: 'en' }],
    ['/admin/ibos/1?_action=ibos.suspend', { id: '1', lang: 'es' }],
    ['/en/admin/commissions?_action=commissions.setRate', { kind: 'book', rate: '10', lang: 'en' }],
    ['/admin/commissions?_action=commissions.recordPayout', { ibo: '2147483647', key: `commission-page-${RUN}-key`, reference: 'Fuzz', lang: 'es' }],
    ['/en/admin/plans?_action=plans.save', { nameEs: 'Plan', nameEn: 'Plan', descriptionEs: 'Uno.', descriptionEn: 'One.', featuresEs: 'Uno', featuresEn: 'One', price: '9.99', period: 'month', categories: '2', lang: 'en' }],
    ['/en/myshopping?_action=commerce.cancelMembership', { membership: '1', lang: 'en' }],
    ['/en/purchase-detail?_action=commerce.checkout', paymentForm({ cardholderName: 'Fuzz' })],
    // The coupon's Apply button without JavaScript: the page itself, posted with an intent.
    ['/en/purchase-detail', { ...paymentForm({ cardholderName: 'Fuzz' }), intent: 'apply-coupon', couponCode: 'BIENVENIDA10' }],
  ];
  try {
    await property(
      'page forms',
      fc.integer({ min: 0, max: targets.length - 1 }).chain((t) => fc.record({ t: fc.constant(t), m: mutated(targets[t]![1]), encoding: fc.constantFrom<Encoding>('form', 'multipart') })),
      async ({ t, m, encoding }, tally) => {
        const [path] = targets[t]!;
        c.cookies.clear();
        const a = await send(c, path, m.body, encoding, m.changed[0]);
        tally.add(`${path.split('?')[0]} ${a.status}`);
        expectClean(a, { path, body: m.body });
      },
      RUNS,
      // Every field of every form gets a NUL at least once.
      targets.flatMap(([, base], t) => Object.keys(base).map((k) => ({ t, m: { body: { ...base, [k]: 'ok\u0000ok' }, changed: [k] }, encoding: 'form' as Encoding }))),
    );
  } finally {
    c.close();
  }
});

/* ───────────── malformed JSON to every action ───────────── */

/** Every declared action (`src/actions/access.ts`). */
const ACTIONS = Object.keys(ACTION_RULES);

test('every action of the source is declared and fuzzed', () => {
  const served = actionNames();
  expect(served.filter((name) => !ruleOf(name)), 'actions without a declaration in src/actions/access.ts').toEqual([]);
  expect(served.filter((name) => !FUZZED.has(name)), 'actions without a property above').toEqual([]);
});

test(`malformed JSON bodies to every action: ${RUNS} runs — a 4xx, never a 5xx`, async ({ baseURL }) => {
  const c = new Client(baseURL!, loopback(121));
  try {
    await property('malformed JSON', fc.record({ action: fc.constantFrom(...ACTIONS), raw: hostileJsonText, type: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain') }), async ({ action, raw, type }, tally) => {
      const a = await c.post(`/_actions/${action}`, { raw, headers: { 'content-type': type } });
      tally.add(a.status);
      expectClean(a, { action, type, raw: raw.slice(0, 200) });
    });
  } finally {
    c.close();
  }
});

/* ───────────── endpoints ───────────── */

test(`GET /api/search and /courses?q=: ${RUNS} hostile queries and NUL, lone surrogate, 100 KB — 200 or a 4xx, never a 5xx, no SQL`, async ({ baseURL }) => {
  const c = new Client(baseURL!, loopback(116));
  try {
    await property(
      'search',
      fc.record({ param: fc.constantFrom('q', 'q', 'lang', 'limit'), value: hostileValue, page: fc.boolean() }).map(({ param, value, page }) => ({ q: 'bienvenida' as Hostile, lang: 'es' as Hostile, limit: '5' as Hostile, [param]: value, page })),
      async ({ q, lang, limit, page }, tally) => {
        const query = `q=${urlPart(q)}&lang=${urlPart(lang)}&limit=${urlPart(limit)}`;
        const a = await tooLargeOrAnswer(c.get(page ? `/courses?${query}` : `/api/search?${query}`), query);
        tally.add(`${page ? 'page' : 'api'} ${a ? a.status : 'closed: request line too large'}`);
        if (!a) return;
        expectClean(a, { query: query.slice(0, 300) });
        if (!page && a.status === 200) expect(Array.isArray((JSON.parse(a.body) as { results?: unknown }).results)).toBe(true);
      },
      RUNS,
      EVERY_FIELD.flatMap((v) => [false, true].map((page) => ({ q: `abc${String(v)}def` as Hostile, lang: 'es' as Hostile, limit: '5' as Hostile, page }))),
    );
  } finally {
    c.close();
  }
});

test(`GET /media/resource/{id} and captions: ${RUNS} hostile ids, languages and ranges — never a 5xx`, async ({ baseURL }) => {
  const c = new Client(baseURL!, loopback(117));
  const video = firstResource(1, 'video');
  try {
    await newLearner(c, 'medios');
    await property(
      'media',
      fc.record({
        id: fc.oneof(fc.constant(String(video)), hostileValue),
        captions: fc.option(fc.oneof(fc.constantFrom('es', 'en'), hostileValue), { nil: undefined }),
        range: fc.option(fc.oneof(fc.constantFrom('bytes=0-', 'bytes=-1', 'bytes=5-1', 'bytes=0-0,2-3,4-5', 'bytes=99999999999999999999-', 'bytes=-0', 'items=0-1', 'bytes=0-1\u0000'), hostileString), { nil: undefined }),
        method: fc.constantFrom('GET', 'HEAD', 'GET'),
      }),
      async ({ id, captions, range, method }, tally) => {
        const path = `/media/resource/${urlPart(id)}${captions === undefined ? '' : `/captions/${urlPart(captions)}.vtt`}`;
        // A header value cannot carry every character: send what HTTP allows.
        const headers = range === undefined ? undefined : { range: [...Buffer.from(range, 'utf8').toString('latin1')].filter((ch) => ch === '\t' || ch.charCodeAt(0) >= 0x20).join('').replaceAll('\u007f', '') };
        const a = await tooLargeOrAnswer(c.request(method, path, headers ? { headers } : {}), `${path}${headers?.range ?? ''}`);
        tally.add(a ? a.status : 'closed: request line too large');
        if (a) expectClean(a, { method, path: path.slice(0, 300), range });
      },
    );
  } finally {
    c.close();
  }
});

/* ───────────── progress: HTTP fallback and socket ───────────── */

const LESSON = firstLesson(1);
const PLAYER = playerPaths(1).lesson;

/** Where the player resumes the fuzzed lesson for the client's person. */
async function resumePoint(c: Client): Promise<{ resumeAt: number; duration: number }> {
  const page = await c.get(PLAYER);
  expect(page.status).toBe(200);
  const lesson = playerLessons(page.body).find((l) => l.id === LESSON.id);
  if (!lesson) throw new Error(`lesson ${LESSON.id} is not on the player page`);
  return { resumeAt: lesson.resumeAt, duration: lesson.durationSeconds };
}

const progressPayload = (Avance: number): Record<string, Hostile> => ({ Identificador: LESSON.id, IdEntidad: 3, Avance, Activo: true });

test(`POST /api/tracking: ${RUNS} hostile events — never a 5xx, and refused ones leave the resume point unchanged`, async ({ baseURL }) => {
  const c = new Client(baseURL!, loopback(118));
  try {
    await newLearner(c, 'avance');
    const start = await c.post('/api/tracking', { json: { event: 'tracking play', courseId: 1, payload: progressPayload(3) } });
    expect(start.status, start.body).toBe(200);
    let last = (JSON.parse(start.body) as { Avance: number }).Avance;
    const before = await resumePoint(c);
    expect(before.resumeAt).toBe(startPosition(last, before.duration));
    await property(
      'tracking over HTTP',
      fc.record({
        payload: mutated(progressPayload(4)),
        outer: fc.option(mutated({ event: 'tracking', courseId: 1, lang: 'en' }), { nil: undefined }),
        kind: fc.constantFrom('json', 'json', 'text', 'raw', 'form'),
        raw: hostileJsonText,
      }),
      async ({ payload, outer, kind, raw }, tally) => {
        const body = { ...(outer?.body ?? { event: 'tracking', courseId: 1 }), payload: payload.body };
        const text = kind === 'raw' ? raw : asJson(body);
        const headers = { 'content-type': kind === 'json' ? 'application/json' : kind === 'form' ? 'application/x-www-form-urlencoded' : 'text/plain;charset=UTF-8' };
        const a = await c.post(`/api/tracking?lang=${kind === 'form' ? '%00' : 'en'}`, { raw: text, headers });
        tally.add(a.status);
        expectClean(a, { body: text.slice(0, 300) });
        if (a.status === 200) {
          const ack = JSON.parse(a.body) as { ok: boolean; Identificador: number; Avance: number };
          if (ack.Identificador === LESSON.id) last = ack.Avance;
        } else expect(a.body).toContain('"ok":false');
      },
    );
    const after = await resumePoint(c);
    expect(after.resumeAt, 'the resume point after the refused events').toBe(startPosition(last, after.duration));
  } finally {
    c.close();
  }
});

test(`socket connection: ${RUNS} hostile course ids — refused with unauthorized, invalid or forbidden, never a crash`, async ({ baseURL }) => {
  const c = new Client(baseURL!, loopback(119));
  try {
    await newLearner(c, 'conexion');
    const cookie = `session=${c.cookies.get('session')}`;
    await property('socket connection', fc.oneof(hostileValue, fc.constantFrom(1, 6, 10, 12, 32, 9999, '1', 1.5, -1, 0)), async (courseId, tally) => {
      const conn = await connect(baseURL!, courseId, { cookie, timeoutMs: 4_000 });
      const seen = outcome(conn);
      tally.add(seen);
      if (conn.ok) conn.socket.close();
      // A handshake larger than the socket's message limit may simply be cut off; anything else gets a verdict.
      if ((JSON.stringify(courseId)?.length ?? 0) > 16 * 1024) expect(seen).not.toBe('ok');
      else expect(['ok', 'unauthorized', 'invalid', 'forbidden'], `course id ${JSON.stringify(courseId)?.slice(0, 80)}`).toContain(seen);
    });
  } finally {
    c.close();
  }
});

test(`socket events (tracking play, tracking, tracking end): ${RUNS} hostile events — an answer for each, and refused ones leave the resume point unchanged`, async ({ baseURL }) => {
  const c = new Client(baseURL!, loopback(120));
  try {
    await newLearner(c, 'socket');
    const cookie = `session=${c.cookies.get('session')}`;
    let conn = await connect(baseURL!, 1, { cookie });
    if (!conn.ok) throw new Error(`no socket: ${conn.error}`);
    const first = (await emitOrDrop(conn.socket, 'tracking play', progressPayload(2))) as { ok: boolean; Avance: number };
    expect(first).toMatchObject({ ok: true });
    let last = first.Avance;
    await property(
      'socket events',
      fc.record({
        event: fc.oneof(fc.constantFrom('tracking play', 'tracking', 'tracking end'), fc.constantFrom('tracking', 'tracking end')),
        payload: fc.oneof({ weight: 4, arbitrary: mutated(progressPayload(3)).map((m) => m.body as Hostile) }, { weight: 1, arbitrary: hostileValue }),
      }),
      async ({ event, payload }, tally) => {
        if (!conn.ok || conn.socket.disconnected) {
          conn = await connect(baseURL!, 1, { cookie });
          if (!conn.ok) throw new Error(`the socket could not reconnect: ${conn.error}`);
        }
        const ack = (await emitOrDrop(conn.socket, event, payload, 5_000)) as { ok?: boolean; error?: string; Identificador?: number; Avance?: number; dropped?: boolean; timeout?: boolean };
        tally.add(ack.ok ? 'ok' : (ack.error ?? (ack.dropped ? 'dropped (too large)' : 'no answer')));
        if (ack.timeout) throw new Error(`no acknowledgement for ${event} ${JSON.stringify(payload)?.slice(0, 200)}`);
        if (ack.dropped) expect(JSON.stringify(payload)?.length ?? 0, 'only an oversized message may close the socket').toBeGreaterThan(16 * 1024);
        else if (ack.ok) {
          if (ack.Identificador === LESSON.id) last = ack.Avance!;
        } else expect(['invalid', 'forbidden', 'rate-limited']).toContain(ack.error);
      },
    );
    if (conn.ok) conn.socket.close();
    const after = await resumePoint(c);
    expect(after.resumeAt, 'the resume point after the refused events').toBe(startPosition(last, after.duration));
  } finally {
    c.close();
  }
});

/* ───────────── Stripe's webhook ───────────── */

test.describe('Stripe webhook, on a server with Stripe configured', () => {
  const SECRET = 'whsec_e2eFuzzOnlyNotARealSecret0';
  // A test key that never reaches Stripe: nothing here charges; the webhook only verifies and logs.
  const server = useOwnServer({ STRIPE_SECRET_KEY: 'sk_test_e2eFuzzOnlyNotARealKey0', STRIPE_WEBHOOK_SECRET: SECRET });
  const eventBody = { id: 'evt_fuzz', object: 'event', type: 'payment_intent.succeeded', data: { object: { id: 'pi_fuzz', object: 'payment_intent', amount: 1999, amount_received: 1999 } } };
  const sign = (payload: string, secret = SECRET, timestamp?: number) => Stripe.webhooks.generateTestHeaderString({ payload, secret, ...(timestamp ? { timestamp } : {}) });

  test(`POST /api/stripe/webhook: ${RUNS} hostile bodies and signatures (none, garbage, another secret, too old, another body's) — 400, never a 5xx; a signed event 200`, async () => {
    const c = new Client(server().baseURL, loopback(142));
    try {
      const good = JSON.stringify(eventBody);
      const ok = await c.post('/api/stripe/webhook', { raw: good, headers: { 'content-type': 'application/json', 'stripe-signature': sign(good) } });
      expect(ok.status, ok.body).toBe(200);
      await property(
        'stripe webhook',
        fc.record({
          body: fc.oneof(hostileJsonText, mutated(eventBody as unknown as Record<string, Hostile>).map((m) => asJson(m.body))),
          signature: fc.oneof(
            fc.constantFrom('none', 'other-secret', 'too-old', 'other-body'),
            fc.stringMatching(/^[\x20-\x7e]{0,200}$/),
          ),
        }),
        async ({ body, signature }, tally) => {
          const header =
            signature === 'none'
              ? undefined
              : signature === 'other-secret'
                ? sign(body, 'whsec_someoneElsesSecret0000')
                : signature === 'too-old'
                  ? sign(body, SECRET, Math.floor(Date.now() / 1000) - 600)
                  : signature === 'other-body'
                    ? sign(good)
                    : signature;
          const a = await c.post('/api/stripe/webhook', { raw: body, headers: { 'content-type': 'application/json', ...(header === undefined ? {} : { 'stripe-signature': header }) } });
          tally.add(a.status);
          expectClean(a, { body: body.slice(0, 300), header });
          expect([400, 413], `${a.status} for ${body.slice(0, 120)} signed ${signature}`).toContain(a.status);
        },
      );
    } finally {
      c.close();
    }
  });
});

test(`my business (an IBO owner): ${RUNS} hostile languages, QR formats, funnel periods, statement months and course links with forged codes — 200, a redirect or a 4xx, never a 5xx`, async ({ baseURL }) => {
  const owner = new Client(baseURL!, loopback(211));
  const visitor = new Client(baseURL!, loopback(212));
  try {
    const login = await owner.post('/_actions/auth.login', { form: { email: 'ibo.horizonte@academia.example', password: 'Horizonte2026', lang: 'en' } });
    expect(login.status, login.body.slice(0, 200)).toBe(200);
    await property(
      'business page, QR codes and course links',
      fc.record({ value: hostileValue, target: fc.constantFrom('page', 'png', 'svg', 'course', 'code', 'from', 'to', 'ibo', 'people', 'sales', 'statement.pdf', 'statement.csv', 'month.pdf', 'month.csv'), en: fc.boolean() }),
      async ({ value, target, en }, tally) => {
        const part = urlPart(value);
        const path =
          target === 'page'
            ? `${en ? '/en' : ''}/mybusiness?lang=${part}`
            : target === 'course'
              ? `${en ? '/en' : ''}/HORIZONTE01?course=${part}`
              : target === 'code'
                ? `${en ? '/en' : ''}/${part}?course=6`
                : target === 'from' || target === 'to' || target === 'ibo'
                  ? `${en ? '/en' : ''}/mybusiness/${target === 'ibo' ? 'sales' : 'funnel'}?${target}=${part}`
                  : target === 'people' || target === 'sales'
                    ? `${en ? '/en' : ''}/mybusiness/${target}?${target === 'people' ? 'q' : 'page'}=${part}&show=${part}`
                  : target.startsWith('statement.')
                    ? `/mybusiness/statements/${new Date().toISOString().slice(0, 7)}.${target.slice(10)}?lang=${part}&ibo=${part}`
                    : target.startsWith('month.')
                      ? `/mybusiness/statements/${part}.${target.slice(6)}?lang=en`
                      : `/mybusiness/qr.${target}?lang=${part}`;
        // Course links are followed as a visitor would (a new session each time); the rest as the owner.
        const c = target === 'course' || target === 'code' ? visitor : owner;
        if (c === visitor) c.cookies.clear();
        const a = await tooLargeOrAnswer(c.get(path), path);
        tally.add(a ? a.status : 'closed: request line too large');
        if (!a) return;
        expectClean(a, { path: path.slice(0, 300) });
        expect([200, 302, 400, 403, 404, 414, 429], `${path.slice(0, 200)} → ${a.status}`).toContain(a.status);
        // The business pages answer the owner's own figures, or refuse in words (a period, filter or page 400, another IBO 403).
        if (target === 'from' || target === 'to' || target === 'ibo' || target === 'people' || target === 'sales') {
          if (a.status === 400 || a.status === 403) expect(a.body, path.slice(0, 200)).toMatch(/role="alert"/);
          if (a.status === 403) expect(target, path.slice(0, 200)).toBe('ibo');
        } else expect(a.status, path.slice(0, 200)).not.toBe(403);
        // A forged course id never leads off the site, and only to a course page.
        if (a.status === 302 && target === 'course') expect(a.location ?? '', path.slice(0, 200)).toMatch(/^\/(en\/)?(courses-details\/\d+|\?ibo=invalid)$/);
      },
      RUNS,
      EVERY_FIELD.map((v) => ({ value: v, target: 'course' as const, en: false })),
    );
  } finally {
    owner.close();
    visitor.close();
  }
});
