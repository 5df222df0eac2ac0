/**
 * The authorization matrix: who gets what from every page (in Spanish and English), every Astro action,
 * every endpoint, lesson media and every socket event. Each row says, for each role, the answer it
 * must get (a status, and where a redirect goes, or the socket's verdict); besides, no answer may
 * show another person's name or e-mail, nor the name of a course the role may not know of.
 *
 * An action's row states what the roles its declared access lets in get (`src/actions/access.ts`); the
 * others get the refusal the access rule gives them (401 or 403), read from the declaration, so an
 * action that declares no access fails the whole matrix.
 *
 * A row may carry `hole`: the issue item whose fix it proves (it failed before that fix), or
 * `pending`: a route that is not built yet, stated as it answers today, for the issue that builds it
 * to update.
 */
import { courseNames, firstLesson, firstModule, firstResource, IBO_OWNERS, PEOPLE, playerPaths, registrationForm } from './seed';
import { FORGED_CHECKOUT_KEY, paymentForm } from './payment';
import { ACTION_RULES, ruleOf } from '../../../src/actions/access';
import { accessVerdict, type Caller } from '../../../src/lib/access/policy';

export const ROLES = ['anonymous', 'guest', 'prospect', 'learner', 'buyer', 'refused', 'admin', 'owner', 'suspended'] as const;
export type Role = (typeof ROLES)[number];

/** Visitors (nobody logged in; a refused login is nobody), IBO sessions, logged-in users. */
export const GROUPS = {
  visitors: ['anonymous', 'refused'],
  ibo: ['guest', 'prospect'],
  /** `owner`: the account of an active IBO (HORIZONTE01); `suspended`: of a suspended one (RUTAS99). */
  users: ['learner', 'buyer', 'admin', 'owner', 'suspended'],
} as const satisfies Record<string, readonly Role[]>;

export type Outcomes = Record<Role, string>;
type Override = Partial<Record<Role | keyof typeof GROUPS, string>>;

/**
 * The outcome of each role: `fallback`, changed for groups then single roles. A refused login always
 * gets exactly what an anonymous visitor gets.
 */
export function per(fallback: string, over: Override = {}): Outcomes {
  if (over.refused !== undefined) throw new Error('a refused login is anonymous: set `anonymous` or `visitors` instead');
  const out = Object.fromEntries(ROLES.map((r) => [r, fallback])) as Outcomes;
  for (const g of Object.keys(GROUPS) as (keyof typeof GROUPS)[]) {
    const v = over[g];
    if (v !== undefined) for (const r of GROUPS[g]) out[r] = v;
  }
  for (const r of ROLES) {
    const v = over[r];
    if (v !== undefined) out[r] = v;
  }
  out.refused = out.anonymous;
  return out;
}

/** Each role as the access rule sees it: `admin` logs in with password and second factor, so holds the administrator role. */
export const CALLERS: Record<Role, Caller> = {
  anonymous: { session: 'visitor', roles: [] },
  refused: { session: 'visitor', roles: [] },
  guest: { session: 'ibo', roles: [] },
  prospect: { session: 'ibo', roles: [] },
  learner: { session: 'user', roles: [] },
  buyer: { session: 'user', roles: [] },
  admin: { session: 'user', roles: ['administrator'] },
  owner: { session: 'user', roles: [], ownsIbo: true },
  suspended: { session: 'user', roles: [], ownsIbo: true },
};

/**
 * `allowed` for the roles action `name`'s declared access lets in, and the access rule's refusal (401,
 * 403) for the others. Throws for an action that declares no access.
 */
export function declared(name: string, allowed: Outcomes): Outcomes {
  const rule = ruleOf(name);
  if (!rule) throw new Error(`action ${name} declares no access: add it to src/actions/access.ts`);
  const out = { ...allowed };
  for (const role of ROLES) {
    const verdict = accessVerdict(rule.access, CALLERS[role]);
    if (verdict !== 'allowed') out[role] = verdict === 'unauthorized' ? '401' : '403';
  }
  return out;
}

/** A request of an HTTP row. */
export interface HttpRequestSpec {
  method: 'GET' | 'HEAD' | 'POST' | 'DELETE';
  path: string;
  form?: Record<string, string>;
  json?: unknown;
  headers?: Record<string, string>;
  /** Extra cookies for this request only (the row runs in a copy of the role's browser state). */
  cookies?: Record<string, string>;
}

/** What one role saw for a row. */
export interface Seen {
  status: number;
  headers: Record<string, string>;
  body: string;
  setCookies: string[];
}

export interface Row {
  /** How the row reads in a report. */
  label: string;
  kind: 'page' | 'endpoint' | 'media' | 'action' | 'socket';
  /** The route pattern, action name or socket event the row covers (for the completeness check). */
  covers: string;
  /** The locale the request is in (pages are checked in both). */
  locale?: 'es' | 'en';
  expect: Outcomes;
  /** Only these roles run the row (others: not applicable). */
  only?: readonly Role[];
  /** Run after every other row of the role, in table order (it changes or ends the session). */
  last?: boolean;
  /** The issue item whose fix this row proves. */
  hole?: string;
  /** A route not built yet: today's answer, for the issue that builds it to update. */
  pending?: string;
  http?: HttpRequestSpec;
  socket?: SocketSpec;
  /** A further check of the answer; returns what is wrong, if anything. */
  check?: (role: Role, seen: Seen) => string | undefined;
  /** A back-office content page: staff holding the editor role see every course's name on it (people's names stay forbidden; see `forbiddenFor`). */
  everyCourse?: boolean;
  /**
   * A back-office page about people (people, orders, reports): staff allowed it see people's names and
   * addresses and every course on it; to everyone else they stay forbidden (see `forbiddenFor`).
   */
  seesPeople?: boolean;
}

export interface SocketSpec {
  courseId: unknown;
  /** The handshake's Origin (default: none, as a Node client). */
  origin?: 'foreign';
  /** An event to send once connected, with its payload. */
  event?: { name: string; payload: Record<string, unknown> };
  /** The namespace (default the progress socket's). */
  namespace?: string;
}

/* ───────────── the data the rows use ───────────── */

export const COURSE = { free: 1, members: 3, paid: 6, buyers: 10, buyers2: 16, hidden: 12, locked: 32, unknown: 9999 } as const;
const L1 = firstLesson(COURSE.free);
const L6 = firstLesson(COURSE.paid);
const VIDEO = {
  free: firstResource(COURSE.free, 'video'),
  members: firstResource(COURSE.members, 'video'),
  paid: firstResource(COURSE.paid, 'video'),
  buyers: firstResource(COURSE.buyers, 'video'),
  buyers2: firstResource(COURSE.buyers2, 'video'),
  hidden: firstResource(COURSE.hidden, 'video'),
  locked: firstResource(COURSE.locked, 'video'),
};
const PDF = firstResource(COURSE.members, 'pdf');
/** A valid book form (without its cover) and plan form: each row changes one field to a refused value. */
const BOOK_FORM = { titleEs: 'Libro de la matriz', titleEn: 'Matrix book', author: 'Ana Ruiz', descriptionEs: 'Uno.', descriptionEn: 'One.', price: '12.50', lang: 'en' };
const PLAN_FORM = { nameEs: 'Plan de la matriz', nameEn: 'Matrix plan', descriptionEs: 'Uno.', descriptionEn: 'One.', featuresEs: 'Uno', featuresEn: 'One', price: '9.99', period: 'month', categories: '2', lang: 'en' };
const IBO_FORM = { code: 'MATRIZ1', companyName: 'Matriz', businessId: '', contactName: 'Ana Matriz', contactEmail: 'ana.matriz@example.com', contactPhone: '', accountEmail: 'buyer@academia.example', sponsorCode: '', lang: 'en' };
const COUPON_FORM = { code: 'MATRIZ', kind: 'percent', percent: '10', startsAt: '', endsAt: '2030-01-01T00:00', maxUses: '', lang: 'en' };
const BLOG = 'shoulder-season';
const EVENT = 'shoulder-season-webinar';

/** Names no role but the buyer may ever see (buyers-only courses), and names nobody may see (the test course). */
export const BUYERS_ONLY_NAMES = [...courseNames(COURSE.buyers), ...courseNames(COURSE.buyers2)];
export const HIDDEN_NAMES = courseNames(COURSE.hidden);

/** The strings of a person that must not appear in anyone else's answers. */
export function personMarkers(p: { email: string; firstName: string; lastName: string }): string[] {
  return [p.email, `${p.firstName} ${p.lastName}`, p.lastName];
}

/**
 * What must never appear in `role`'s answers (its own name and e-mail may). `everyCourse`: the answer
 * is a content page of the back office, where staff holding the editor role see every course (test and
 * buyers-only courses included); other people's names stay forbidden there too. `seesPeople`: a page
 * about people, where staff see everything (`Row.seesPeople`).
 */
export function forbiddenFor(role: Role, everyCourse = false, seesPeople = false): string[] {
  if (seesPeople && CALLERS[role].roles.length > 0) return [];
  const people = (Object.keys(PEOPLE) as (keyof typeof PEOPLE)[]).filter((who) => who !== role).flatMap((who) => personMarkers(PEOPLE[who]));
  if (everyCourse && accessVerdict('editor', CALLERS[role]) === 'allowed') return people;
  return [...people, ...(role === 'buyer' ? [] : BUYERS_ONLY_NAMES), ...HIDDEN_NAMES];
}

/* ───────────── builders ───────────── */

/** Course authoring's refusals, one or more per action, each leaving the seeded courses and their drafts as they were. */
function authoringRows(): Row[] {
  const free = String(COURSE.free);
  const lesson = `l${firstLesson(COURSE.free).id}`;
  const otherModule = `m${firstModule(COURSE.members).id}`;
  const settings = { courseId: free, nameEs: 'Matriz', nameEn: 'Matrix', descriptionEs: '', descriptionEn: '', categoryId: '2', businessId: '1', price: '0', lang: 'en' };
  const a = (name: string, label: string, status: string, form: Record<string, string>, more: Partial<Row> & { beforeAccess?: boolean } = {}) => action(`authoring.${name}`, label, per(status), { form: { lang: 'en', ...form } }, { everyCourse: true, ...more });
  return [
    a('create', 'a code already used', '409', { code: 'INTRO-ACADEMY', nameEs: 'Matriz', nameEn: 'Matrix', categoryId: '2', businessId: '1' }),
    a('create', 'a category that does not exist', '400', { code: `MATRIZ-${RUN}`.slice(0, 40), nameEs: 'Matriz', nameEn: 'Matrix', categoryId: '999', businessId: '1' }),
    a('create', 'a code with a path in it', '400', { code: '../etc/passwd', nameEs: 'Matriz', nameEn: 'Matrix', categoryId: '2', businessId: '1' }, { beforeAccess: true }),
    a('uploadThumbnail', 'no picture', '400', { courseId: String(COURSE.free) }),
    a('uploadThumbnail', 'a course that does not exist', '404', { courseId: String(COURSE.unknown), thumbnail: '<svg onload="alert(1)"/>' }),
    a('saveSettings', 'a price below zero', '400', { ...settings, price: '-1.00' }),
    a('saveSettings', 'a price with fractions of a cent', '400', { ...settings, price: '12.505' }),
    a('saveSettings', 'an absurd price', '400', { ...settings, price: '99999999' }),
    a('saveSettings', 'the course as its own prerequisite', '400', { ...settings, prerequisiteCourseId: free }),
    a('saveSettings', 'a course that does not exist', '404', { ...settings, courseId: String(COURSE.unknown) }),
    a('addModule', 'a course that does not exist', '404', { courseId: String(COURSE.unknown), nameEs: 'Matriz', nameEn: 'Matrix' }),
    a('renameModule', 'a module the course does not have', '404', { courseId: free, key: 'm999999', nameEs: 'Matriz', nameEn: 'Matrix' }),
    a('removeModule', "another course's module", '404', { courseId: free, key: otherModule }),
    a('stepModule', 'a forged module key', '404', { courseId: free, key: 'm2147483647', direction: 'up' }),
    a('addLesson', "into another course's module", '404', { courseId: free, moduleKey: otherModule, nameEs: 'Matriz', nameEn: 'Matrix' }),
    a('editLesson', 'a lesson the course does not have', '404', { courseId: free, key: 'l999999', nameEs: 'Matriz', nameEn: 'Matrix', summaryEs: '', summaryEn: '' }),
    a('removeLesson', 'a lesson the course does not have', '404', { courseId: free, key: 'l999999' }),
    a('stepLesson', 'a direction that does not exist', '400', { courseId: free, key: lesson, direction: 'sideways' }, { beforeAccess: true }),
    a('moveLesson', "into another course's module", '404', { courseId: free, key: lesson, moduleKey: otherModule, index: '0' }),
    a('setVideo', 'a file that is not in the media library', '404', { courseId: free, lessonKey: lesson, mediaFileId: '2147483647' }),
    a('addLink', 'an address that is not https', '400', { courseId: free, lessonKey: lesson, titleEs: 'Guía', titleEn: 'Guide', url: 'javascript:alert(1)' }),
    a('removeResource', 'a resource the course does not have', '404', { courseId: free, key: 'r999999' }),
    a('publish', 'a course without a draft', '409', { courseId: free }),
    a('publish', 'a course that does not exist', '404', { courseId: String(COURSE.unknown) }),
    a('discard', 'a course without a draft', '409', { courseId: free }),
    action('authoring.arrangeOutline', 'an order that is not the course', per('400'), { json: { courseId: COURSE.free, outline: [{ module: otherModule, lessons: [lesson] }], lang: 'en' } }, { everyCourse: true }),
  ];
}

