/**
 * The back office's people area on the database: the search (name, e-mail, IBO code), one person's page
 * (what the learner's own pages compute is read through their functions: progress, certificates, orders,
 * memberships, sessions) and staff's changes to a person. Every change locks the person, writes its
 * audit record in the same transaction and answers `unknown` (nothing written) for a person who no
 * longer exists; `step` names the points a fault test may kill the process at.
 */
import { and, count, desc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Locale } from '~/i18n/locales';
import type { Db, Tx } from '../db/client';
import { contacts, courseGrants, courses, evaluations, examAttempts, ibos, purchaseAccess, sessions, staffRoles, users, USER_TYPE, type User } from '../db/schema';
import { loadViewer } from '../access/access.server';
import type { CatalogSnapshot } from '../catalog';
import { loadMyLearning } from '../learning/mylearning.server';
import type { MyLearningCourse } from '../learning/mylearning';
import { findCertificates } from '../certificates/revoke.server';
import { loadMyOrders, type OrderSummary } from '../commerce/pages.server';
import { listMemberships, type MembershipView } from '../commerce/memberships.server';
import { listSessions, type SessionRow } from '../identity/security.server';
import { rolesOf } from '../staff/staff.server';
import type { StaffRole } from '../access/policy';
import { recordAudit, userRef } from '../privacy/audit.server';
import { personChange, sessionChange, type Change } from '../runtime/changes';
import { blockRefused, grantRef, pageOf, personTypeOf, PEOPLE_PAGE_SIZE, searchTerms, type PeopleSearch, type PersonType } from './people';
import { noStep, type Step } from '../faults/step';

/** One line of the search. */
export interface PersonLine {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  type: PersonType | null;
  referredBy: string | null;
  /** The code of the IBO this account is, if any. */
  ownCode: string | null;
  blocked: boolean;
  verified: boolean;
  createdAt: Date;
}

/** A page of the search. */
export interface PeoplePage {
  lines: PersonLine[];
  total: number;
  page: number;
  pages: number;
}

// Named with their table: inside a subquery a bare `id` would be the IBO's own.
const referring = sql<string | null>`(select i.code from ${ibos} i where i.id = "users"."referred_by_ibo_id")`;
const ownCode = sql<string | null>`(select i.code from ${ibos} i where i.user_id = "users"."id" order by i.id limit 1)`;

/** What a search matches: the folded full name or the address containing the text, or the IBO code (its referrals and its own account). */
function matching(search: PeopleSearch): SQL | undefined {
  if (!search.q) return undefined;
  const { pattern, code } = searchTerms(search.q);
  // The same expressions as the trigram indexes (`users_search_name_idx`, `users_search_email_idx`), so they serve the `like`.
  const byText = [sql`search_fold(${users.firstName} || ' ' || ${users.lastName}) like search_fold(${pattern})`, sql`lower(${users.email}) like ${pattern}`];
  if (!code) return or(...byText);
  return or(...byText, sql`${users.referredByIboId} in (select i.id from ${ibos} i where i.code = ${code})`, sql`${users.id} in (select i.user_id from ${ibos} i where i.code = ${code})`);
}

/** The people a search selects, newest accounts first, one page of them. */
export async function searchPeople(db: Db, search: PeopleSearch): Promise<PeoplePage> {
  const where = matching(search);
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(users).where(where);
  const { page, pages } = pageOf(n, search.page);
  const rows = await db
    .select({ u: users, referredBy: referring, ownCode })
    .from(users)
    .where(where)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(PEOPLE_PAGE_SIZE)
    .offset((page - 1) * PEOPLE_PAGE_SIZE);
  return { lines: rows.map(({ u, referredBy, ownCode }) => lineOf(u, referredBy, ownCode)), total: n, page, pages };
}

function lineOf(u: User, referredBy: string | null, own: string | null): PersonLine {
  return { id: u.id, firstName: u.firstName, lastName: u.lastName, email: u.email, type: personTypeOf(u.userType), referredBy, ownCode: own, blocked: u.blockedAt !== null, verified: u.emailVerifiedAt !== null, createdAt: u.createdAt };
}

/** One exam attempt as the person's page lists it. */
export interface AttemptLine {
  id: number;
  courseId: number;
  course: { es: string; en: string };
  number: number;
  startedAt: Date;
  submittedAt: Date | null;
  score: number | null;
  passed: boolean | null;
}

/** A course staff granted, with who and why. */
export interface GrantLine {
  id: number;
  courseId: number;
  course: { es: string; en: string };
  reason: string;
  grantedBy: string | null;
  grantedAt: Date;
}

