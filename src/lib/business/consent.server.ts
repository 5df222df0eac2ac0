/**
 * The learner's consent to be shown to an IBO, on the database: the rule of `consent.ts` as a SQL
 * condition (`visibleToIbo`), what "My data" shows of it, the person's switch, and the choice made at
 * sign-up.
 *
 * The rule (the same as `isVisibleToIbo`): a person is visible to IBO X when they are related to X
 * (`ct.ibo_id = X`: X registered them as a prospect; `u.referred_by_ibo_id = X`: they signed up through
 * X's link) and `coalesce(u.ibo_sharing, ct.ibo_id = X)`: their own choice, else on only for the IBO that
 * registered them. A prospect with no account (no `u` row) is visible to the IBO that registered them.
 */
import { and, eq, inArray, isNotNull, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../db/client';
import { contacts, ibos, referrals, users } from '../db/schema';
import { recordAudit, userRef } from '../privacy/audit.server';
import type { Change } from '../runtime/changes';
import type { SessionInfo } from '../identity/session.server';
import { isVisibleToIbo, sharingAtSignUp, signUpBoxTicked, type SharingFacts } from './consent';

/** `users` as `u`: the account of a person (null in a left join for a prospect without one). */
export const u = alias(users, 'u');
/** `contacts` as `ct`: the person's contact (the record an IBO registers, and whose progress is tracked). */
export const ct = alias(contacts, 'ct');

/**
 * The condition "this person is visible to IBO `iboId`", over the aliases `u` (users) and `ct` (contacts)
 * exported here, for the IBO's "my people" list. Use it in a query that reads both, `u` left-joined
 * (a prospect may have no account):
 *
 * ```ts
 * db.select({ name: ct.firstName, email: ct.email, sharing: u.iboSharing })
 *   .from(ct)
 *   .leftJoin(u, eq(u.id, ct.userId))
 *   .where(and(or(eq(ct.iboId, iboId), eq(u.referredByIboId, iboId)), visibleToIbo(iboId)));
 * ```
 *
 * It is a filter, not an access path: the `or(...)` above (or a union of an IBO's prospects and its
 * referred sign-ups, each through its own index) finds the IBO's people; this condition keeps the ones
 * they may see. Never null: false for anyone not related to `iboId`.
 */
export function visibleToIbo(iboId: number | SQLWrapper): SQL {
  return sql`(coalesce(${ct.iboId} = ${iboId} or ${u.referredByIboId} = ${iboId}, false) and coalesce(${u.iboSharing}, ${ct.iboId} = ${iboId}, false))`;
}

/** An IBO a person is related to, as "My data" shows it. */
export interface RelatedIbo {
  id: number;
  code: string;
  companyName: string;
  /** It registered the person as a prospect. */
  registered: boolean;
  /** The person signed up through its link. */
  referred: boolean;
  /** It sees the person now (the rule, with their choice or the default). */
  visible: boolean;
}

/** A person's consent as "My data" shows it: their choice (null: never chosen) and the IBOs it applies to. */
export interface IboSharing {
  choice: boolean | null;
  ibos: RelatedIbo[];
}

/** What the rule reads of the account `userId` (its own contact's IBO, its referral, its choice), or null when there is no such account. */
async function factsOf(db: Db | Tx, userId: number, lock = false): Promise<SharingFacts | null> {
  const query = db
    .select({ referredByIboId: users.referredByIboId, iboSharing: users.iboSharing, registeredByIboId: contacts.iboId })
    .from(users)
    .leftJoin(contacts, eq(contacts.userId, users.id))
    .where(eq(users.id, userId))
    .limit(1);
  const [row] = lock ? await query.for('update', { of: users }) : await query;
  if (!row) return null;
  return { registeredByIboId: row.registeredByIboId, account: { referredByIboId: row.referredByIboId, iboSharing: row.iboSharing } };
}

/** The IBOs a person is related to (none: "My data" shows no consent section), and their choice. */
export async function iboSharingOf(db: Db, userId: number): Promise<IboSharing> {
  const facts = await factsOf(db, userId);
  if (!facts) return { choice: null, ibos: [] };
  const ids = [...new Set([facts.registeredByIboId, facts.account?.referredByIboId ?? null].filter((id): id is number => id !== null))];
  if (ids.length === 0) return { choice: facts.account?.iboSharing ?? null, ibos: [] };
  const rows = await db.select({ id: ibos.id, code: ibos.code, companyName: ibos.companyName }).from(ibos).where(inArray(ibos.id, ids)).orderBy(ibos.companyName);
  return {
    choice: facts.account?.iboSharing ?? null,
    ibos: rows.map((i) => ({ ...i, registered: facts.registeredByIboId === i.id, referred: facts.account?.referredByIboId === i.id, visible: isVisibleToIbo(facts, i.id) })),
  };
}

/** The outcome of the person's switch. `noIbo`: they are related to no IBO, nothing was stored. */
export type SharingUpdate = { status: 'ok'; choice: boolean; changed: Change[] } | { status: 'noIbo' } | { status: 'unknownUser' };

/**
 * Stores the choice of the account `userId` (only its own row: the caller names it from the session),
 * with its record in the audit trail (`account.iboSharing`, before and after), in one transaction.
 * A person related to no IBO gets `noIbo` and nothing is stored. `changed` is empty: no kept page shows
 * the choice.
 */
export async function setIboSharing(db: Db, userId: number, share: boolean, now = new Date()): Promise<SharingUpdate> {
  return db.transaction(async (tx) => {
    const facts = await factsOf(tx, userId, true);
    if (!facts?.account) return { status: 'unknownUser' } as const;
    if (facts.registeredByIboId === null && facts.account.referredByIboId === null) return { status: 'noIbo' } as const;
    await tx.update(users).set({ iboSharing: share }).where(eq(users.id, userId));
    await recordAudit(tx, { action: 'account.iboSharing', actor: userRef(userId), subject: userRef(userId), before: { iboSharing: facts.account.iboSharing }, after: { iboSharing: share }, at: now });
    // No kept page shows the choice ("My data" and the IBO's pages are rendered for each request): nothing to tell.
    return { status: 'ok', choice: share, changed: [] } as const;
  });
}

/** The sign-up form's consent box: the IBO it names, and whether it starts ticked. */
export interface SignUpOffer {
  ibo: { id: number; code: string; companyName: string };
  ticked: boolean;
}

/**
 * Whether the sign-up form offers the consent box, and for which IBO: an IBO session whose prospect was
 * confirmed (the IBO registered this person: ticked), else the IBO whose link this browser came through
 * last (the `ref` cookie's record: unticked). No IBO involved: null, and no box.
 */
export async function signUpOffer(db: Db, visit: { visitorId: string | undefined; session: Pick<SessionInfo, 'ibo' | 'prospect'> | null }): Promise<SignUpOffer | null> {
  const session = visit.session;
  if (session?.ibo && session.prospect) {
    const { id, code, companyName } = session.ibo;
    return { ibo: { id, code, companyName }, ticked: signUpBoxTicked({ registeredByIbo: true }) };
  }
  if (!visit.visitorId) return null;
  const [row] = await db
    .select({ id: ibos.id, code: ibos.code, companyName: ibos.companyName })
    .from(referrals)
    .innerJoin(ibos, eq(ibos.id, referrals.lastIboId))
    .where(eq(referrals.visitorId, visit.visitorId))
    .limit(1);
  if (!row) return null;
  return { ibo: row, ticked: signUpBoxTicked({ registeredByIbo: false }) };
}

/**
 * Stores the choice made at sign-up on the new account `userId`, after its referral was attributed and
 * its prospect claimed: the box's state when the form showed it and an IBO is involved (the account
 * was referred, or its contact was registered by an IBO); otherwise nothing (null stays), whatever the
 * form said. Answers what was stored.
 */
export async function settleSignUpSharing(db: Db, userId: number, form: { offered: boolean; ticked: boolean }): Promise<boolean | null> {
  const facts = await factsOf(db, userId);
  const involved = facts !== null && (facts.registeredByIboId !== null || (facts.account?.referredByIboId ?? null) !== null);
  const choice = sharingAtSignUp(form, involved);
  if (choice === null) return null;
  await db
    .update(users)
    .set({ iboSharing: choice })
    .where(and(eq(users.id, userId), or(isNotNull(users.referredByIboId), sql`exists (select 1 from ${contacts} where ${contacts.userId} = ${users.id} and ${contacts.iboId} is not null)`)));
  return choice;
}