/**
 * Course archives (editors): the export of a published course (a zip for the administrator, 401/403 in
 * words for the others, 404 for a course that does not exist or an id that is not one), and the import's
 * refusals of what is not an archive (each a sentence and a 4xx, no course written).
 */
function courseArchiveRows(): Row[] {
  // Nobody logged in (or an IBO session) is sent to the login page first, as for every /admin path.
  const editorOnly = (path: string, admin: string) => per('403', { visitors: loginRedirect('es', path), ibo: loginRedirect('es', path), admin });
  const isZip = (_r: Role, seen: Seen) =>
    seen.status === 200 && !(seen.headers['content-type'] === 'application/zip' && /^attachment; filename="[A-Za-z0-9-]+\.zip"$/.test(seen.headers['content-disposition'] ?? '') && seen.body.startsWith('PK'))
      ? 'is not a zip attachment'
      : seen.status !== 302 && seen.headers['cache-control'] !== 'private, no-store'
        ? 'may be cached'
        : undefined;
  const get = (path: string, label: string, admin: string): Row => ({ label: `GET ${path} (${label})`, kind: 'endpoint', covers: 'GET /admin/courses/[id]/export', expect: editorOnly(path, admin), http: { method: 'GET', path }, everyCourse: true, check: isZip });
  const a = (label: string, status: string, form: Record<string, string>) => action('courseArchive.import', label, per(status), { form: { lang: 'en', ...form } }, { everyCourse: true });
  return [
    get(`/admin/courses/${COURSE.free}/export?lang=en`, 'a published course', '200'),
    get(`/admin/courses/${COURSE.unknown}/export?lang=en`, 'unknown course', '404'),
    get('/admin/courses/abc/export?lang=es', 'not an id', '404'),
    get('/admin/courses/0/export', 'zero', '404'),
    get('/admin/courses/2147483648/export?lang=en', 'past the largest id', '404'),
    a('no file', '400', {}),
    a('a file typed as text', '400', { file: 'PK\u0003\u0004 not really a zip' }),
  ];
}

const en = (path: string) => (path === '/' ? '/en/' : `/en${path}`);
const loginRedirect = (locale: 'es' | 'en', path: string) => `302 → ${locale === 'en' ? '/en' : ''}/login?next=${encodeURIComponent(locale === 'en' ? en(path) : path)}`;

interface PageOptions extends Omit<Row, 'label' | 'kind' | 'covers' | 'locale' | 'expect' | 'http'> {
  covers: string;
  note?: string;
  cookies?: Record<string, string>;
}

/** The same page in Spanish and in English (or only `locales`); `expect` may depend on the locale. */
function page(path: string, expect: Outcomes | ((locale: 'es' | 'en') => Outcomes), opts: PageOptions, locales: readonly ('es' | 'en')[] = ['es', 'en']): Row[] {
  return locales.map((locale) => {
    const { note, cookies, ...rest } = opts;
    const url = locale === 'en' ? en(path) : path;
    return {
      ...rest,
      label: `GET ${url}${note ? ` (${note})` : ''}`,
      kind: 'page',
      locale,
      expect: typeof expect === 'function' ? expect(locale) : expect,
      http: { method: 'GET', path: url, ...(cookies ? { cookies } : {}) },
    } satisfies Row;
  });
}

const publicPage = (path: string, covers = path, note?: string) => page(path, per('200'), { covers, ...(note ? { note } : {}) });

/**
 * A staff page: the administrator gets it (`admin`: its status), other users 403, everybody else goes to
 * the login page. `everyCourse`: a page of the back office's courses (see `forbiddenFor`).
 */
const staffPage = (path: string, covers = path, note?: string, everyCourse = false, admin = '200') =>
  page(path, (l) => per('403', { visitors: loginRedirect(l, path), ibo: loginRedirect(l, path), admin }), { covers, ...(note ? { note } : {}), ...(everyCourse ? { everyCourse } : {}) });

/** Rows of the back office's pages about people (`Row.seesPeople`). */
const aboutPeople = (rows: Row[]): Row[] => rows.map((r) => ({ ...r, seesPeople: true }));

/** A protected page: users get it, everybody else goes to the login page, which brings them back. */
const personal = (path: string, covers = path) => page(path, (l) => per('200', { visitors: loginRedirect(l, path), ibo: loginRedirect(l, path) }), { covers });

/**
 * An action's row: `expect` is what the roles its declared access lets in get; the others get the
 * declared refusal. `beforeAccess`: the answer comes before the access check (another site's post, an
 * input its schema refuses), so `expect` holds for every role as it is.
 */
const action = (
  name: string,
  label: string,
  expect: Outcomes,
  send: { form?: Record<string, string>; json?: unknown; headers?: Record<string, string>; cookies?: Record<string, string> },
  more: Partial<Row> & { beforeAccess?: boolean } = {},
): Row => {
  const { beforeAccess, ...rest } = more;
  const outcomes = declared(name, expect);
  return {
    label: `POST /_actions/${name} (${label})`,
    kind: 'action',
    covers: name,
    expect: beforeAccess ? expect : outcomes,
    http: { method: 'POST', path: `/_actions/${name}`, ...send },
    ...rest,
  };
};

const media = (method: 'GET' | 'HEAD' | 'DELETE', path: string, label: string, expect: Outcomes, headers?: Record<string, string>): Row => ({
  label: `${method} ${path} (${label})`,
  kind: 'media',
  covers: `${method} ${path.includes('/captions/') ? '/media/resource/[id]/captions/[lang].vtt' : '/media/resource/[id]'}`,
  expect,
  http: { method, path, ...(headers ? { headers } : {}) },
});

const hls = (method: 'GET' | 'HEAD' | 'DELETE', path: string, label: string, expect: Outcomes): Row => ({
  label: `${method} ${path} (${label})`,
  kind: 'media',
  covers: `${method} /media/resource/[id]/hls/[...path]`,
  expect,
  http: { method, path },
});

const preview = (method: 'GET' | 'HEAD' | 'DELETE', path: string, label: string, expect: Outcomes): Row => ({
  label: `${method} ${path} (${label})`,
  kind: 'media',
  covers: `${method} /media/video/[id]/[...file]`,
  expect,
  http: { method, path },
});

const track = (label: string, courseId: unknown, payload: Record<string, unknown>, expect: Outcomes, event = 'tracking play'): Row => ({
  label: `POST /api/tracking (${label})`,
  kind: 'endpoint',
  covers: 'POST /api/tracking',
  expect,
  http: { method: 'POST', path: '/api/tracking', json: { event, courseId, payload } },
});

const socketRow = (label: string, covers: string, spec: SocketSpec, expect: Outcomes, more: Partial<Row> = {}): Row => ({ label: `socket ${label}`, kind: 'socket', covers, expect, socket: spec, ...more });

/** The answer `check` of a page: the body contains one of `texts` (a name in either language) for `roles`, none for the others. */
const shows = (texts: readonly string[], roles: readonly Role[]) => (role: Role, seen: Seen) => {
  const has = texts.some((t) => seen.body.includes(t));
  if (roles.includes(role) && !has) return `should show "${texts.join('" or "')}"`;
  if (!roles.includes(role) && has) return `should not show "${texts.join('" or "')}"`;
  return undefined;
};

/** A unique value of this test run (e-mails, markers). */
export const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** The prospect the `prospect` role confirms (new each run), and the one the `guest` role confirms last. */
export const PROSPECT = { firstName: 'Matriz', lastName: `Prospecto${RUN}`, email: `matriz.${RUN}@example.com` };
export const GUEST_PROSPECT = { firstName: 'Matriz', lastName: `Invitado${RUN}`, email: `matriz.invitado.${RUN}@example.com` };

const contactForm = {
  name: 'Matriz',
  lastName: 'Contacto',
  email: `matriz.contacto.${RUN}@example.com`,
  countryCode: 'US',
  countryPhoneCode: '+1',
  phone: '3051234567',
  type: '8',
  message: `Authorization matrix ${RUN}`,
  accepts: 'on',
  language: 'en',
};

/** A complete payment form (its key is not one the server issued: the action refuses it before any order). */
const checkoutForm = paymentForm({ cardholderName: 'Matriz Pago' });

const CROSS_SITE = { origin: 'https://evil.example' };
const forgedCart = { cart: encodeURIComponent(JSON.stringify([{ kind: 'course', id: COURSE.buyers }, { kind: 'course', id: COURSE.buyers2 }, { kind: 'course', id: COURSE.hidden }, { kind: 'course', id: COURSE.paid }])) };

/** What the tracking answer is for the first lesson of a course each role may (or may not) open. */
const mayTrack = (allowed: Override) => per('403', { visitors: '401', guest: '401', ...allowed });
const sock = (over: Override) => per('forbidden', { visitors: 'unauthorized', guest: 'unauthorized', ...over });
const noSocket = (over: Override) => per('no connection (forbidden)', { visitors: 'no connection (unauthorized)', guest: 'no connection (unauthorized)', ...over });

/* ───────────── the matrix ───────────── */