/** Everything one person's page shows. */
export interface PersonPage {
  person: PersonLine & { locale: 'es' | 'en' | null; lastLogin: Date | null; blockedAt: Date | null };
  referringIbo: { code: string; companyName: string } | null;
  roles: StaffRole[];
  courses: MyLearningCourse[];
  attempts: AttemptLine[];
  certificates: Awaited<ReturnType<typeof findCertificates>>;
  orders: OrderSummary[];
  memberships: MembershipView[];
  sessions: SessionRow[];
  grants: GrantLine[];
  /** Published courses the person does not hold yet, for the grant form. */
  grantable: { id: number; name: { es: string; en: string } }[];
}

/** One person's page, or null when there is no such person. */
export async function loadPerson(db: Db, catalog: CatalogSnapshot, id: number, locale: Locale, now = new Date()): Promise<PersonPage | null> {
  const [row] = await db.select({ u: users, referredBy: referring, ownCode }).from(users).where(eq(users.id, id));
  if (!row) return null;
  const u = row.u;
  const [own] = await db.select({ id: contacts.id }).from(contacts).where(eq(contacts.userId, id)).limit(1);
  const contactId = own?.id ?? null;
  // The learner's own view of their courses ("my learning"): the same progress, exam standing and completion.
  const viewer = await loadViewer(db, { kind: 'learner', userId: id, contactId }, now);
  const [ibo, roles, learning, attempts, certificates, orders, memberships, sessionRows, grants, held] = await Promise.all([
    u.referredByIboId === null ? Promise.resolve([]) : db.select({ code: ibos.code, companyName: ibos.companyName }).from(ibos).where(eq(ibos.id, u.referredByIboId)),
    rolesOf(db, id),
    loadMyLearning(db, catalog, viewer, locale),
    contactId === null ? Promise.resolve([]) : attemptsOf(db, contactId),
    findCertificates(db, { by: 'email', email: u.email.toLowerCase() }),
    loadMyOrders(db, id, locale),
    listMemberships(db, id, now),
    listSessions(db, id, '', now),
    grantsOf(db, id),
    db.select({ courseId: purchaseAccess.courseId }).from(purchaseAccess).where(eq(purchaseAccess.userId, id)),
  ]);
  const holds = new Set(held.map((h) => h.courseId));
  const grantable = catalog.courses.filter((c) => !c.isTest && c.hidden !== true && !holds.has(c.id)).map((c) => ({ id: c.id, name: { es: c.nameEs, en: c.nameEn } }));
  const lastLogin = sessionRows.reduce<Date | null>((a, s) => (a === null || s.createdAt > a ? s.createdAt : a), null);
  return {
    person: { ...lineOf(u, row.referredBy, row.ownCode), locale: u.locale ?? null, lastLogin, blockedAt: u.blockedAt },
    referringIbo: ibo[0] ?? null,
    roles,
    courses: learning,
    attempts,
    certificates,
    orders,
    memberships,
    sessions: sessionRows,
    grants,
    grantable,
  };
}

/** A contact's exam attempts, newest first (at most 100). */
async function attemptsOf(db: Db, contactId: number): Promise<AttemptLine[]> {
  const rows = await db
    .select({ a: examAttempts, courseId: courses.id, es: courses.nameEs, en: courses.nameEn })
    .from(examAttempts)
    .innerJoin(evaluations, eq(evaluations.id, examAttempts.evaluationId))
    .innerJoin(courses, eq(courses.id, evaluations.courseId))
    .where(eq(examAttempts.contactId, contactId))
    .orderBy(desc(examAttempts.startedAt), desc(examAttempts.id))
    .limit(100);
  return rows.map(({ a, courseId, es, en }) => ({ id: a.id, courseId, course: { es, en }, number: a.attemptNumber, startedAt: a.startedAt, submittedAt: a.submittedAt, score: a.score, passed: a.passed }));
}

/** The courses staff granted a person, newest first. */
export async function grantsOf(db: Db | Tx, userId: number): Promise<GrantLine[]> {
  const rows = await db
    .select({ g: courseGrants, es: courses.nameEs, en: courses.nameEn, first: users.firstName, last: users.lastName })
    .from(courseGrants)
    .innerJoin(courses, eq(courses.id, courseGrants.courseId))
    .leftJoin(users, eq(users.id, courseGrants.grantedBy))
    .where(eq(courseGrants.userId, userId))
    .orderBy(desc(courseGrants.grantedAt), desc(courseGrants.id));
  return rows.map(({ g, es, en, first, last }) => ({ id: g.id, courseId: g.courseId, course: { es, en }, reason: g.reason, grantedBy: first === null ? null : `${first} ${last ?? ''}`.trim(), grantedAt: g.grantedAt }));
}

