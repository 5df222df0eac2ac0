/** IBO sessions, affiliate referrals and prospects: the database side. */
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { contacts, ibos, referrals, users, USER_TYPE } from '../db/schema';
import { looksLikeAffiliateCode, nextReferral, normalizeIboCode, type ProspectInput } from './ibo';
import { createSession, destroySession, newToken, setSessionProspect } from './session.server';

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

/** Remembers that this browser (`visitorId`, from the `ref` cookie) arrived through an IBO's link. */
export async function recordReferral(db: Db, visitorId: string, iboId: number, now = new Date()): Promise<void> {
  const [current] = await db.select().from(referrals).where(eq(referrals.visitorId, visitorId)).limit(1);
  const next = nextReferral(current ?? null, iboId);
  await db
    .insert(referrals)
    .values({ visitorId, firstIboId: next.firstIboId, firstAt: now, lastIboId: next.lastIboId, lastAt: now })
    .onConflictDoUpdate({ target: referrals.visitorId, set: { lastIboId: next.lastIboId, lastAt: now } });
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
 * customer stay on the server (the spec only needs to know that Confirm may be enabled).
 */
export async function customerExists(db: Db, email: string): Promise<boolean> {
  const [row] = await db.select({ id: contacts.id }).from(contacts).where(sql`lower(${contacts.email}) = ${email.toLowerCase()}`).limit(1);
  return row !== undefined;
}

/** Outcome of confirming a prospect. */
export type ProspectOutcome = { status: 'confirmed'; contact: { id: number; firstName: string; lastName: string; email: string }; created: boolean } | { status: 'unknown-customer' };

/**
 * Confirms the prospect of an IBO session: reuses the contact with that e-mail, or creates it (a user of
 * type 9 whose main user is the IBO's, and its contact). Safe to run twice at once: unique e-mail
 * indexes and insert-or-nothing mean one contact, whatever the interleaving. Then the session remembers it.
 */
export async function confirmProspect(
  db: Db,
  session: { tokenHash: string; ibo: IboInfo },
  input: ProspectInput | { email: string },
): Promise<ProspectOutcome> {
  const email = input.email.trim().toLowerCase();
  const outcome = await db.transaction(async (tx) => {
    const existing = async () => (await tx.select().from(contacts).where(sql`lower(${contacts.email}) = ${email}`).limit(1))[0];
    const found = await existing();
    if (found) return { contact: found, created: false };
    if (!('firstName' in input)) return null;
    await tx
      .insert(users)
      .values({ email, firstName: input.firstName, lastName: input.lastName, userType: USER_TYPE.prospect, mainUserId: session.ibo.userId, createdBy: session.ibo.userId })
      .onConflictDoNothing();
    const [user] = await tx.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${email}`).limit(1);
    const inserted = await tx
      .insert(contacts)
      .values({ userId: user?.id ?? null, firstName: input.firstName, lastName: input.lastName, email, iboId: session.ibo.id, createdBy: session.ibo.userId })
      .onConflictDoNothing()
      .returning();
    const contact = inserted[0] ?? (await existing());
    return contact ? { contact, created: inserted.length > 0 } : null;
  });
  if (!outcome) return { status: 'unknown-customer' };
  await setSessionProspect(db, session.tokenHash, outcome.contact.id);
  const { id, firstName, lastName } = outcome.contact;
  return { status: 'confirmed', contact: { id, firstName, lastName, email: outcome.contact.email }, created: outcome.created };
}

/** The shape of the `ref` cookie's random browser id. */
const VISITOR_ID = /^[A-Za-z0-9_-]{20,64}$/;

/** What an affiliate link (`/:iboCodeParam`) leads to. */
export type AffiliateEntry =
  | { status: 'not-a-code' }
  | { status: 'invalid' }
  | { status: 'ok'; ibo: IboInfo; visitorId: string; newVisitorId: boolean; session: { token: string; expiresAt: Date } | null };

/**
 * Follows an affiliate link: an active IBO's code records the referral (first and last touch) for this
 * browser and, unless a learner is logged in, starts an IBO session (replacing any other session).
 */
export async function enterThroughLink(
  db: Db,
  input: { rawCode: string; visitorId: string | undefined; currentToken: string | undefined; learnerLoggedIn: boolean },
): Promise<AffiliateEntry> {
  if (!looksLikeAffiliateCode(input.rawCode)) return { status: 'not-a-code' };
  const ibo = await findActiveIbo(db, input.rawCode);
  if (!ibo) return { status: 'invalid' };
  const known = input.visitorId !== undefined && VISITOR_ID.test(input.visitorId);
  const visitorId = known ? input.visitorId! : newToken();
  await recordReferral(db, visitorId, ibo.id);
  let session: { token: string; expiresAt: Date } | null = null;
  if (!input.learnerLoggedIn) {
    await destroySession(db, input.currentToken);
    session = await createSession(db, { kind: 'ibo', iboId: ibo.id });
  }
  return { status: 'ok', ibo, visitorId, newVisitorId: !known, session };
}