export function matrix(): Row[] {
  const free = playerPaths(COURSE.free);
  const paid = playerPaths(COURSE.paid);
  const buyers = playerPaths(COURSE.buyers);
  // The player's module and lesson addresses are the same route as the course's: Spanish only keeps the matrix quick.
  const player = (id: number, paths?: { module: string; lesson: string }) => [`/course-tracking/${id}`, ...(paths ? [paths.module, paths.lesson] : [])];
  const playerRows = (id: number, expect: Outcomes, note: string, paths?: { module: string; lesson: string }) =>
    player(id, paths).flatMap((p, i) => page(p, expect, { covers: '/course-tracking/[...path]', note }, i === 0 ? ['es', 'en'] : ['es']));
  const rows: Row[] = [
    /* pages everybody may see */
    ...['/', '/index-2', '/index-3', '/about-us', '/books', '/plans', '/membership', '/contact-us', '/contact-1', '/contact-2', '/privacity', '/terms', '/event', '/events-details', '/faq-1', '/faq-2', '/portfolio', '/blog-classic-grid', '/blog-classic-sidebar', '/blog-list-sidebar', '/blog-standard-sidebar', '/blog-details', '/login', '/register', '/forgot-password', '/guest', '/purchase'].flatMap((p) => publicPage(p)),
    ...publicPage(`/blog-details/${BLOG}`, '/blog-details/[slug]'),
    ...page('/blog-details/no-such-post', per('404'), { covers: '/blog-details/[slug]', note: 'unknown' }),
    ...publicPage(`/events-details/${EVENT}`, '/events-details/[slug]'),
    ...page('/events-details/no-such-event', per('404'), { covers: '/events-details/[slug]', note: 'unknown' }),
    ...page('/courses', per('200'), { covers: '/courses', note: 'catalogue', check: (role, seen) => shows(courseNames(COURSE.buyers), ['buyer'])(role, seen) ?? shows(courseNames(COURSE.buyers2), ['buyer'])(role, seen) }),
    ...page('/courses?q=Elite', per('200'), { covers: '/courses', note: 'search' }),
    ...page('/404', per('404'), { covers: '/404' }),
    ...page('/no/such/address/anywhere', per('404'), { covers: '/[...unknown]', note: 'matches nothing' }),
    // The error page itself answers 500 (it is what a failed render shows).
    ...page('/500', per('500'), { covers: '/500' }),
    ...page('/reset-password', per('400'), { covers: '/reset-password', note: 'no token' }),
    ...page('/reset-password?token=forged', per('410'), { covers: '/reset-password', note: 'forged token' }),
    ...page('/confirm-email', per('400'), { covers: '/confirm-email', note: 'no token' }),
    ...page('/confirm-email?token=forged', per('410'), { covers: '/confirm-email', note: 'forged token' }),

    /* course pages: buyers-only courses and the test course answer as if they did not exist */
    ...page(`/courses-details/${COURSE.free}`, per('200'), { covers: '/courses-details/[id]', note: 'free' }),
    ...page(`/courses-details/${COURSE.paid}`, per('200'), { covers: '/courses-details/[id]', note: 'paid' }),
    ...page(`/courses-details/${COURSE.buyers}`, per('404', { buyer: '200' }), { covers: '/courses-details/[id]', note: 'buyers-only' }),
    ...page(`/courses-details/${COURSE.buyers2}`, per('404', { buyer: '200' }), { covers: '/courses-details/[id]', note: 'buyers-only' }),
    ...page(`/courses-details/${COURSE.hidden}`, per('404'), { covers: '/courses-details/[id]', note: 'test course' }),
    ...page(`/courses-details/${COURSE.locked}`, per('200'), { covers: '/courses-details/[id]', note: 'prerequisite' }),
    ...page(`/courses-details/${COURSE.unknown}`, per('404'), { covers: '/courses-details/[id]', note: 'unknown' }),
    ...page('/courses-details/abc', per('404'), { covers: '/courses-details/[id]', note: 'not an id' }),

    /* the lesson player: 403 with the next step when the course may not be watched yet, 404 when it may not be known */
    ...playerRows(COURSE.free, per('200', { visitors: '403', guest: '403' }), 'free for guests', free),
    ...playerRows(COURSE.members, per('200', { visitors: '403', ibo: '403' }), 'members'),
    ...playerRows(COURSE.paid, per('403', { buyer: '200' }), 'paid', paid),
    ...playerRows(COURSE.buyers, per('404', { buyer: '200' }), 'buyers-only', buyers),
    ...playerRows(COURSE.buyers2, per('404', { buyer: '200' }), 'buyers-only'),
    ...playerRows(COURSE.hidden, per('404'), 'test course'),
    ...playerRows(COURSE.locked, per('403'), 'prerequisite'),
    ...playerRows(COURSE.unknown, per('404'), 'unknown'),
    ...page(`/course-tracking/${COURSE.free}/x/y/${L6.id}`, per('404'), { covers: '/course-tracking/[...path]', note: "another course's lesson" }, ['es']),

    /* my business (IBO owners): a visitor logs in, an IBO session opened with the code 401, a learner 403, each in words; a suspended IBO's owner the notice only */
    ...page('/mybusiness', (l) => per('403', { visitors: loginRedirect(l, '/mybusiness'), ibo: '401', owner: '200', suspended: '200' }), { covers: '/mybusiness', check: businessShown }),
    // The funnel: the owner's own figures; another IBO named in the address 403, a period reversed 400, each in words; no figure to anyone else.
    ...page('/mybusiness/funnel', (l) => per('403', { visitors: loginRedirect(l, '/mybusiness/funnel'), ibo: '401', owner: '200', suspended: '200' }), { covers: '/mybusiness/funnel', check: areaShown('biz-funnel') }),
    ...page('/mybusiness/funnel?ibo=999999&from=2026-01-01', (l) => per('403', { visitors: loginRedirect(l, '/mybusiness/funnel?ibo=999999&from=2026-01-01'), ibo: '401', suspended: '200' }), { covers: '/mybusiness/funnel', note: "another IBO's figures", check: areaShown('biz-funnel', true) }),
    ...page('/mybusiness/funnel?from=2026-11-10&to=2016-11-01', (l) => per('403', { visitors: loginRedirect(l, '/mybusiness/funnel?from=2026-11-10&to=2016-11-01'), ibo: '401', owner: '400', suspended: '200' }), { covers: '/mybusiness/funnel', note: 'a period reversed', check: areaShown('biz-funnel', true) }),
    // My people: the owner's own list; a filter that does not exist 400, another IBO named 403, in words.
    ...page('/mybusiness/people', (l) => per('403', { visitors: loginRedirect(l, '/mybusiness/people'), ibo: '401', owner: '200', suspended: '200' }), { covers: '/mybusiness/people', check: areaShown('biz-people-list') }),
    ...page('/mybusiness/people?show=everyone', (l) => per('403', { visitors: loginRedirect(l, '/mybusiness/people?show=everyone'), ibo: '401', owner: '400', suspended: '200' }), { covers: '/mybusiness/people', note: 'a filter that does not exist', check: areaShown('biz-people', true) }),
    ...page('/mybusiness/people?ibo=999999', (l) => per('403', { visitors: loginRedirect(l, '/mybusiness/people?ibo=999999'), ibo: '401', suspended: '200' }), { covers: '/mybusiness/people', note: "another IBO's people", check: areaShown('biz-people', true) }),
    // My sales: the owner's own orders and commissions; a page that is not one 400, another IBO named 403, in words.
    ...page('/mybusiness/sales', (l) => per('403', { visitors: loginRedirect(l, '/mybusiness/sales'), ibo: '401', owner: '200', suspended: '200' }), { covers: '/mybusiness/sales', check: areaShown('biz-totals') }),
    ...page('/mybusiness/sales?page=-1', (l) => per('403', { visitors: loginRedirect(l, '/mybusiness/sales?page=-1'), ibo: '401', owner: '400', suspended: '200' }), { covers: '/mybusiness/sales', note: 'a page that is not one', check: areaShown('biz-sales', true) }),
    ...page('/mybusiness/sales?ibo=999999', (l) => per('403', { visitors: loginRedirect(l, '/mybusiness/sales?ibo=999999'), ibo: '401', suspended: '200' }), { covers: '/mybusiness/sales', note: "another IBO's sales", check: areaShown('biz-sales', true) }),
    // My team: figures of the IBOs it sponsored, two levels deep; a period of ten years 400, another IBO named 403, in words.
    ...page('/mybusiness/team', (l) => per('403', { visitors: loginRedirect(l, '/mybusiness/team'), ibo: '401', owner: '200', suspended: '200' }), { covers: '/mybusiness/team', check: areaShown('MUNDO2026') }),
    ...page('/mybusiness/team?from=2016-01-01&to=2026-01-01', (l) => per('403', { visitors: loginRedirect(l, '/mybusiness/team?from=2016-01-01&to=2026-01-01'), ibo: '401', owner: '400', suspended: '200' }), { covers: '/mybusiness/team', note: 'a period of ten years', check: areaShown('biz-team', true) }),
    ...page('/mybusiness/team?ibo=999999', (l) => per('403', { visitors: loginRedirect(l, '/mybusiness/team?ibo=999999'), ibo: '401', suspended: '200' }), { covers: '/mybusiness/team', note: "another IBO's team", check: areaShown('biz-team', true) }),
    // A nudge: only of one of the IBO's own people (anyone else, whatever the id, is "not among your people"); a suspended IBO's owner 403.
    action('business.nudge', "someone not among the IBO's people", per('404', { suspended: '403' }), { form: { person: '2147483647', key: `matrix-nudge-${RUN}-0001`, lang: 'en' } }),
    action('business.nudge', 'a person id that is not one', per('400'), { form: { person: "1' or 1=1", key: `matrix-nudge-${RUN}-0002`, lang: 'en' } }, { beforeAccess: true }),
    action('business.nudge', 'no form key', per('400'), { form: { person: '1', lang: 'en' } }, { beforeAccess: true }),
    // The stop link of a nudge's mail: the token decides, whoever opens it.
    action('business.stopNudges', 'a token the academy did not make', per('400'), { form: { c: '1', t: 'A'.repeat(43), lang: 'en' } }),
    action('business.stopNudges', 'a NUL in the token', per('400'), { form: { c: '1', t: `${'A'.repeat(42)}\u0000`, lang: 'en' } }, { beforeAccess: true }),
    ...page('/nudges/stop?c=1&t=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', per('400'), { covers: '/nudges/stop', note: 'a token the academy did not make' }),
    ...(['png', 'svg'] as const).flatMap((format) =>
      (['es', 'en'] as const).map(
        (lang): Row => ({
          label: `GET /mybusiness/qr.${format}?lang=${lang}`,
          kind: 'endpoint',
          covers: `GET /mybusiness/qr.${format}`,
          expect: per('403', { visitors: '401', ibo: '401', owner: '200' }),
          http: { method: 'GET', path: `/mybusiness/qr.${format}?lang=${lang}` },
          check: qrShown(format, lang),
        }),
      ),
    ),
    // Commission statements: only the owner's own (the IBO is the session's, never the URL's); a bad month 400 in words, after the gate.
    ...(['pdf', 'csv'] as const).flatMap((format) =>
      (['es', 'en'] as const).flatMap((lang): Row[] => [
        {
          label: `GET /mybusiness/statements/${THIS_MONTH}.${format}?lang=${lang}`,
          kind: 'endpoint',
          covers: `GET /mybusiness/statements/[month].${format}`,
          expect: per('403', { visitors: '401', ibo: '401', owner: '200' }),
          http: { method: 'GET', path: `/mybusiness/statements/${THIS_MONTH}.${format}?lang=${lang}` },
          check: statementShown(format, lang),
        },
        ...['2026-13', 'abc', '2999-01', '2026-11%00', '..%2F2026-11'].map(
          (month): Row => ({
            label: `GET /mybusiness/statements/${month}.${format}?lang=${lang} (bad month)`,
            kind: 'endpoint',
            covers: `GET /mybusiness/statements/[month].${format}`,
            expect: per('403', { visitors: '401', ibo: '401', owner: '400' }),
            http: { method: 'GET', path: `/mybusiness/statements/${month}.${format}?lang=${lang}` },
            check: statementShown(format, lang),
          }),
        ),
        {
          label: `GET /mybusiness/statements/${THIS_MONTH}.${format}?lang=${lang}&ibo=2&code=MUNDO2026 (another IBO forged)`,
          kind: 'endpoint',
          covers: `GET /mybusiness/statements/[month].${format}`,
          expect: per('403', { visitors: '401', ibo: '401', owner: '200' }),
          http: { method: 'GET', path: `/mybusiness/statements/${THIS_MONTH}.${format}?lang=${lang}&ibo=2&code=MUNDO2026` },
          check: statementShown(format, lang),
        },
      ]),
    ),
    // A course link of an IBO opens the course with the code; a forged code answers as every unknown code does.
    ...page('/HORIZONTE01?course=6', per('302 → /courses-details/6'), { covers: '/[iboCodeParam]', note: 'course link', last: true }, ['es']),
    ...page('/HORIZONTE01?course=6', per('302 → /en/courses-details/6'), { covers: '/[iboCodeParam]', note: 'course link', last: true }, ['en']),

    /* the back office: staff only (a learner 403, anyone not logged in to the login); the administrator has proved the second factor */
    ...staffPage('/admin'),
    ...staffPage('/admin/staff'),
    ...staffPage('/admin/audit'),
    ...staffPage('/admin/audit?actor=%27%20or%201%3D1&from=2026-13-45&page=-1', '/admin/audit', 'malformed filters'),
    // Certificates (administrators only): a search that is neither a code nor an address, and a code nobody holds, answer 200 in words.
    ...staffPage('/admin/certificates'),
    ...staffPage('/admin/certificates?q=%27%20or%201%3D1%00', '/admin/certificates', 'hostile search'),
    ...staffPage('/admin/certificates?q=ACAD-0000-0000-0000-0000', '/admin/certificates', 'a code nobody holds'),
    // IBOs (administrators only): malformed filters are ignored; an unknown IBO is a 404 in words.
    ...staffPage('/admin/ibos'),
    ...staffPage('/admin/ibos?q=%27%20or%201%3D1%00&status=%3Cscript%3E&page=-1', '/admin/ibos', 'hostile search'),
    ...staffPage('/admin/ibos/new'),
    ...staffPage('/admin/ibos/1', '/admin/ibos/[id]', "an IBO's form"),
    ...staffPage('/admin/ibos/2147483647', '/admin/ibos/[id]', 'unknown IBO', false, '404'),
    ...staffPage('/admin/ibos/abc', '/admin/ibos/[id]', 'not an id', false, '404'),
    // IBO commissions (administrators only): the rates and the payouts.
    ...staffPage('/admin/commissions'),
    // Books and plans: editors, and the administrator through the policy; an id that is no book's or plan's is a 404 in words.
    ...staffPage('/admin/books'),
    ...staffPage('/admin/books?book=1', '/admin/books', "a book's form"),
    ...page('/admin/books?book=999999', (l) => per('403', { visitors: loginRedirect(l, '/admin/books?book=999999'), ibo: loginRedirect(l, '/admin/books?book=999999'), admin: '404' }), { covers: '/admin/books', note: 'unknown book' }),
    ...page('/admin/books?book=1%27%20or%201=1', (l) => per('403', { visitors: loginRedirect(l, '/admin/books?book=1%27%20or%201=1'), ibo: loginRedirect(l, '/admin/books?book=1%27%20or%201=1'), admin: '404' }), { covers: '/admin/books', note: 'forged id' }),
    ...staffPage('/admin/plans'),
    ...staffPage('/admin/plans?plan=1', '/admin/plans', "a plan's form"),
    ...page('/admin/plans?plan=abc', (l) => per('403', { visitors: loginRedirect(l, '/admin/plans?plan=abc'), ibo: loginRedirect(l, '/admin/plans?plan=abc'), admin: '404' }), { covers: '/admin/plans', note: 'forged id' }),
    // Course authoring (editors; the administrator holds the editor's grants). A course that does not exist: 404 in words.
    ...staffPage('/admin/coupons'),
    ...staffPage('/admin/coupons?coupon=1', '/admin/coupons', "a coupon's form and uses"),
    ...page('/admin/coupons?coupon=999999', (l) => per('403', { visitors: loginRedirect(l, '/admin/coupons?coupon=999999'), ibo: loginRedirect(l, '/admin/coupons?coupon=999999'), admin: '404' }), { covers: '/admin/coupons', note: 'unknown coupon' }),
    ...page('/admin/coupons?coupon=1%27%20or%201=1', (l) => per('403', { visitors: loginRedirect(l, '/admin/coupons?coupon=1%27%20or%201=1'), ibo: loginRedirect(l, '/admin/coupons?coupon=1%27%20or%201=1'), admin: '404' }), { covers: '/admin/coupons', note: 'forged id' }),
    // Memberships (finance; the administrator through the policy): malformed filters are ignored; an unknown membership is a 404 in words.
    ...staffPage('/admin/memberships'),
    ...staffPage('/admin/memberships?q=%27%20or%201%3D1%00&plan=abc&state=%3Cscript%3E&page=-1', '/admin/memberships', 'malformed filters'),
    ...staffPage('/admin/memberships/2147483647', '/admin/memberships/[id]', 'unknown membership', false, '404'),
    ...staffPage('/admin/memberships/abc', '/admin/memberships/[id]', 'not an id', false, '404'),
    ...staffPage('/admin/coupons?coupon=1&uses=99', '/admin/coupons', "a coupon's uses past the last page"),
    ...staffPage('/admin/courses', '/admin/courses', undefined, true),
    ...staffPage('/admin/courses?q=%27%20or%201%3D1%00', '/admin/courses', 'hostile search', true),
    ...staffPage(`/admin/courses/${COURSE.free}`, '/admin/courses/[id]', undefined, true),
    ...staffPage(`/admin/courses/${COURSE.hidden}`, '/admin/courses/[id]', 'test course', true),
    ...staffPage(`/admin/courses/${COURSE.unknown}`, '/admin/courses/[id]', 'unknown course', true, '404'),
    ...staffPage('/admin/courses/abc', '/admin/courses/[id]', 'not an id', true, '404'),
    ...staffPage(`/admin/courses/${COURSE.buyers}/preview`, '/admin/courses/[id]/preview', 'buyers-only course', true),
    ...staffPage(`/admin/courses/${COURSE.unknown}/preview`, '/admin/courses/[id]/preview', 'unknown course', true, '404'),
    // The question banks (editors; the administrator holds every staff role): a course without an exam, or a forged id, is not found.
    ...staffPage('/admin/questions', '/admin/questions', undefined, true),
    ...staffPage('/admin/questions/1', '/admin/questions/[courseId]'),
    ...page('/admin/questions/999999', (l) => per('403', { visitors: loginRedirect(l, '/admin/questions/999999'), ibo: loginRedirect(l, '/admin/questions/999999'), admin: '404' }), { covers: '/admin/questions/[courseId]', note: 'no such course' }),
    ...page('/admin/questions/abc', (l) => per('403', { visitors: loginRedirect(l, '/admin/questions/abc'), ibo: loginRedirect(l, '/admin/questions/abc'), admin: '404' }), { covers: '/admin/questions/[courseId]', note: 'not an id' }),
    /* the video library: editors (the administrator holds every staff role); an unknown video is a 404 in words */
    ...staffPage('/admin/videos'),
    ...page('/admin/videos/2147483647', (l) => per('403', { visitors: loginRedirect(l, '/admin/videos/2147483647'), ibo: loginRedirect(l, '/admin/videos/2147483647'), admin: '404' }), { covers: '/admin/videos/[id]', note: 'unknown video' }),
    /* the support inbox: support staff (the administrator holds every staff role); malformed filters are ignored; an unknown message is a 404 in words */
    ...aboutPeople(staffPage('/admin/orders')),
    ...aboutPeople(staffPage('/admin/orders?q=buyer%40academia.example&status=paid&kind=course&page=-1', '/admin/orders', 'searched by e-mail')),
    ...aboutPeople(staffPage('/admin/orders?from=2026-03-02&to=2026-03-01', '/admin/orders', 'a reversed date range', false, '400')),
    ...aboutPeople(staffPage('/admin/orders?from=2016-01-01&to=2026-01-01', '/admin/orders', 'a ten-year date range', false, '400')),
    ...aboutPeople(staffPage('/admin/orders/1', '/admin/orders/[id]', 'a seeded order')),
    ...aboutPeople(staffPage('/admin/orders/2147483647', '/admin/orders/[id]', 'unknown order', false, '404')),
    ...staffPage('/admin/support'),
    ...staffPage('/admin/support?type=%27%20or%201%3D1&status=%3Cscript%3E&page=-1', '/admin/support', 'malformed filters'),
    ...staffPage('/admin/support/2147483647', '/admin/support/[id]', 'unknown message', false, '404'),
    ...staffPage('/admin/support/abc', '/admin/support/[id]', 'not an id', false, '404'),
    /* people: support staff (the administrator holds every staff role); a NUL or an overlong search, and an id that is not one, are a 400 in words; an unknown person a 404 */
    ...aboutPeople(staffPage('/admin/people')),
    ...aboutPeople(staffPage('/admin/people?q=horizonte01&page=-1', '/admin/people', 'an IBO code')),
    ...aboutPeople(staffPage('/admin/people?q=ana%00', '/admin/people', 'a NUL in the search', false, '400')),
    ...aboutPeople(staffPage(`/admin/people?q=${'x'.repeat(300)}`, '/admin/people', 'a search of 300 characters', false, '400')),
    ...aboutPeople(staffPage('/admin/people/2147483647', '/admin/people/[id]', 'unknown person', false, '404')),
    ...aboutPeople(staffPage('/admin/people/abc', '/admin/people/[id]', 'not an id', false, '400')),
    /* reports: each asks its own role (the administrator holds them all); a refused filter is a 400 in words, an unknown report a 404 */
    ...aboutPeople(staffPage('/admin/reports')),
    ...aboutPeople(staffPage('/admin/reports/enrolments?from=2026-01-01&to=2026-12-31&bucket=month', '/admin/reports/[report]', 'enrolments')),
    ...aboutPeople(staffPage('/admin/reports/funnel?course=1', '/admin/reports/[report]', 'progress funnel')),
    ...aboutPeople(staffPage('/admin/reports/exams?course=1', '/admin/reports/[report]', 'item analysis')),
    ...aboutPeople(staffPage('/admin/reports/revenue?bucket=week', '/admin/reports/[report]', 'revenue')),
    ...aboutPeople(staffPage('/admin/reports/acquisition', '/admin/reports/[report]', 'acquisition')),
    ...aboutPeople(staffPage('/admin/reports/revenue?from=2026-03-01&to=2026-02-01', '/admin/reports/[report]', 'reversed range', false, '400')),
    ...aboutPeople(staffPage('/admin/reports/revenue?from=2016-01-01&to=2026-01-01', '/admin/reports/[report]', 'ten years', false, '400')),
    ...aboutPeople(staffPage('/admin/reports/nope', '/admin/reports/[report]', 'unknown report', false, '404')),
    // The code and set-up pages: a learner is not staff (403); the administrator, already proved, is sent on.
    ...page('/second-factor', (l) => per('403', { visitors: loginRedirect(l, '/second-factor'), ibo: loginRedirect(l, '/second-factor'), admin: `302 → ${l === 'en' ? '/en' : ''}/admin` }), { covers: '/second-factor' }),
    ...page('/second-factor/setup', (l) => per('403', { visitors: loginRedirect(l, '/second-factor/setup'), ibo: loginRedirect(l, '/second-factor/setup'), admin: `302 → ${l === 'en' ? '/en' : ''}/admin` }), { covers: '/second-factor/setup' }),

    /* personal pages */
    ...personal('/mylearning'),
    ...personal('/profile'),
    ...personal('/profile/security'),
    ...personal('/my-data'),
    ...page('/myshopping', (l) => per('200', { visitors: loginRedirect(l, '/myshopping'), ibo: loginRedirect(l, '/myshopping') }), {
      covers: '/myshopping',
      check: (role, seen) => (seen.status === 200 ? shows(courseNames(COURSE.buyers), ['buyer'])(role, seen) : undefined),
    }),
    // The seed's three orders are the buyer's (ids 1, 2, 3: courses 6, 10, 16): everyone else gets the not-found page.
    ...page('/myshopping-detail/1', (l) => per('404', { buyer: '200', visitors: loginRedirect(l, '/myshopping-detail/1'), ibo: loginRedirect(l, '/myshopping-detail/1') }), { covers: '/myshopping-detail/[id]', note: "the buyer's order" }),
    ...page('/myshopping-detail/2', (l) => per('404', { buyer: '200', visitors: loginRedirect(l, '/myshopping-detail/2'), ibo: loginRedirect(l, '/myshopping-detail/2') }), {
      covers: '/myshopping-detail/[id]',
      note: "the buyer's order of a buyers-only course",
      check: (role, seen) => (seen.status === 200 || seen.status === 404 ? shows(courseNames(COURSE.buyers), ['buyer'])(role, seen) : undefined),
    }, ['es']),
    ...page('/myshopping-detail/abc', (l) => per('404', { visitors: loginRedirect(l, '/myshopping-detail/abc'), ibo: loginRedirect(l, '/myshopping-detail/abc') }), { covers: '/myshopping-detail/[id]', note: 'not an order id' }, ['es']),
    ...page('/purchase-detail', (l) => per('200', { visitors: loginRedirect(l, '/purchase-detail'), ibo: loginRedirect(l, '/purchase-detail') }), { covers: '/purchase-detail', note: 'empty cart' }),
    ...page('/purchase-detail', (l) => per('409', { visitors: loginRedirect(l, '/purchase-detail'), ibo: loginRedirect(l, '/purchase-detail') }), { covers: '/purchase-detail', note: 'forged cart cookie with courses 10, 16 and 12', cookies: forgedCart }, ['es']),

    /* exams: the rules page is open to whoever may know of the course; taking it needs a learner's session */
    ...page(`/course-exam-info/${COURSE.free}`, per('200'), { covers: '/course-exam-info/[id]', note: 'visitors and IBO sessions are told to log in' }),
    ...page(`/course-exam-info/${COURSE.buyers}`, per('404', { buyer: '200' }), { covers: '/course-exam-info/[id]', note: 'buyers-only' }),
    ...page(`/course-exam-info/${COURSE.hidden}`, per('404'), { covers: '/course-exam-info/[id]', note: 'test course' }),
    ...page(`/course-exam-info/${COURSE.unknown}`, per('404'), { covers: '/course-exam-info/[id]', note: 'unknown' }, ['es']),
    ...page(`/course-exam/${COURSE.free}`, (l) => per(`302 → ${l === 'en' ? '/en' : ''}/course-exam-info/${COURSE.free}`, { visitors: loginRedirect(l, `/course-exam/${COURSE.free}`), ibo: loginRedirect(l, `/course-exam/${COURSE.free}`) }), {
      covers: '/course-exam/[id]',
      note: 'no attempt in progress',
    }),
    ...page(`/course-exam/${COURSE.hidden}`, (l) => per('404', { visitors: loginRedirect(l, `/course-exam/${COURSE.hidden}`), ibo: loginRedirect(l, `/course-exam/${COURSE.hidden}`) }), { covers: '/course-exam/[id]', note: 'test course' }, ['es']),
    ...page(`/course-result?course=${COURSE.free}`, (l) => per('200', { visitors: loginRedirect(l, `/course-result?course=${COURSE.free}`), ibo: loginRedirect(l, `/course-result?course=${COURSE.free}`) }), {
      covers: '/course-result',
      note: 'no result yet',
    }),
    ...page(`/course-result?course=${COURSE.free}&attempt=1`, (l) => per('404', { visitors: loginRedirect(l, `/course-result?course=${COURSE.free}&attempt=1`), ibo: loginRedirect(l, `/course-result?course=${COURSE.free}&attempt=1`) }), {
      covers: '/course-result',
      note: 'an attempt that is not theirs',
    }, ['es']),

    /* certificates: a person's own only (nobody here holds one: 404), issuing only once the course is completed; verification is public */
    ...page('/course-certificate/2', (l) => per('404', { visitors: loginRedirect(l, '/course-certificate/2'), ibo: loginRedirect(l, '/course-certificate/2') }), { covers: '/course-certificate/[id]', note: 'no certificate held' }),
    ...page(`/course-certificate/${COURSE.buyers}`, (l) => per('404', { visitors: loginRedirect(l, `/course-certificate/${COURSE.buyers}`), ibo: loginRedirect(l, `/course-certificate/${COURSE.buyers}`) }), { covers: '/course-certificate/[id]', note: 'buyers-only' }, ['es']),
    ...page('/course-certificate/abc', (l) => per('404', { visitors: loginRedirect(l, '/course-certificate/abc'), ibo: loginRedirect(l, '/course-certificate/abc') }), { covers: '/course-certificate/[id]', note: 'not an id' }, ['es']),
    ...page('/course-generate?course=2', (l) => per('403', { visitors: loginRedirect(l, '/course-generate?course=2'), ibo: loginRedirect(l, '/course-generate?course=2') }), { covers: '/course-generate', note: 'course not completed' }),
    ...page(`/course-generate?course=${COURSE.buyers}`, (l) => per('404', { buyer: '403', visitors: loginRedirect(l, `/course-generate?course=${COURSE.buyers}`), ibo: loginRedirect(l, `/course-generate?course=${COURSE.buyers}`) }), { covers: '/course-generate', note: 'buyers-only' }, ['es']),
    ...page(`/course-generate?course=${COURSE.hidden}`, (l) => per('404', { visitors: loginRedirect(l, `/course-generate?course=${COURSE.hidden}`), ibo: loginRedirect(l, `/course-generate?course=${COURSE.hidden}`) }), { covers: '/course-generate', note: 'test course' }, ['es']),
    ...page(`/course-generate?course=${COURSE.unknown}`, (l) => per('404', { visitors: loginRedirect(l, `/course-generate?course=${COURSE.unknown}`), ibo: loginRedirect(l, `/course-generate?course=${COURSE.unknown}`) }), { covers: '/course-generate', note: 'unknown' }, ['es']),
    ...page('/verify/ACAD-0000-0000-0000-0000', per('404'), { covers: '/verify/[code]', note: 'a code nobody holds', check: (_r, seen) => (seen.body.includes('noindex') ? undefined : 'should not be indexed') }),
    ...page('/verify/not-a-code', per('404'), { covers: '/verify/[code]', note: 'malformed' }, ['es']),

    /* the cart only ever shows what the viewer may see, whatever the cookie says */
    ...page('/purchase', per('200'), { covers: '/purchase', note: 'forged cart cookie with courses 10, 16 and 12', cookies: forgedCart, hole: 'Trust #8 (forged cart cookie)' }),

    /* affiliate links: an IBO's code opens its session (a logged-in user keeps theirs); a bad code goes home */
    ...page('/NOPE9999', (l) => per(`302 → ${l === 'en' ? '/en/' : '/'}?ibo=invalid`), { covers: '/[iboCodeParam]', note: 'unknown code', only: ['anonymous'] }),
    ...page('/not.a.code', per('404'), { covers: '/[iboCodeParam]', note: 'not a code' }),

    /* endpoints */
    { label: 'GET /robots.txt', kind: 'endpoint', covers: 'GET /robots.txt', expect: per('200'), http: { method: 'GET', path: '/robots.txt' } },
    // A bank's CSV: anyone not logged in goes to the login (every /admin path does), a learner 403 in words, the file for staff holding the editor role.
    {
      label: 'GET /admin/questions/1/bank.csv',
      kind: 'endpoint',
      covers: 'GET /admin/questions/[courseId]/bank.csv',
      expect: per('403', { visitors: loginRedirect('es', '/admin/questions/1/bank.csv?lang=en'), ibo: loginRedirect('es', '/admin/questions/1/bank.csv?lang=en'), admin: '200' }),
      http: { method: 'GET', path: '/admin/questions/1/bank.csv?lang=en' },
      check: (role, seen) => {
        const csv = (seen.headers['content-type'] ?? '').startsWith('text/csv; charset=utf-8') && seen.body.replace(/^\uFEFF/, '').startsWith('kind,prompt_es,prompt_en');
        if (role === 'admin') return csv ? undefined : 'should be the bank as CSV';
        if (csv) return 'should not answer the bank';
        return seen.status !== 403 || /not allowed/i.test(seen.body) ? undefined : 'should refuse in words';
      },
    },
    // A report's CSV: like the bank's, the file for the roles the report asks (here the administrator), a learner 403 in words.
    ...(['enrolments', 'funnel', 'exams', 'revenue', 'acquisition'] as const).map(
      (report): Row => ({
        seesPeople: true,
        label: `GET /admin/reports/${report}.csv`,
        kind: 'endpoint',
        covers: 'GET /admin/reports/[report].csv',
        expect: per('403', { visitors: loginRedirect('es', `/admin/reports/${report}.csv?lang=en`), ibo: loginRedirect('es', `/admin/reports/${report}.csv?lang=en`), admin: '200' }),
        http: { method: 'GET', path: `/admin/reports/${report}.csv?lang=en` },
        check: (role, seen) => {
          const csv = (seen.headers['content-type'] ?? '').startsWith('text/csv; charset=utf-8') && seen.body.startsWith('\uFEFF');
          if (role === 'admin') return csv ? undefined : 'should be the report as CSV';
          if (csv) return 'should not answer the report';
          return seen.status !== 403 || /not allowed/i.test(seen.body) ? undefined : 'should refuse in words';
        },
      }),
    ),
    { seesPeople: true, label: 'GET /admin/reports/orders.csv', kind: 'endpoint', covers: 'GET /admin/reports/[report].csv', expect: per('403', { visitors: loginRedirect('es', '/admin/reports/orders.csv?year=2026&lang=en'), ibo: loginRedirect('es', '/admin/reports/orders.csv?year=2026&lang=en'), admin: '200' }), http: { method: 'GET', path: '/admin/reports/orders.csv?year=2026&lang=en' } },
    { seesPeople: true, label: 'GET /admin/reports/revenue.csv (reversed range)', kind: 'endpoint', covers: 'GET /admin/reports/[report].csv', expect: per('403', { visitors: loginRedirect('es', '/admin/reports/revenue.csv?from=2026-03-01&to=2026-02-01&lang=en'), ibo: loginRedirect('es', '/admin/reports/revenue.csv?from=2026-03-01&to=2026-02-01&lang=en'), admin: '400' }), http: { method: 'GET', path: '/admin/reports/revenue.csv?from=2026-03-01&to=2026-02-01&lang=en' } },
    { label: 'GET /admin/questions/999999/bank.csv', kind: 'endpoint', covers: 'GET /admin/questions/[courseId]/bank.csv', expect: per('403', { visitors: loginRedirect('es', '/admin/questions/999999/bank.csv?lang=en'), ibo: loginRedirect('es', '/admin/questions/999999/bank.csv?lang=en'), admin: '404' }), http: { method: 'GET', path: '/admin/questions/999999/bank.csv?lang=en' } },
    {
      label: 'GET /sitemap.xml',
      kind: 'endpoint',
      covers: 'GET /sitemap.xml',
      expect: per('200'),
      http: { method: 'GET', path: '/sitemap.xml' },
      check: (_r, seen) => ([COURSE.buyers, COURSE.buyers2, COURSE.hidden].some((id) => seen.body.includes(`/courses-details/${id}<`)) ? 'lists a course not everybody may see' : undefined),
    },
    {
      label: 'GET /api/search?q=Agente de Viajes (a buyers-only course)',
      kind: 'endpoint',
      covers: 'GET /api/search',
      expect: per('200'),
      http: { method: 'GET', path: `/api/search?q=${encodeURIComponent('Agente de Viajes')}&lang=es` },
      check: shows(courseNames(COURSE.buyers), ['buyer']),
    },
    { label: 'GET /api/search?q=prueba interno (the test course)', kind: 'endpoint', covers: 'GET /api/search', expect: per('200'), http: { method: 'GET', path: `/api/search?q=${encodeURIComponent('prueba interno')}&lang=es` } },
    { label: 'POST /api/search', kind: 'endpoint', covers: 'POST /api/search', expect: per('404'), http: { method: 'POST', path: '/api/search', json: {} } },
    ...(['pdf?lang=en', 'credential'] as const).map((what): Row => {
      const path = `/course-certificate/2/${what}`;
      return { label: `GET ${path} (no certificate held)`, kind: 'endpoint', covers: `GET /course-certificate/[id]/${what.split('?')[0]}`, expect: per('404', { visitors: loginRedirect('es', path), ibo: loginRedirect('es', path) }), http: { method: 'GET', path } };
    }),
    ...([1, 2] as const).map((id): Row => {
      const path = `/myshopping-detail/${id}/receipt.pdf?lang=en`;
      return { label: `GET ${path} (the buyer's order)`, kind: 'endpoint', covers: 'GET /myshopping-detail/[id]/receipt.pdf', expect: per('404', { buyer: '200', visitors: loginRedirect('es', path), ibo: loginRedirect('es', path) }), http: { method: 'GET', path } };
    }),
    // An archive link: a forged token (or someone else's, which reads the same) is nobody's archive.
    { label: 'GET /my-data/download/forged (not an archive link)', kind: 'endpoint', covers: 'GET /my-data/download/[token]', expect: per('404', { visitors: loginRedirect('es', '/my-data/download/forged'), ibo: loginRedirect('es', '/my-data/download/forged') }), http: { method: 'GET', path: '/my-data/download/forged' } },
    { label: 'GET /myshopping-detail/abc/receipt.pdf (not an order id)', kind: 'endpoint', covers: 'GET /myshopping-detail/[id]/receipt.pdf', expect: per('404', { visitors: loginRedirect('es', '/myshopping-detail/abc/receipt.pdf'), ibo: loginRedirect('es', '/myshopping-detail/abc/receipt.pdf') }), http: { method: 'GET', path: '/myshopping-detail/abc/receipt.pdf' } },
    // The demo buyer bought book 1 (a paid order of its own); nobody bought book 2.
    ...([1, 2] as const).map((id): Row => {
      const path = `/book-download/${id}?lang=en`;
      return {
        label: `GET ${path} (${id === 1 ? "the buyer's book" : 'a book nobody bought'})`,
        kind: 'endpoint',
        covers: 'GET /book-download/[id]',
        expect: per('404', { ...(id === 1 ? { buyer: '200' } : {}), visitors: loginRedirect('es', path), ibo: loginRedirect('es', path) }),
        http: { method: 'GET', path },
        check: (_r, seen) =>
          seen.status === 200 && !(seen.headers['content-type'] === 'application/pdf' && /^attachment; filename="[a-z0-9-]+\.pdf"$/.test(seen.headers['content-disposition'] ?? ''))
            ? 'is not a PDF attachment'
            : seen.status !== 302 && seen.headers['cache-control'] !== 'private, no-store'
              ? 'may be cached'
              : undefined,
      };
    }),
    { label: 'GET /book-download/abc (not a book id)', kind: 'endpoint', covers: 'GET /book-download/[id]', expect: per('404', { visitors: loginRedirect('es', '/book-download/abc'), ibo: loginRedirect('es', '/book-download/abc') }), http: { method: 'GET', path: '/book-download/abc' } },
    {
      label: 'GET /.well-known/jwks.json',
      kind: 'endpoint',
      covers: 'GET /.well-known/jwks.json',
      expect: per('200'),
      http: { method: 'GET', path: '/.well-known/jwks.json' },
      check: (_r, seen) => (!seen.body.includes('"kty":"OKP"') ? 'publishes no Ed25519 key' : /"d"\s*:/.test(seen.body) ? 'publishes a private key' : undefined),
    },
    // The published revocation list: anyone may read it (verifiers of any credential); a list number that is not one is a 404.
    {
      label: 'GET /credentials/status/1',
      kind: 'endpoint',
      covers: 'GET /credentials/status/[list]',
      expect: per('200'),
      http: { method: 'GET', path: '/credentials/status/1' },
      check: (_r, seen) => (/^[\w-]+\.[\w-]+\.[\w-]+$/.test(seen.body.trim()) && seen.headers['content-type'] === 'application/vc+jwt' ? undefined : 'is not a signed list'),
    },
    ...['/credentials/status/0', '/credentials/status/abc', '/credentials/status/1%00'].map((path): Row => ({ label: `GET ${path} (not a list)`, kind: 'endpoint', covers: 'GET /credentials/status/[list]', expect: per('404'), http: { method: 'GET', path } })),
    { label: 'GET /credentials/issuer.json', kind: 'endpoint', covers: 'GET /credentials/issuer.json', expect: per('200'), http: { method: 'GET', path: '/credentials/issuer.json' }, check: (_r, seen) => (seen.body.includes('"Profile"') ? undefined : 'is not an issuer profile') },
    { label: 'GET /api/tracking', kind: 'endpoint', covers: 'GET /api/tracking', expect: per('404'), http: { method: 'GET', path: '/api/tracking' } },
    // Profile photos go to their owner only: someone else's (user 1's) is not found, the same as a name that is not one of ours.
    ...['/profile/photo/1-0123456789abcdef0123.webp', '/profile/photo/..%2F..%2Fpglite.webp', '/profile/photo/x.svg'].flatMap((path): Row[] =>
      (['GET', 'HEAD'] as const).map((method) => ({
        label: `${method} ${path} (not the reader's photo)`,
        kind: 'endpoint',
        covers: `${method} /profile/photo/[name]`,
        // The login redirect answers a HEAD (not a GET) with 303, as every other method.
        expect: per('404', { visitors: loginRedirect('es', path).replace(/^302/, method === 'GET' ? '302' : '303'), ibo: loginRedirect('es', path).replace(/^302/, method === 'GET' ? '302' : '303') }),
        http: { method, path },
      })),
    ),
    // Uploaded book covers are public like the books page; a name that is not one of ours (or a path) is not found.
    ...['/media/course-thumbnail/1-0123456789abcdef0123.webp', '/media/course-thumbnail/..%2F..%2Fpglite.webp', '/media/course-thumbnail/x.svg'].flatMap((path): Row[] =>
      (['GET', 'HEAD'] as const).map((method) => ({ label: `${method} ${path} (no such thumbnail)`, kind: 'endpoint', covers: `${method} /media/course-thumbnail/[name]`, expect: per('404'), http: { method, path } })),
    ),
    ...['/media/ibo-logo/1-0123456789abcdef0123.webp', '/media/ibo-logo/..%2F..%2Fpglite.webp', '/media/ibo-logo/x.svg'].flatMap((path): Row[] =>
      (['GET', 'HEAD'] as const).map((method) => ({ label: `${method} ${path} (no such logo)`, kind: 'endpoint', covers: `${method} /media/ibo-logo/[name]`, expect: per('404'), http: { method, path } })),
    ),
    ...['/media/book-cover/1-0123456789abcdef0123.webp', '/media/book-cover/..%2F..%2Fpglite.webp', '/media/book-cover/x.svg'].flatMap((path): Row[] =>
      (['GET', 'HEAD'] as const).map((method) => ({ label: `${method} ${path} (no such cover)`, kind: 'endpoint', covers: `${method} /media/book-cover/[name]`, expect: per('404'), http: { method, path } })),
    ),
    // The cookie notice: closing it without JavaScript sets `notice` and goes back to a path of this site only.
    {
      label: 'POST /cookie-notice (back to /courses)',
      kind: 'endpoint',
      covers: 'POST /cookie-notice',
      expect: per('303 → /courses'),
      http: { method: 'POST', path: '/cookie-notice', form: { back: '/courses' } },
      check: (_r, seen) => (seen.setCookies.some((c) => /^notice=seen;/.test(c)) ? undefined : 'should set notice=seen'),
    },
    { label: 'POST /cookie-notice (back to another site)', kind: 'endpoint', covers: 'POST /cookie-notice', expect: per('303 → /'), http: { method: 'POST', path: '/cookie-notice', form: { back: '//evil.example/x' } } },
    { label: 'POST /cookie-notice (from another site)', kind: 'endpoint', covers: 'POST /cookie-notice', expect: per('403'), http: { method: 'POST', path: '/cookie-notice', form: { back: '/' }, headers: CROSS_SITE } },
    { label: 'GET /cookie-notice', kind: 'endpoint', covers: 'GET /cookie-notice', expect: per('405'), http: { method: 'GET', path: '/cookie-notice' } },
    {
      // Empty, or (once the role's POST row above set `notice`) the one rule that hides the notice.
      label: 'GET /cookie-notice.css',
      kind: 'endpoint',
      covers: 'GET /cookie-notice.css',
      expect: per('200'),
      http: { method: 'GET', path: '/cookie-notice.css' },
      check: (_r, seen) =>
        ['', '.cookie-notice{display:none}\n'].includes(seen.body) && seen.headers['content-type']?.startsWith('text/css') && seen.headers['cache-control']?.startsWith('private') ? undefined : 'should be a private stylesheet hiding the notice or nothing',
    },
    // Stripe's webhook is off on the test server (no STRIPE_WEBHOOK_SECRET): nobody reaches it. Signed,
    // forged and replayed events on a server with Stripe configured: fuzz.spec.ts and stripe.server.test.ts.
    { label: 'POST /api/stripe/webhook (unsigned; Stripe not configured)', kind: 'endpoint', covers: 'POST /api/stripe/webhook', expect: per('404'), http: { method: 'POST', path: '/api/stripe/webhook', json: { id: 'evt_1', type: 'payment_intent.succeeded' } } },
    { label: 'GET /api/stripe/webhook', kind: 'endpoint', covers: 'GET /api/stripe/webhook', expect: per('404'), http: { method: 'GET', path: '/api/stripe/webhook' } },
    track('free course', COURSE.free, { Identificador: L1.id, Avance: 0, Activo: true }, mayTrack({ prospect: '200', users: '200' })),
    track('members course', COURSE.members, { Identificador: firstLesson(COURSE.members).id, Avance: 0 }, mayTrack({ users: '200' })),
    track('paid course', COURSE.paid, { Identificador: L6.id, Avance: 0 }, mayTrack({ buyer: '200' })),
    track('buyers-only course', COURSE.buyers, { Identificador: firstLesson(COURSE.buyers).id, Avance: 0 }, mayTrack({ buyer: '200' })),
    track('test course', COURSE.hidden, { Identificador: firstLesson(COURSE.hidden).id, Avance: 0 }, mayTrack({})),
    track('prerequisite', COURSE.locked, { Identificador: firstLesson(COURSE.locked).id, Avance: 0 }, mayTrack({})),
    track('unknown course', COURSE.unknown, { Identificador: L1.id, Avance: 0 }, mayTrack({})),
    track("free course, another course's lesson", COURSE.free, { Identificador: L6.id, Avance: 0 }, mayTrack({})),
    track("free course, someone else's IdContacto", COURSE.free, { Identificador: L1.id, Avance: 0, IdContacto: 2_147_483_647 }, mayTrack({})),
    track("free course, someone else's CreadoPor", COURSE.free, { Identificador: L1.id, Avance: 0, CreadoPor: 2_147_483_647 }, mayTrack({})),

    /* lesson media (Range requests keep the answers small) */
    media('GET', `/media/resource/${VIDEO.free}`, 'free course video', per('206', { visitors: '403', guest: '403' }), { range: 'bytes=0-99' }),
    media('GET', `/media/resource/${VIDEO.members}`, 'members course video', per('206', { visitors: '403', ibo: '403' }), { range: 'bytes=0-99' }),
    media('GET', `/media/resource/${PDF}`, 'members course document', per('206', { visitors: '403', ibo: '403' }), { range: 'bytes=0-99' }),
    media('GET', `/media/resource/${VIDEO.paid}`, 'paid course video', per('403', { buyer: '206' }), { range: 'bytes=0-99' }),
    media('GET', `/media/resource/${VIDEO.buyers}`, 'buyers-only course video', per('404', { buyer: '206' }), { range: 'bytes=0-99' }),
    media('GET', `/media/resource/${VIDEO.buyers2}`, 'buyers-only course video', per('404', { buyer: '206' }), { range: 'bytes=0-99' }),
    media('GET', `/media/resource/${VIDEO.hidden}`, 'test course video', per('404'), { range: 'bytes=0-99' }),
    media('GET', `/media/resource/${VIDEO.locked}`, 'prerequisite course video', per('403'), { range: 'bytes=0-99' }),
    media('GET', '/media/resource/999999', 'unknown', per('404')),
    media('HEAD', `/media/resource/${VIDEO.buyers}`, 'buyers-only course video', per('404', { buyer: '200' })),
    media('DELETE', `/media/resource/${VIDEO.free}`, 'any other method', per('405')),
    media('GET', `/media/resource/${VIDEO.free}/captions/en.vtt`, 'free course captions', per('200', { visitors: '403', guest: '403' })),
    media('GET', `/media/resource/${VIDEO.paid}/captions/es.vtt`, 'paid course captions', per('403', { buyer: '200' })),
    media('GET', `/media/resource/${VIDEO.buyers}/captions/es.vtt`, 'buyers-only course captions', per('404', { buyer: '200' })),
    media('HEAD', `/media/resource/${VIDEO.hidden}/captions/es.vtt`, 'test course captions', per('404')),
    media('DELETE', `/media/resource/${VIDEO.free}/captions/es.vtt`, 'any other method', per('405')),
    /* HLS files of a lesson's video (the demo clips are converted at first start): the lesson file's own checks first */
    ...(['GET', 'HEAD'] as const).flatMap((method) => [
      hls(method, `/media/resource/${VIDEO.free}/hls/master.m3u8`, 'free course video', per('200', { visitors: '403', guest: '403' })),
      hls(method, `/media/resource/${VIDEO.paid}/hls/master.m3u8`, 'paid course video', per('403', { buyer: '200' })),
      hls(method, `/media/resource/${VIDEO.hidden}/hls/master.m3u8`, 'test course video', per('404')),
    ]),
    hls('DELETE', `/media/resource/${VIDEO.free}/hls/master.m3u8`, 'any other method', per('405')),
    /* the editors' preview of a library video, and the library's states */
    ...(['GET', 'HEAD'] as const).map((method) => preview(method, '/media/video/2147483647/master.m3u8', 'unknown video', per('403', { visitors: '401', ibo: '401', admin: '404' }))),
    preview('DELETE', '/media/video/1/master.m3u8', 'any other method', per('405')),
    { label: 'GET /api/videos/status', kind: 'endpoint', covers: 'GET /api/videos/status', expect: per('403', { visitors: '401', ibo: '401', admin: '200' }), http: { method: 'GET', path: '/api/videos/status?lang=en' } },
    /* the resumable upload endpoint (before Astro): editors only, a 0-byte upload refused, a forged upload id 404, another site 403 */
    { label: 'POST /admin/videos/uploads (0 bytes)', kind: 'endpoint', covers: 'POST /admin/videos/uploads', expect: per('403', { visitors: '401', ibo: '401', admin: '400' }), http: { method: 'POST', path: '/admin/videos/uploads', headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': '0' } } },
    { label: 'POST /admin/videos/uploads (from another site)', kind: 'endpoint', covers: 'POST /admin/videos/uploads', expect: per('403'), http: { method: 'POST', path: '/admin/videos/uploads', headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': '10', ...CROSS_SITE } } },
    { label: 'DELETE /admin/videos/uploads/{forged}', kind: 'endpoint', covers: 'DELETE /admin/videos/uploads/[id]', expect: per('403', { visitors: '401', ibo: '401', admin: '404' }), http: { method: 'DELETE', path: `/admin/videos/uploads/${'0'.repeat(32)}`, headers: { 'Tus-Resumable': '1.0.0' } } },

    /* actions */
    // A profile change checks its input first, whoever asks; a valid one is the profile journey's (it renames).
    // A photo is checked after the access: a form without a file is refused in words.
    action('account.setPhoto', 'no file', per('400'), { form: { photo: 'not a file', lang: 'en' } }),
    action('account.setPhoto', 'a crop that is not numbers', per('400'), { form: { photo: 'not a file', cropX: 'x', cropY: '0', cropSize: '100', lang: 'en' } }),
    // Removing a seeded account's photo would change what the journeys beside the matrix see: only the refused roles run it.
    action('account.removePhoto', 'without a learner', per('200'), { form: { lang: 'en' } }, { only: ['anonymous', 'refused', 'guest', 'prospect'] }),
    // The consent switch changes only the caller's own row. No seeded account is related to an IBO: each gets the
    // "no IBO" sentence (409), a value other than true/false 400, and ids of someone else are no input at all.
    action('account.setIboSharing', 'no IBO', per('409'), { form: { share: 'true', lang: 'en' } }),
    action('account.setIboSharing', 'neither true nor false', per('400'), { form: { share: 'maybe', lang: 'en' } }),
    action('account.setIboSharing', "someone else's userId and contactId", per('409'), { form: { share: 'false', userId: '1', contactId: '1', lang: 'en' } }),
    action('account.updateProfile', 'an unknown gender', per('400'), { form: { name: 'Matriz', lastName: 'Perfil', gender: 'robot', birthDay: '1', birthMonth: '1', birthYear: '1990', lang: 'en' } }, { beforeAccess: true }),
    action('auth.verify', 'who am I', per('200', { visitors: '401' }), {}, {
      check: (role, seen) => {
        if (seen.status !== 200) return undefined;
        if (role === 'learner' || role === 'buyer' || role === 'admin') return seen.body.includes(PEOPLE[role].email) ? undefined : 'should name the user';
        if (role === 'prospect') return seen.body.includes(PROSPECT.email) ? undefined : 'should name the prospect';
        if (role === 'owner' || role === 'suspended') return seen.body.includes(IBO_OWNERS[role].email) ? undefined : 'should name the user';
        return seen.body.includes('Viajes Horizonte') ? undefined : 'should name the IBO';
      },
    }),
    action('auth.login', 'unknown e-mail', per('400'), { form: { email: `nadie.${RUN}.{role}@example.com`, password: 'Nadie2026x', lang: 'en' } }, { check: noNewSession }),
    action('auth.register', "another person's e-mail", per('409'), { form: registrationForm(PEOPLE.learner.email, 'Matriz', 'Matriz2026') }, { check: noNewSession }),
    action('auth.requestReset', 'unknown e-mail', per('200'), { form: { email: `nadie.reset.${RUN}.{role}@example.com`, lang: 'en' } }),
    action('auth.resetPassword', 'forged token', per('400'), { form: { token: 'forged-token', password: 'Matriz2026', confirmPassword: 'Matriz2026', lang: 'en' } }),
    action('cart.add', 'paid course', per('200', { buyer: '400' }), { form: { kind: 'course', id: String(COURSE.paid), lang: 'en' } }),
    action('cart.add', 'buyers-only course', per('404', { buyer: '400' }), { form: { kind: 'course', id: String(COURSE.buyers), lang: 'en' } }),
    action('cart.add', 'test course', per('404'), { form: { kind: 'course', id: String(COURSE.hidden), lang: 'en' } }),
    action('cart.add', 'book', per('200'), { form: { kind: 'book', id: '1', lang: 'en' } }),
    action('cart.remove', 'paid course', per('200'), { form: { kind: 'course', id: String(COURSE.paid), lang: 'en' } }),
    action('cart.view', 'empty cart', per('200'), { json: { lang: 'en' } }),
    // The mini cart's prices and names come from the catalogue, for the viewer: a forged cookie lists only what the role may see.
    action('cart.view', 'forged cart cookie with courses 10, 16 and 12', per('200'), { json: { lang: 'en' }, cookies: forgedCart }, { check: shows(courseNames(COURSE.paid), [...ROLES]) }),
    action('ibo.enter', 'no code', per('400'), { form: { code: '', lang: 'en' } }, { check: noNewSession }),
    action('ibo.lookup', "a learner's e-mail", per('200'), { json: { email: PEOPLE.learner.email, lang: 'en' } }, { check: (_r, seen) => (seen.status === 200 && seen.body.replace(/\s/g, '') !== '[{"found":1},true]' ? `answers more than yes or no: ${seen.body.slice(0, 200)}` : undefined) }),
    action('ibo.confirmProspect', 'own prospect again', per('200'), { form: { ...PROSPECT, lang: 'en' } }, { only: ['anonymous', 'refused', 'learner', 'buyer', 'admin', 'prospect'] }),
    action('contact.send', 'a message', per('200'), { form: contactForm }),
    action('exams.start', 'lessons not completed', per('403'), { form: { course: String(COURSE.free), lang: 'en' } }),
    action('exams.start', 'test course', per('404'), { form: { course: String(COURSE.hidden), lang: 'en' } }),
    action('exams.answer', 'an attempt that is not theirs', per('404'), { json: { course: COURSE.free, attempt: 1, question: 5, answer: 17, lang: 'en' } }),
    action('exams.submit', 'an attempt that is not theirs', per('404'), { form: { course: String(COURSE.free), attempt: '1', lang: 'en', q5: '17' } }),

    action('certificates.issue', 'course not completed', per('403'), { form: { course: '2', lang: 'en' } }),
    action('certificates.issue', 'buyers-only course', per('404', { buyer: '403' }), { form: { course: String(COURSE.buyers), lang: 'en' } }),
    action('certificates.issue', 'test course', per('404'), { form: { course: String(COURSE.hidden), lang: 'en' } }),
    // The input's schema answers first, whoever asks.
    action('certificates.issue', 'not a course id', per('400'), { form: { course: 'abc', lang: 'en' } }, { beforeAccess: true }),

    /* the account's security: each refusal leaves the account as it was */
    action('account.changePassword', 'a wrong current password', per('400'), { form: { currentPassword: 'NoEsLaMia1', password: 'Matriz2026x', confirmPassword: 'Matriz2026x', lang: 'en' } }),
    action('account.changePassword', 'new passwords that differ', per('400'), { form: { currentPassword: 'NoEsLaMia1', password: 'Matriz2026x', confirmPassword: 'Matriz2026y', lang: 'en' } }, { beforeAccess: true }),
    action('account.changeEmail', 'a wrong current password', per('400'), { form: { email: `matriz.nuevo.${RUN}@example.com`, currentPassword: 'NoEsLaMia1', lang: 'en' } }),
    action('account.changeEmail', 'not an address', per('400'), { form: { email: 'no-es-un-correo', currentPassword: 'NoEsLaMia1', lang: 'en' } }, { beforeAccess: true }),
    action('account.endSession', "someone else's session id", per('404'), { form: { session: '0123456789abcdef01234567', lang: 'en' } }),
    // Ending the other sessions of a seeded account would log out journeys running beside the matrix: only the refused roles run it.
    action('account.endOtherSessions', 'without a learner', per('200'), { form: { lang: 'en' } }, { only: ['anonymous', 'refused', 'guest', 'prospect'] }),
    // The seeded accounts are confirmed: asking again sends nothing and says so.
    action('account.resendVerification', 'an account already confirmed', per('200'), { form: { lang: 'en' } }),
    action('account.confirmEmail', 'a forged link', per('400'), { form: { token: 'forged-token', lang: 'en' } }),
    action('commerce.checkout', 'a forged idempotency key', per('400'), { form: { ...checkoutForm, idempotencyKey: FORGED_CHECKOUT_KEY } }),
    action('commerce.checkout', 'a card failing Luhn', per('400'), { form: { ...checkoutForm, cardNumber: '4242 4242 4242 4241' } }),
    action('commerce.newKey', 'a key for the checkout', per('200'), { json: { lang: 'en' } }),
    // Nobody's membership 1 but its holder's (the seed has none): a person cancels only their own.
    action('commerce.cancelMembership', 'a membership that is not theirs', per('404'), { form: { membership: '1', lang: 'en' } }),
    // My data: a deletion needs the person's own password (nothing is scheduled without it); an archive is the caller's own.
    action('privacy.requestDeletion', 'a wrong password', per('400'), { form: { password: 'NotTheirs2026', lang: 'en' } }),
    action('privacy.requestDeletion', 'no password', per('400'), { form: { password: '', lang: 'en' } }, { beforeAccess: true }),
    action('privacy.requestExport', 'an archive of their own data', per('200'), { form: { lang: 'en' } }),

    /* the staff: a learner proving a code is not staff (403); the administrator's refusals are in words */
    action('staff.proveCode', 'not six digits', per('400'), { form: { code: 'abc', lang: 'en' } }),
    action('staff.confirmSetup', 'a second factor already set up', per('403', { admin: '409' }), { form: { code: '000000', lang: 'en' } }),
    action('staff.grantRole', 'an unknown e-mail', per('404'), { form: { email: `nadie.${RUN}@example.com`, role: 'editor', lang: 'en' } }),
    action('staff.grantRole', 'a role that does not exist', per('400'), { form: { email: PEOPLE.learner.email, role: 'owner', lang: 'en' } }, { beforeAccess: true }),
    action('staff.revokeRole', 'a role the account does not hold', per('404'), { form: { userId: '2147483647', role: 'finance', lang: 'en' } }),
    action('staff.resetFactor', 'an account that is not staff', per('404'), { form: { userId: '2147483647', lang: 'en' } }),
    /* revoking certificates (administrators): a code nobody holds is a 404 in words; a reason empty, with a NUL or of 100 KB is refused by the schema, whoever asks */
    action('certificates.revoke', 'a code nobody holds', per('404'), { form: { code: 'ACAD-0000-0000-0000-0000', reason: 'Matriz', lang: 'en' } }),
    action('certificates.revoke', 'an empty reason', per('400'), { form: { code: 'ACAD-GRAD-2026-0000-0002', reason: '   ', lang: 'en' } }, { beforeAccess: true }),
    action('certificates.revoke', 'a NUL in the reason', per('400'), { form: { code: 'ACAD-GRAD-2026-0000-0002', reason: 'Mo\u0000tivo', lang: 'en' } }, { beforeAccess: true }),
    action('certificates.revoke', 'a reason of 100 KB', per('400'), { form: { code: 'ACAD-GRAD-2026-0000-0002', reason: 'x'.repeat(100_000), lang: 'en' } }, { beforeAccess: true }),
    /* the video library: captions of a video that does not exist; a track in a language the academy has not */
    action('videos.saveCaption', 'an unknown video', per('404'), { form: { videoId: '2147483647', track: 'es', captions: 'WEBVTT', lang: 'en' } }),
    action('videos.saveCaption', 'a language the academy has not', per('400'), { form: { videoId: '1', track: 'fr', captions: 'WEBVTT', lang: 'en' } }, { beforeAccess: true }),

    /* the support inbox (support staff): a message deleted meanwhile (or never sent) is a 404 in words; empty, NUL and 100 KB texts a 400; nothing written */
    action('support.setStatus', 'an unknown message', per('404'), { form: { id: '2147483647', status: 'closed', lang: 'en' } }),
    action('support.setStatus', 'a status that does not exist', per('400'), { form: { id: '1', status: 'deleted', lang: 'en' } }, { beforeAccess: true }),
    action('support.assign', 'an unknown message', per('404'), { form: { id: '2147483647', assignee: '', lang: 'en' } }),
    action('support.note', 'an unknown message', per('404'), { form: { id: '2147483647', body: 'Nota', lang: 'en' } }),
    action('support.note', 'an empty note', per('400'), { form: { id: '2147483647', body: '   ', lang: 'en' } }, { beforeAccess: true }),
    action('support.reply', 'a message deleted meanwhile', per('404'), { form: { id: '2147483647', body: 'Hola', key: `matrix-reply-${RUN}-0001`, lang: 'en' } }),
    action('support.reply', 'a NUL in the reply', per('400'), { form: { id: '2147483647', body: 'Hola\u0000', key: `matrix-reply-${RUN}-0002`, lang: 'en' } }, { beforeAccess: true }),
    action('support.reply', 'a reply of 100 KB', per('400'), { form: { id: '2147483647', body: 'x'.repeat(100 * 1024), key: `matrix-reply-${RUN}-0003`, lang: 'en' } }, { beforeAccess: true }),
    action('support.reply', 'no form key', per('400'), { form: { id: '2147483647', body: 'Hola', lang: 'en' } }, { beforeAccess: true }),

    /* people (support staff): an unknown person is a 404 in words, another kind of id, an unknown user type, NUL and 100 KB reasons a 400; nothing written */
    action('people.block', 'an unknown person', per('404'), { form: { id: '2147483647', lang: 'en' } }),
    action('people.block', 'another kind of id', per('400'), { form: { id: 'ACAD-GRAD-2026-0000-0002', lang: 'en' } }),
    action('people.unblock', 'an unknown person', per('404'), { form: { id: '2147483647', lang: 'en' } }),
    action('people.endSessions', 'an unknown person', per('404'), { form: { id: '2147483647', lang: 'en' } }),
    action('people.resendVerification', 'an unknown person', per('404'), { form: { id: '2147483647', lang: 'en' } }),
    action('people.sendReset', 'an unknown person', per('404'), { form: { id: '2147483647', lang: 'en' } }),
    action('people.setType', 'a user type that does not exist', per('400'), { form: { id: '2147483647', type: 'root', lang: 'en' } }),
    action('people.setType', 'an unknown person', per('404'), { form: { id: '2147483647', type: 'learner', lang: 'en' } }),
    action('people.grantCourse', 'an unknown person', per('404'), { form: { id: '2147483647', course: '1', reason: 'Regalo', lang: 'en' } }),
    action('people.grantCourse', 'a NUL in the reason', per('400'), { form: { id: '2147483647', course: '1', reason: 'Re\u0000galo', lang: 'en' } }),
    action('people.grantCourse', 'a reason of 100 KB', per('400'), { form: { id: '2147483647', course: '1', reason: 'x'.repeat(100 * 1024), lang: 'en' } }),
    action('people.grantCourse', 'a course id that is not one', per('400'), { form: { id: '2147483647', course: 'uno', reason: 'Regalo', lang: 'en' } }),

    /* books and plans (editors): bad prices, missing translations, forged ids and files that are not what they claim, each a sentence and a 4xx, nothing written */
    action('books.save', 'a negative price', per('400'), { form: { ...BOOK_FORM, price: '-5' } }),
    action('books.save', 'fractions of a cent', per('400'), { form: { ...BOOK_FORM, price: '12.505' } }),
    action('books.save', 'a missing translation', per('400'), { form: { ...BOOK_FORM, titleEn: '' } }),
    action('books.save', 'a forged id', per('404'), { form: { ...BOOK_FORM, id: '2147483647' } }),
    action('books.save', 'an id that is not one', per('400'), { form: { ...BOOK_FORM, id: "1' or 1=1" } }),
    action('books.save', 'a new book without its cover', per('400'), { form: BOOK_FORM }),
    action('books.uploadPdf', 'no file', per('400'), { form: { id: '1', pdf: '%PDF-1.7 typed, not a file', lang: 'en' } }),
    action('books.uploadPdf', 'a forged id', per('404'), { form: { id: '2147483647', lang: 'en' } }),
    action('plans.save', 'fractions of a cent', per('400'), { form: { ...PLAN_FORM, price: '9.999' } }),
    action('plans.save', 'a category that does not exist', per('400'), { form: { ...PLAN_FORM, categories: '999' } }),
    action('plans.save', 'features missing in one language', per('400'), { form: { ...PLAN_FORM, featuresEn: '' } }),
    action('plans.save', 'a forged id', per('404'), { form: { ...PLAN_FORM, id: '2147483647' } }),
    /* coupons (finance): a discount out of range, fractions of a cent, hostile codes, a code taken and forged ids, each a sentence and a 4xx, nothing written */
    action('coupons.save', 'a negative percent', per('400'), { form: { ...COUPON_FORM, percent: '-10' } }),
    action('coupons.save', 'a percent of 0', per('400'), { form: { ...COUPON_FORM, percent: '0' } }),
    action('coupons.save', 'a percent over 100', per('400'), { form: { ...COUPON_FORM, percent: '101' } }),
    action('coupons.save', 'a negative amount', per('400'), { form: { ...COUPON_FORM, kind: 'fixed', amount: '-5.00' } }),
    action('coupons.save', 'fractions of a cent', per('400'), { form: { ...COUPON_FORM, kind: 'fixed', amount: '12.505' } }),
    action('coupons.save', 'a NUL in the code', per('400'), { form: { ...COUPON_FORM, code: 'MATRIZ\u0000' } }),
    action('coupons.save', 'a code of 100 KB', per('400'), { form: { ...COUPON_FORM, code: 'X'.repeat(100 * 1024) } }),
    action('coupons.save', 'an end before the start', per('400'), { form: { ...COUPON_FORM, startsAt: '2027-01-02T00:00', endsAt: '2027-01-01T00:00' } }),
    action('coupons.save', 'a code another coupon has', per('409'), { form: { ...COUPON_FORM, code: 'bienvenida10' } }),
    action('coupons.save', 'a forged id', per('404'), { form: { ...COUPON_FORM, id: '2147483647' } }),
    action('coupons.expire', 'a forged id', per('404'), { form: { id: '2147483647', lang: 'en' } }),
    /* memberships (finance): days out of range 400 before anything is read, an unknown membership 404, nothing written */
    action('memberships.extend', 'an unknown membership', per('404'), { form: { id: '2147483647', days: '30', reason: 'Matriz', key: `matrix-extend-${RUN}-0001`, lang: 'en' } }),
    action('memberships.extend', 'zero days', per('400'), { form: { id: '2147483647', days: '0', reason: 'Matriz', key: `matrix-extend-${RUN}-0002`, lang: 'en' } }),
    action('memberships.extend', 'ten thousand days', per('400'), { form: { id: '2147483647', days: '10000', reason: 'Matriz', key: `matrix-extend-${RUN}-0003`, lang: 'en' } }),
    action('memberships.extend', 'no reason', per('400'), { form: { id: '2147483647', days: '30', reason: '  ', key: `matrix-extend-${RUN}-0004`, lang: 'en' } }, { beforeAccess: true }),
    action('memberships.cancelNow', 'an unknown membership', per('404'), { form: { id: '2147483647', reason: 'Matriz', key: `matrix-cancel-${RUN}-0001`, lang: 'en' } }),
    action('memberships.cancelNow', 'no form key', per('400'), { form: { id: '2147483647', reason: 'Matriz', lang: 'en' } }, { beforeAccess: true }),
    action('memberships.cancelAtEnd', 'an unknown membership', per('404'), { form: { id: '2147483647', reason: 'Matriz', key: `matrix-end-${RUN}-0001`, lang: 'en' } }),
    action('memberships.resume', 'a forged id', per('400'), { form: { id: "1' or 1=1", reason: 'Matriz', key: `matrix-resume-${RUN}-0001`, lang: 'en' } }, { beforeAccess: true }),
    /* IBOs (administrators): a code taken or with bad characters, NUL and 100 KB texts, a sponsor loop, forged ids, no picture: each a sentence and a 4xx, nothing written */
    action('ibos.save', 'a code another IBO has', per('409'), { form: { ...IBO_FORM, code: 'horizonte01' } }),
    action('ibos.save', 'a code with a dash', per('400'), { form: { ...IBO_FORM, code: 'MATRIZ-1' } }),
    action('ibos.save', 'a code with a path in it', per('400'), { form: { ...IBO_FORM, code: '../etc/1' } }),
    action('ibos.save', 'a NUL in the company', per('400'), { form: { ...IBO_FORM, companyName: 'Matriz\u0000' } }),
    action('ibos.save', 'a company of 100 KB', per('400'), { form: { ...IBO_FORM, companyName: 'x'.repeat(100 * 1024) } }),
    action('ibos.save', 'a code of 100 KB', per('400'), { form: { ...IBO_FORM, code: '1'.repeat(100 * 1024) } }),
    action('ibos.save', 'an account that does not exist', per('400'), { form: { ...IBO_FORM, accountEmail: 'nadie.matriz@example.com' } }),
    action('ibos.save', 'its own sponsor (a loop)', per('400'), { form: { ...IBO_FORM, id: '1', code: 'HORIZONTE01', sponsorCode: 'HORIZONTE01' } }),
    action('ibos.save', 'a forged id', per('404'), { form: { ...IBO_FORM, id: '2147483647' } }),
    action('ibos.uploadLogo', 'no picture', per('400'), { form: { id: '1', logo: '<svg onload="alert(1)"/>', lang: 'en' } }),
    action('ibos.uploadLogo', 'a forged id', per('404'), { form: { id: '2147483647', lang: 'en' } }),
    action('ibos.suspend', 'a forged id', per('404'), { form: { id: '2147483647', lang: 'en' } }),
    action('ibos.reinstate', 'a forged id', per('404'), { form: { id: 'abc', lang: 'en' } }),
    /* IBO commissions (administrators): a rate below 0 %, above 100 % or not a number, a payout to a forged or suspended IBO or without a form key: a sentence and a 4xx, nothing written */
    action('commissions.setRate', 'a rate below 0 %', per('400'), { form: { kind: 'course', rate: '-1', lang: 'en' } }),
    action('commissions.setRate', 'a rate above 100 %', per('400'), { form: { kind: 'course', rate: '100.01', lang: 'en' } }),
    action('commissions.setRate', 'a rate that is not a number', per('400'), { form: { kind: 'book', rate: 'veinte', lang: 'en' } }),
    action('commissions.setRate', 'a NUL in the rate', per('400'), { form: { kind: 'book', rate: '20\u0000', lang: 'en' } }),
    action('commissions.setRate', 'a rate of 100 KB', per('400'), { form: { kind: 'book', rate: '1'.repeat(100 * 1024), lang: 'en' } }),
    action('commissions.setRate', 'an unknown product kind', per('400'), { form: { kind: 'membership', rate: '20', lang: 'en' } }, { beforeAccess: true }),
    action('commissions.recordPayout', 'a forged IBO id', per('404'), { form: { ibo: '2147483647', key: `matrix-payout-${RUN}-0001`, reference: '', lang: 'en' } }),
    action('commissions.recordPayout', 'a suspended IBO', per('409'), { form: { ibo: '3', key: `matrix-payout-${RUN}-0002`, reference: '', lang: 'en' } }),
    action('commissions.recordPayout', 'no form key', per('400'), { form: { ibo: '1', reference: '', lang: 'en' } }, { beforeAccess: true }),
    action('commissions.recordPayout', 'not an IBO id', per('400'), { form: { ibo: "1' or 1=1", key: `matrix-payout-${RUN}-0003`, lang: 'en' } }, { beforeAccess: true }),
    /* orders (finance): refunds of an unknown order, without a reason or a form key; a receipt of an unknown order: a sentence and a 4xx, nothing written */
    action('orders.refund', 'an unknown order', per('404'), { form: { id: '2147483647', scope: 'all', reason: 'Matrix', key: `matrix-refund-${RUN}-0001`, lang: 'en' } }),
    action('orders.refund', 'no reason', per('400'), { form: { id: '1', scope: 'all', reason: '', key: `matrix-refund-${RUN}-0002`, lang: 'en' } }, { beforeAccess: true }),
    action('orders.refund', 'no line ticked', per('400'), { form: { id: '1', scope: 'lines', reason: 'Matrix', key: `matrix-refund-${RUN}-0003`, lang: 'en' } }, { beforeAccess: true }),
    action('orders.resendReceipt', 'an unknown order', per('404'), { form: { id: '2147483647', lang: 'en' } }),
    /* course authoring: the administrator's refusals are in words and change nothing (no draft is started) */
    ...authoringRows(),
    /* the question banks: the administrator's refusals in words, nothing written (a learner 403, a visitor 401) */
    action('questions.add', 'a question with no right answer', per('400'), { form: { course: '1', kind: 'single', promptEs: '¿Matriz?', promptEn: 'Matrix?', option1Es: 'Sí', option1En: 'Yes', option2Es: 'No', option2En: 'No', lang: 'en' } }),
    action('questions.add', 'a course without an exam', per('404'), { form: { course: '999999', kind: 'true-false', promptEs: '¿Matriz?', promptEn: 'Matrix?', option1Es: 'Sí', option1En: 'Yes', option2Es: 'No', option2En: 'No', right: '1', lang: 'en' } }),
    action('questions.edit', 'a forged question id', per('404'), { form: { course: '1', question: '2147483647', kind: 'true-false', promptEs: '¿Matriz?', promptEn: 'Matrix?', option1Es: 'Sí', option1En: 'Yes', option2Es: 'No', option2En: 'No', right: '1', lang: 'en' } }),
    action('questions.retire', "another course's or a forged question id", per('404'), { form: { course: '999999', question: '1', lang: 'en' } }),
    action('questions.saveSettings', 'more questions than the bank holds', per('400'), { form: { course: '1', attempts: '3', questions: '100', minutes: '20', minimumScore: '70', lang: 'en' } }),
    action('questions.importCsv', 'no file', per('400'), { form: { course: '1', mode: 'add', lang: 'en' } }),
    action('questions.regrade', 'a course without an exam', per('404'), { form: { course: '999999', lang: 'en' } }),
    /* course archives: export and import (editors) */
    ...courseArchiveRows(),

    /* every declared action refuses another site (CSRF), whatever the session, before its access is checked */
    ...Object.keys(ACTION_RULES).map((name) =>
      action(name, 'from another site', per('403'), { form: { kind: 'course', id: '6', code: 'HORIZONTE01', email: PEOPLE.learner.email, password: PEOPLE.learner.password, lang: 'en', course: '2', attempt: '1' }, headers: CROSS_SITE }, { check: noNewSession, beforeAccess: true }),
    ),
    action('cart.add', 'same host, other scheme', per('403'), { form: { kind: 'book', id: '2', lang: 'en' }, headers: { origin: 'https://{self}' } }, { hole: 'Trust (middleware: exact scheme, host and port)' }),

    /* the socket: a connection per course, then each event on the free course */
    // An IBO's people page, live: only the owner of an active IBO connects; another Origin is refused before anything.
    socketRow('connect, business namespace', '/business connection', { courseId: null, namespace: '/business' }, sock({ ibo: 'unauthorized', owner: 'ok' })),
    socketRow('connect from another origin, business namespace', '/business connection', { courseId: null, namespace: '/business', origin: 'foreign' }, per('refused')),
    socketRow('connect, free course', 'connection', { courseId: COURSE.free }, sock({ prospect: 'ok', users: 'ok' })),
    socketRow('connect, members course', 'connection', { courseId: COURSE.members }, sock({ users: 'ok' })),
    socketRow('connect, paid course', 'connection', { courseId: COURSE.paid }, sock({ buyer: 'ok' })),
    socketRow('connect, buyers-only course', 'connection', { courseId: COURSE.buyers }, sock({ buyer: 'ok' })),
    socketRow('connect, buyers-only course 16', 'connection', { courseId: COURSE.buyers2 }, sock({ buyer: 'ok' })),
    socketRow('connect, test course', 'connection', { courseId: COURSE.hidden }, sock({})),
    socketRow('connect, prerequisite', 'connection', { courseId: COURSE.locked }, sock({})),
    socketRow('connect, unknown course', 'connection', { courseId: COURSE.unknown }, sock({})),
    socketRow('connect, not a course id', 'connection', { courseId: 'abc' }, sock({ prospect: 'invalid', users: 'invalid' })),
    socketRow('connect from another origin, free course', 'connection', { courseId: COURSE.free, origin: 'foreign' }, per('refused'), { hole: 'Trust #12 (socket Origin)' }),
    socketRow('tracking play, free course', 'tracking play', { courseId: COURSE.free, event: { name: 'tracking play', payload: { Identificador: L1.id, IdEntidad: 3, Avance: 0, Activo: true } } }, noSocket({ prospect: 'ok', users: 'ok' })),
    socketRow('tracking, free course', 'tracking', { courseId: COURSE.free, event: { name: 'tracking', payload: { Identificador: L1.id, IdEntidad: 3, Avance: 1, Activo: true } } }, noSocket({ prospect: 'ok', users: 'ok' })),
    socketRow('tracking end, free course', 'tracking end', { courseId: COURSE.free, event: { name: 'tracking end', payload: { Identificador: L1.id, IdEntidad: 3, Avance: 1, Activo: false } } }, noSocket({ prospect: 'ok', users: 'ok' })),
    socketRow("tracking, another course's lesson", 'tracking', { courseId: COURSE.free, event: { name: 'tracking', payload: { Identificador: L6.id, Avance: 1 } } }, noSocket({ prospect: 'forbidden', users: 'forbidden' })),
    socketRow("tracking, someone else's IdContacto", 'tracking', { courseId: COURSE.free, event: { name: 'tracking', payload: { Identificador: L1.id, Avance: 1, IdContacto: 2_147_483_647 } } }, noSocket({ prospect: 'forbidden', users: 'forbidden' })),
    socketRow("tracking end, someone else's CreadoPor", 'tracking end', { courseId: COURSE.free, event: { name: 'tracking end', payload: { Identificador: L1.id, Avance: 1, CreadoPor: 2_147_483_647 } } }, noSocket({ prospect: 'forbidden', users: 'forbidden' })),
    socketRow('tracking play, negative Avance', 'tracking play', { courseId: COURSE.free, event: { name: 'tracking play', payload: { Identificador: L1.id, Avance: -1 } } }, noSocket({ prospect: 'invalid', users: 'invalid' })),

    /* last: rows that change or end the session */
    action('ibo.confirmProspect', 'a new prospect of its own', per('200'), { form: { ...GUEST_PROSPECT, lang: 'en' } }, { only: ['guest'], last: true }),
    ...page('/HORIZONTE01', per('200'), { covers: '/[iboCodeParam]', note: 'affiliate link', last: true, check: affiliateSession }),
    action('auth.logout', 'end the session', per('200'), { form: { lang: 'en' } }, { last: true }),
    action('auth.verify', 'after logging out', per('401'), {}, { last: true }),
  ];
  return rows;
}

/** My business shows the share kit to an active IBO's owner, the suspended notice to a suspended one's, and no link to anyone else. */
function businessShown(role: Role, seen: Seen): string | undefined {
  const links = seen.body.includes('HORIZONTE01?course=');
  if (role === 'owner') return links ? undefined : 'should show the course links';
  if (links) return 'shows the IBO links';
  if (role === 'suspended') return seen.body.includes('RUTAS99') ? undefined : 'should name the suspended code';
  if (seen.status === 401 || seen.status === 403) return /role="alert"/.test(seen.body) ? undefined : 'should say why in words';
  return undefined;
}

/**
 * A page of the business area: its content (marked by `marker`) to an active IBO's owner, with a refusal
 * in words when `refused`; the suspended notice and no content to a suspended one's; a refusal in words
 * and no content to anyone else.
 */
const areaShown = (marker: string, refused = false) => (role: Role, seen: Seen): string | undefined => {
  const shown = seen.body.includes(marker);
  if (role === 'owner') {
    if (!shown) return `should show ${marker}`;
    return refused && !/role="alert"/.test(seen.body) ? 'should say why in words' : undefined;
  }
  if (shown) return `shows ${marker}`;
  if (role === 'suspended') return seen.body.includes('RUTAS99') ? undefined : 'should name the suspended code';
  if (seen.status === 401 || seen.status === 403) return /role="alert"/.test(seen.body) ? undefined : 'should say why in words';
  return undefined;
};

/** The QR code: an image of its type to its owner, a sentence to anyone else; never cacheable. */
const qrShown = (format: 'png' | 'svg', lang: 'es' | 'en') => (role: Role, seen: Seen) => {
  if (seen.headers['cache-control'] !== 'private, no-store') return `may be cached (${seen.headers['cache-control']})`;
  if (role === 'owner') {
    const type = format === 'png' ? 'image/png' : 'image/svg+xml; charset=utf-8';
    if (seen.headers['content-type'] !== type) return `is ${seen.headers['content-type']}, not ${type}`;
    return format === 'svg' && !seen.body.startsWith('<svg') ? 'is not an SVG' : undefined;
  }
  const words = lang === 'es' ? /IBO|sesión/ : /IBO|Log in/;
  return seen.headers['content-type']?.startsWith('text/plain') && words.test(seen.body) ? undefined : 'should refuse in words';
};

/** The current month (UTC): the latest a statement is given for. */
const THIS_MONTH = new Date().toISOString().slice(0, 7);

/** A commission statement: the file to its owner, a sentence to anyone else (and to a bad month); never cacheable. */
const statementShown = (format: 'pdf' | 'csv', lang: 'es' | 'en') => (_role: Role, seen: Seen) => {
  if (seen.headers['cache-control'] !== 'private, no-store') return `may be cached (${seen.headers['cache-control']})`;
  if (seen.status === 200) {
    const type = format === 'pdf' ? 'application/pdf' : 'text/csv; charset=utf-8';
    if (seen.headers['content-type'] !== type) return `is ${seen.headers['content-type']}, not ${type}`;
    if (format === 'csv' && (!seen.body.includes('HORIZONTE01') || seen.body.includes('MUNDO2026'))) return "is not the owner's own statement";
    return undefined;
  }
  const words = lang === 'es' ? /IBO|sesión|mes/ : /IBO|Log in|month/;
  return seen.headers['content-type']?.startsWith('text/plain') && words.test(seen.body) ? undefined : 'should refuse in words';
};

/** A session cookie set by the answer. */
function newSession(seen: Seen): boolean {
  return seen.setCookies.some((c) => /^session=[^;]+/.test(c) && !/max-age=0|expires=thu, 01 jan 1970/i.test(c));
}

/** A refused or read-only action never starts a session. */
function noNewSession(_role: Role, seen: Seen): string | undefined {
  return newSession(seen) ? 'started a session' : undefined;
}

/** An affiliate link opens the IBO's session, except for a logged-in user, who keeps theirs. */
function affiliateSession(role: Role, seen: Seen): string | undefined {
  const user = (GROUPS.users as readonly Role[]).includes(role);
  if (user && newSession(seen)) return "replaced the user's session";
  if (!user && !newSession(seen)) return 'opened no IBO session';
  return undefined;
}