/* ───────────── changes ───────────── */

/** A point a fault test may stop the process at (nothing in production). */
/** The points a fault test may stop the back office's people writes at. */
export type PeopleStep = Step<'block-written' | 'sessions-deleted' | 'type-written' | 'access-written' | 'audit-written'>;

/** The person locked for this transaction's change, or undefined when there is none. */
async function lockPerson(tx: Tx, id: number) {
  const [u] = await tx.select().from(users).where(eq(users.id, id)).for('update');
  return u;
}

/** Why a change that stops `target` from logging in is refused (see `blockRefused`); the administrators' rows are locked first. */
async function lockoutRefused(tx: Tx, actorId: number, target: User): Promise<'self' | 'lastAdministrator' | null> {
  // Every administrator's role locked: two blocks at once cannot both see another administrator left.
  const admins = await tx.select({ userId: staffRoles.userId }).from(staffRoles).where(eq(staffRoles.role, 'administrator')).for('update');
  const ids = admins.map((a) => a.userId);
  const active = ids.length ? await tx.select({ id: users.id }).from(users).where(and(inArray(users.id, ids), isNull(users.blockedAt), inArray(users.userType, [USER_TYPE.learner, USER_TYPE.admin]))) : [];
  return blockRefused(actorId, target.id, ids.includes(target.id), active.length);
}

export type BlockOutcome = { status: 'blocked' | 'alreadyBlocked'; changed: Change[] } | { status: 'unknown' } | { status: 'self' } | { status: 'lastAdministrator' };

/** Blocks a person: no login from now on, and every open session ends at once (every process is told). */
export function blockPerson(db: Db, actorId: number, userId: number, now = new Date(), step: PeopleStep = noStep): Promise<BlockOutcome> {
  return db.transaction(async (tx) => {
    const u = await lockPerson(tx, userId);
    if (!u) return { status: 'unknown' } as const;
    const refused = await lockoutRefused(tx, actorId, u);
    if (refused) return { status: refused } as const;
    // Already blocked: its sessions are ended again all the same (one opened meanwhile reads as none anyway).
    const ended = await tx.delete(sessions).where(eq(sessions.userId, userId)).returning({ tokenHash: sessions.tokenHash });
    const changed = [sessionChange({ userId })];
    if (u.blockedAt !== null) return { status: 'alreadyBlocked', changed } as const;
    await tx.update(users).set({ blockedAt: now }).where(eq(users.id, userId));
    await step('block-written');
    await recordAudit(tx, { action: 'people.blocked', actor: userRef(actorId), subject: userRef(userId), before: { blocked: false }, after: { blocked: true, sessionsEnded: ended.length }, at: now });
    await step('audit-written');
    return { status: 'blocked', changed } as const;
  });
}

export type UnblockOutcome = { status: 'unblocked' | 'notBlocked' } | { status: 'unknown' };

/** Lets a blocked person log in again. */
export function unblockPerson(db: Db, actorId: number, userId: number, now = new Date()): Promise<UnblockOutcome> {
  return db.transaction(async (tx) => {
    const u = await lockPerson(tx, userId);
    if (!u) return { status: 'unknown' } as const;
    if (u.blockedAt === null) return { status: 'notBlocked' } as const;
    await tx.update(users).set({ blockedAt: null }).where(eq(users.id, userId));
    await recordAudit(tx, { action: 'people.unblocked', actor: userRef(actorId), subject: userRef(userId), before: { blocked: true, since: u.blockedAt.toISOString() }, after: { blocked: false }, at: now });
    return { status: 'unblocked' } as const;
  });
}

export type EndSessionsOutcome = { status: 'ok'; ended: number; changed: Change[] } | { status: 'unknown' };

/** Ends every session of a person, on every process. */
export function endPersonSessions(db: Db, actorId: number, userId: number, now = new Date(), step: PeopleStep = noStep): Promise<EndSessionsOutcome> {
  return db.transaction(async (tx) => {
    const u = await lockPerson(tx, userId);
    if (!u) return { status: 'unknown' } as const;
    const ended = await tx.delete(sessions).where(eq(sessions.userId, userId)).returning({ tokenHash: sessions.tokenHash });
    await step('sessions-deleted');
    await recordAudit(tx, { action: 'people.sessions.ended', actor: userRef(actorId), subject: userRef(userId), after: { ended: ended.length }, at: now });
    await step('audit-written');
    return { status: 'ok', ended: ended.length, changed: [sessionChange({ userId })] } as const;
  });
}

