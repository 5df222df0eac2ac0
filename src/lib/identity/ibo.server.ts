/** IBO sessions, affiliate referrals and prospects: the database side. */
import { and, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import { affiliateVisits, contacts, ibos, referrals, users, USER_TYPE, type Contact } from '../db/schema';
import { isOwnProspect, looksLikeAffiliateCode, nextReferral, normalizeIboCode } from './ibo';
import type { ProspectInput } from './prospect';
import { contactAccount, createSession, destroySession, newToken, setSessionProspect } from './session.server';
import type { RateLimiter } from '../http/rate-limit.server';
import { sessionChange, type Change } from '../runtime/changes';

/** The account a contact belongs to, joined apart from the account found by e-mail. */
const contactUsers = alias(users, 'contact_users');

/** An IBO as the session and the header show it. */
export interface IboInfo {
  id: number;
  userId: number;
  code: string;
  companyName: string;
  imageUrl: string | null;
}

/** The active IBO with this code, or `null` when it is unknown, suspended or not a code at all. */
export async function findActiveIbo(db: Db, rawCode: unknown): Promise<IboInfo | null> {
  const code = normalizeIboCode(rawCode);
  if (!code) return null;
  const [row] = await db.select().from(ibos).where(sql`upper(${ibos.code}) = ${code}`).limit(1);
  if (!row || row.status !== 'active') return null;
  return { id: row.id, userId: row.userId, code: row.code, companyName: row.companyName, imageUrl: row.imageUrl };
}

/** What checking an IBO code under the per-address budget of invalid codes found. */
export type CodeCheck = { status: 'ok'; ibo: IboInfo } | { status: 'invalid' } | { status: 'limited'; retryAfterSeconds: number };

/**
 * Looks an IBO code up under the per-address budget of invalid codes (`codePerAddress`), which the typed
 * code (`ibo.enter`) and affiliate links (`/{code}`) share, so neither path adds to the other's guesses.
 * Each check is counted before the look-up (so many at once cannot slip past the limit) and given back
 * when the code was valid: only invalid codes use the budget. Once it is used up every code is refused,
 * valid or not, until the window passes, so a refusal tells nothing about the code.
 */
export async function checkIboCode(db: Db, limiter: RateLimiter, rawCode: unknown, address: string): Promise<CodeCheck> {
  const counted = await limiter.hit('codePerAddress', address);
  if (!counted.ok) return { status: 'limited', retryAfterSeconds: counted.retryAfterSeconds };
  const ibo = await findActiveIbo(db, rawCode);
  if (!ibo) return { status: 'invalid' };
  await limiter.refund('codePerAddress', address);
  return { status: 'ok', ibo };
}

/** Remembers that this browser (`visitorId`, from the `ref` cookie) arrived through an IBO's link. */
export async function recordReferral(db: Db, visitorId: string, iboId: number, now = new Date()): Promise<void> {
  const [current] = await db.select().from(referrals).where(eq(referrals.visitorId, visitorId)).limit(1);
  const next = nextReferral(current ?? null, iboId);
  await db
    .insert(referrals)
    .values({ visitorId, firstIboId: next.firstIboId, firstAt: now, lastIboId: next.lastIboId, lastAt: now })
    .onConflictDoUpdate({ target: referrals.visitorId, set: { lastIboId: next.lastIboId, lastAt: now } });
}

/** Counts one visit through `iboId`'s affiliate link on the UTC day of `now` (a count only: nothing about the visitor). */
export async function countAffiliateVisit(db: Db, iboId: number, now = new Date()): Promise<void> {
  await db
    .insert(affiliateVisits)
    .values({ iboId, day: now.toISOString().slice(0, 10), visits: 1 })
    .onConflictDoUpdate({ target: [affiliateVisits.iboId, affiliateVisits.day], set: { visits: sql`${affiliateVisits.visits} + 1` } });
}

/** Attributes a browser's referral to the account it signed up or logged in as (last touch wins). */
export async function attributeReferral(db: Db, visitorId: string | undefined, userId: number): Promise<void> {
  if (!visitorId) return;
  const [ref] = await db.select().from(referrals).where(eq(referrals.visitorId, visitorId)).limit(1);
  if (!ref) return;
  await db.update(referrals).set({ userId }).where(eq(referrals.visitorId, visitorId));
  await db
    .update(users)
    .set({ referredByIboId: ref.lastIboId })
    .where(and(eq(users.id, userId), sql`${users.referredByIboId} is null`));
}

/**
 * Whether a customer with this e-mail exists. Answers only yes or no: names and anything else about the
 * customer stay on the server (the prospect form only needs to know that Confirm may be enabled).
 */
export async function customerExists(db: Db, email: string): Promise<boolean> {
  const [row] = await db.select({ id: contacts.id }).from(contacts).where(sql`lower(${contacts.email}) = ${email.toLowerCase()}`).limit(1);
  return row !== undefined;
}

/** Rolls a prospect confirmation back when the e-mail turned out to be someone else's. */
class NotOwnProspect extends Error {}

/**
 * Outcome of confirming a prospect. `not-own-prospect`: the e-mail belongs to someone who is not this
 * IBO's prospect (a registered customer, another IBO's prospect); nothing about them is returned.
 */
export type ProspectOutcome =
  | { status: 'confirmed'; contact: { id: number; firstName: string; lastName: string; email: string }; created: boolean; changed: Change[] }
  | { status: 'unknown-customer' }
  | { status: 'not-own-prospect' };

/**
 * Confirms the prospect of an IBO session: reuses the IBO's own prospect with that e-mail, or creates it
 * (a user of type 9 whose main user is the IBO's, and its contact of the IBO). Anyone else with that
 * e-mail (`isOwnProspect`) is refused and the session stays as it was. Safe to run twice at once:
 * unique e-mail indexes and insert-or-nothing mean one contact, whatever the interleaving, and the
 * rule is checked again on what the database holds after the inserts. Then the session remembers it.
 */
export async function confirmProspect(
  db: Db,
  session: { tokenHash: string; ibo: IboInfo },
  input: ProspectInput | { email: string },
): Promise<ProspectOutcome> {
  const email = input.email.trim().toLowerCase();
  const confirm = db.transaction(async (tx): Promise<{ contact: Contact; created: boolean } | 'unknown' | 'not-own'> => {
    /** Who has this e-mail now: their contact (with the contact's own account) and their account. */
    const holder = async () => {
      const [found] = await tx
        .select({ contact: contacts, contactAccount: { userType: contactUsers.userType, mainUserId: contactUsers.mainUserId } })
        .from(contacts)
        .leftJoin(contactUsers, eq(contactUsers.id, contacts.userId))
        .where(sql`lower(${contacts.email}) = ${email}`)
        .limit(1);
      const [account] = await tx.select({ userType: users.userType, mainUserId: users.mainUserId }).from(users).where(sql`lower(${users.email}) = ${email}`).limit(1);
      const own =
        isOwnProspect(session.ibo, found?.contact ?? null, contactAccount(account)) &&
        (found === undefined || found.contact.userId === null || isOwnProspect(session.ibo, found.contact, contactAccount(found.contactAccount)));
      return { contact: found?.contact, anyone: found !== undefined || account !== undefined, own };
    };
    const before = await holder();
    if (before.anyone && !before.own) return 'not-own';
    if (before.contact) return { contact: before.contact, created: false };
    if (!('firstName' in input)) return 'unknown';
    await tx
      .insert(users)
      .values({ email, firstName: input.firstName, lastName: input.lastName, userType: USER_TYPE.prospect, mainUserId: session.ibo.userId, createdBy: session.ibo.userId })
      .onConflictDoNothing();
    const [user] = await tx.select().from(users).where(sql`lower(${users.email}) = ${email}`).limit(1);
    if (!isOwnProspect(session.ibo, null, contactAccount(user))) return 'not-own';
    const inserted = await tx
      .insert(contacts)
      .values({ userId: user?.id ?? null, firstName: input.firstName, lastName: input.lastName, email, iboId: session.ibo.id, createdBy: session.ibo.userId })
      .onConflictDoNothing()
      .returning();
    // Another request may have taken this e-mail in between (another IBO, a sign-up): ask again, and
    // undo whatever this request wrote when the person turned out not to be the IBO's.
    const after = await holder();
    if (!after.own || !after.contact) throw new NotOwnProspect();
    return { contact: after.contact, created: inserted.length > 0 };
  });
  const outcome = await confirm.catch((err: unknown) => {
    if (err instanceof NotOwnProspect) return 'not-own' as const;
    throw err;
  });
  if (outcome === 'unknown') return { status: 'unknown-customer' };
  if (outcome === 'not-own') return { status: 'not-own-prospect' };
  await setSessionProspect(db, session.tokenHash, outcome.contact.id);
  const { id, firstName, lastName } = outcome.contact;
  // The session now names its prospect: every process reads it again.
  return { status: 'confirmed', contact: { id, firstName, lastName, email: outcome.contact.email }, created: outcome.created, changed: [sessionChange({ tokenHash: session.tokenHash })] };
}

/** The shape of the `ref` cookie's random browser id. */
const VISITOR_ID = /^[A-Za-z0-9_-]{20,64}$/;

/** What an affiliate link (`/:iboCodeParam`) leads to. */
export type AffiliateEntry =
  | { status: 'not-a-code' }
  | { status: 'invalid' }
  | { status: 'limited'; retryAfterSeconds: number }
  | { status: 'ok'; ibo: IboInfo; visitorId: string; newVisitorId: boolean; session: { token: string; expiresAt: Date } | null };

/**
 * Follows an affiliate link: an active IBO's code records the referral (first and last touch) for this
 * browser and, unless a learner is logged in, starts an IBO session (replacing any other session).
 * Codes count against the client address's budget of invalid codes (`checkIboCode`).
 */
export async function enterThroughLink(
  db: Db,
  limiter: RateLimiter,
  input: { rawCode: string; address: string; visitorId: string | undefined; currentToken: string | undefined; learnerLoggedIn: boolean },
): Promise<AffiliateEntry> {
  if (!looksLikeAffiliateCode(input.rawCode)) return { status: 'not-a-code' };
  const checked = await checkIboCode(db, limiter, input.rawCode, input.address);
  if (checked.status !== 'ok') return checked;
  const { ibo } = checked;
  const known = input.visitorId !== undefined && VISITOR_ID.test(input.visitorId);
  const visitorId = known ? input.visitorId! : newToken();
  await recordReferral(db, visitorId, ibo.id);
  await countAffiliateVisit(db, ibo.id);
  let session: { token: string; expiresAt: Date } | null = null;
  if (!input.learnerLoggedIn) {
    await destroySession(db, input.currentToken);
    session = await createSession(db, { kind: 'ibo', iboId: ibo.id });
  }
  return { status: 'ok', ibo, visitorId, newVisitorId: !known, session };
}