export type TypeOutcome = { status: 'changed' | 'unchanged'; changed: Change[] } | { status: 'unknown' } | { status: 'self' } | { status: 'lastAdministrator' };

/** Sets a person's user type; a type that cannot log in (refused, prospect) follows the blocking rule (not oneself, not the last administrator). */
export function setPersonType(db: Db, actorId: number, userId: number, type: PersonType, now = new Date(), step: PeopleStep = noStep): Promise<TypeOutcome> {
  return db.transaction(async (tx) => {
    const u = await lockPerson(tx, userId);
    if (!u) return { status: 'unknown' } as const;
    const stored = USER_TYPE[type];
    if (u.userType === stored) return { status: 'unchanged', changed: [] } as const;
    if (stored === USER_TYPE.refused || stored === USER_TYPE.prospect) {
      const refused = await lockoutRefused(tx, actorId, u);
      if (refused) return { status: refused } as const;
    }
    await tx.update(users).set({ userType: stored }).where(eq(users.id, userId));
    await step('type-written');
    await recordAudit(tx, { action: 'people.type.changed', actor: userRef(actorId), subject: userRef(userId), before: { type: personTypeOf(u.userType) ?? u.userType }, after: { type }, at: now });
    await step('audit-written');
    return { status: 'changed', changed: [sessionChange({ userId }), personChange({ userId })] } as const;
  });
}

export type GrantOutcome = { status: 'granted'; grantId: number; changed: Change[] } | { status: 'unknown' } | { status: 'unknownCourse' } | { status: 'unpublished' } | { status: 'held' };

/**
 * Gives a person a course without an order (`purchase_access` with no order), with the reason kept in
 * the grant and the grant in the audit trail, all in one transaction. A course already held is `held`
 * (nothing written): a grant replayed after a crash never doubles.
 */
export function grantCourse(db: Db, actorId: number, userId: number, courseId: number, reason: string, now = new Date(), step: PeopleStep = noStep): Promise<GrantOutcome> {
  return db.transaction(async (tx) => {
    const u = await lockPerson(tx, userId);
    if (!u) return { status: 'unknown' } as const;
    const [course] = await tx.select({ id: courses.id, isTest: courses.isTest, hidden: courses.hidden }).from(courses).where(eq(courses.id, courseId));
    if (!course) return { status: 'unknownCourse' } as const;
    if (course.isTest || course.hidden) return { status: 'unpublished' } as const;
    const inserted = await tx.insert(purchaseAccess).values({ userId, courseId, orderId: null, grantedAt: now }).onConflictDoNothing().returning({ courseId: purchaseAccess.courseId });
    if (inserted.length === 0) return { status: 'held' } as const;
    await step('access-written');
    const [grant] = await tx.insert(courseGrants).values({ userId, courseId, grantedBy: actorId, reason, grantedAt: now }).returning({ id: courseGrants.id });
    await recordAudit(tx, { action: 'people.course.granted', actor: userRef(actorId), subject: userRef(userId), after: { course: courseId, grant: grantRef(grant!.id) }, at: now });
    await step('audit-written');
    const [own] = await tx.select({ id: contacts.id }).from(contacts).where(eq(contacts.userId, userId)).limit(1);
    return { status: 'granted', grantId: grant!.id, changed: [personChange({ userId, contactId: own?.id ?? null })] } as const;
  });
}

/** Records that staff mailed a person a link (`verification` or `reset`); the link itself is made by the identity's own code. */
export async function recordMailSent(db: Db, actorId: number, userId: number, kind: 'verification' | 'reset', now = new Date()): Promise<void> {
  await recordAudit(db, { action: `people.${kind}.sent`, actor: userRef(actorId), subject: userRef(userId), at: now });
}

/** The person's account facts a mail action needs, or undefined. */
export async function personForMail(db: Db, userId: number): Promise<Pick<User, 'id' | 'email' | 'emailVerifiedAt' | 'userType' | 'passwordHash'> | undefined> {
  const [u] = await db.select({ id: users.id, email: users.email, emailVerifiedAt: users.emailVerifiedAt, userType: users.userType, passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId));
  return u;
}
