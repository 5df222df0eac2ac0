/**
 * The consent rule on the database: `visibleToIbo` keeps exactly the people the pure rule shows (prospects
 * without an account, the default by relation, the person's choice, people of another IBO); the
 * person's switch changes only their own row and is audited, and refuses someone with no IBO; sign-up
 * stores the box only when an IBO is involved.
 */
import { and, eq, or, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../db/testing';
import type { DbHandle } from '../db/client';
import * as s from '../db/schema';
import { auditOf, userRef } from '../privacy/audit.server';
import { recordReferral } from '../identity/ibo.server';
import { isVisibleToIbo, type SharingFacts } from './consent';
import { ct, iboSharingOf, setIboSharing, settleSignUpSharing, signUpOffer, u, visibleToIbo } from './consent.server';

const databases = await testDatabases();
const TAG = `consent${Date.now().toString(36)}`;

describe.each(databases)('consent to be shown to an IBO ($name)', (database) => {
  let handle: DbHandle;
  const db = () => handle.db;
  let X = 0;
  let Y = 0;

  /** A person: a contact (registered by `registeredBy`, or not) with an account (referred by `referredBy`, with `sharing`) unless `account` is false. */
  const person = async (name: string, p: { registeredBy: number | null; referredBy?: number | null; sharing?: boolean | null; account?: boolean }) => {
    const email = `${name}.${TAG}@example.com`;
    let userId: number | null = null;
    if (p.account !== false) {
      const [row] = await db()
        .insert(s.users)
        .values({ email, firstName: name, lastName: TAG, referredByIboId: p.referredBy ?? null, iboSharing: p.sharing ?? null })
        .returning({ id: s.users.id });
      userId = row!.id;
    }
    const [c] = await db().insert(s.contacts).values({ userId, firstName: name, lastName: TAG, email, iboId: p.registeredBy }).returning({ id: s.contacts.id });
    const facts: SharingFacts = { registeredByIboId: p.registeredBy, account: userId === null ? null : { referredByIboId: p.referredBy ?? null, iboSharing: p.sharing ?? null } };
    return { name, email, userId, contactId: c!.id, facts };
  };

  let people: Awaited<ReturnType<typeof person>>[] = [];

  beforeAll(async () => {
    handle = await database.create({ seed: true });
    const idOf = async (code: string) => (await db().select({ id: s.ibos.id }).from(s.ibos).where(eq(s.ibos.code, code)))[0]!.id;
    X = await idOf('HORIZONTE01');
    Y = await idOf('MUNDO2026');
    people = [
      await person('noaccount', { registeredBy: X, account: false }),
      await person('prospect', { registeredBy: X }),
      await person('linkonly', { registeredBy: null, referredBy: X }),
      await person('linkyes', { registeredBy: null, referredBy: X, sharing: true }),
      await person('registeredno', { registeredBy: X, sharing: false }),
      await person('both', { registeredBy: X, referredBy: Y }),
      await person('bothno', { registeredBy: X, referredBy: Y, sharing: false }),
      await person('unrelated', { registeredBy: null, sharing: true }),
      await person('other', { registeredBy: Y, sharing: true }),
    ];
  });
  afterAll(async () => {
    await handle?.close();
  });

  /** The names `visibleToIbo(iboId)` keeps among this file's people. */
  const visibleNames = async (iboId: number) => {
    const rows = await db()
      .select({ name: ct.firstName })
      .from(ct)
      .leftJoin(u, eq(u.id, ct.userId))
      .where(and(sql`${ct.lastName} = ${TAG}`, or(eq(ct.iboId, iboId), eq(u.referredByIboId, iboId)), visibleToIbo(iboId)));
    return rows.map((r) => r.name).sort();
  };

  it('keeps exactly whom the pure rule shows, for each IBO', async () => {
    for (const iboId of [X, Y]) {
      const expected = people.filter((p) => isVisibleToIbo(p.facts, iboId)).map((p) => p.name).sort();
      expect(await visibleNames(iboId)).toEqual(expected);
    }
    expect(await visibleNames(X)).toEqual(['both', 'linkyes', 'noaccount', 'prospect']);
    expect(await visibleNames(Y)).toEqual(['other']);
  });

  it('is a filter that is false, never null, for people not related to the IBO (so `not` works too)', async () => {
    const rows = await db()
      .select({ name: ct.firstName, visible: sql<boolean>`${visibleToIbo(X)}` })
      .from(ct)
      .leftJoin(u, eq(u.id, ct.userId))
      .where(sql`${ct.lastName} = ${TAG}`);
    expect(rows.every((r) => r.visible === true || r.visible === false)).toBe(true);
    expect(rows.filter((r) => r.visible).map((r) => r.name).sort()).toEqual(['both', 'linkyes', 'noaccount', 'prospect']);
  });

  it('shows on "My data" the IBOs a person is related to, and whether each sees them', async () => {
    const both = people.find((p) => p.name === 'both')!;
    const shown = await iboSharingOf(db(), both.userId!);
    expect(shown.choice).toBeNull();
    expect(shown.ibos.map((i) => [i.code, i.registered, i.referred, i.visible])).toEqual([
      ['MUNDO2026', false, true, false],
      ['HORIZONTE01', true, false, true],
    ]);
    const demo = (await db().select({ id: s.users.id }).from(s.users).where(eq(s.users.email, 'learner@academia.example')))[0]!.id;
    expect((await iboSharingOf(db(), demo)).ibos).toEqual([]);
  });

  it('the switch changes only the caller’s row, is audited, and the IBO sees the change at once', async () => {
    const linkonly = people.find((p) => p.name === 'linkonly')!;
    const before = await db().select({ id: s.users.id, sharing: s.users.iboSharing }).from(s.users).where(sql`${s.users.lastName} = ${TAG}`);
    const outcome = await setIboSharing(db(), linkonly.userId!, true);
    expect(outcome).toMatchObject({ status: 'ok', choice: true });
    expect(outcome.status === 'ok' && outcome.changed).toEqual([]);
    const after = await db().select({ id: s.users.id, sharing: s.users.iboSharing }).from(s.users).where(sql`${s.users.lastName} = ${TAG}`);
    expect(after.filter((r) => r.id !== linkonly.userId).sort((a, b) => a.id - b.id)).toEqual(before.filter((r) => r.id !== linkonly.userId).sort((a, b) => a.id - b.id));
    expect(after.find((r) => r.id === linkonly.userId)!.sharing).toBe(true);
    expect(await visibleNames(X)).toContain('linkonly');
    // Revocable at any time.
    expect(await setIboSharing(db(), linkonly.userId!, false)).toMatchObject({ status: 'ok', choice: false });
    expect(await visibleNames(X)).not.toContain('linkonly');
    const trail = await auditOf(db(), userRef(linkonly.userId!), 'account.iboSharing');
    expect(trail.map((e) => [e.actor, e.before, e.after])).toEqual([
      [userRef(linkonly.userId!), { iboSharing: null }, { iboSharing: true }],
      [userRef(linkonly.userId!), { iboSharing: true }, { iboSharing: false }],
    ]);
  });

  it('refuses a person related to no IBO and stores nothing, not even in the audit trail', async () => {
    const unrelated = people.find((p) => p.name === 'unrelated')!;
    expect(await setIboSharing(db(), unrelated.userId!, false)).toEqual({ status: 'noIbo' });
    const [row] = await db().select({ sharing: s.users.iboSharing }).from(s.users).where(eq(s.users.id, unrelated.userId!));
    expect(row!.sharing).toBe(true);
    expect(await auditOf(db(), userRef(unrelated.userId!))).toEqual([]);
    expect(await setIboSharing(db(), 2_147_483_647, true)).toEqual({ status: 'unknownUser' });
  });

  it('sign-up offers the box for the IBO of a confirmed prospect (ticked) or of the last link (unticked), else none', async () => {
    const ibo = { id: X, userId: 0, code: 'HORIZONTE01', companyName: 'Viajes Horizonte S.A.S.', imageUrl: null };
    const prospect = { id: 1, firstName: 'A', lastName: 'B', email: 'a@example.com' };
    expect(await signUpOffer(db(), { visitorId: undefined, session: { ibo, prospect } })).toEqual({ ibo: { id: X, code: 'HORIZONTE01', companyName: 'Viajes Horizonte S.A.S.' }, ticked: true });
    expect(await signUpOffer(db(), { visitorId: undefined, session: { ibo, prospect: null } })).toBeNull();
    expect(await signUpOffer(db(), { visitorId: `nobody-${TAG}`, session: null })).toBeNull();
    await recordReferral(db(), `visitor-${TAG}`, X);
    await recordReferral(db(), `visitor-${TAG}`, Y);
    expect(await signUpOffer(db(), { visitorId: `visitor-${TAG}`, session: null })).toEqual({ ibo: { id: Y, code: 'MUNDO2026', companyName: 'Mundo Travel Group' }, ticked: false });
  });

  it('sign-up stores the box only when an IBO is involved: a forged box with no IBO stores nothing', async () => {
    const fresh = async (name: string, referredBy: number | null, registeredBy: number | null) => person(name, { registeredBy, referredBy });
    const forged = await fresh('forged', null, null);
    expect(await settleSignUpSharing(db(), forged.userId!, { offered: true, ticked: true })).toBeNull();
    const referred = await fresh('signedup', X, null);
    expect(await settleSignUpSharing(db(), referred.userId!, { offered: true, ticked: true })).toBe(true);
    const declined = await fresh('declined', null, X);
    expect(await settleSignUpSharing(db(), declined.userId!, { offered: true, ticked: false })).toBe(false);
    const unseen = await fresh('unseen', null, X);
    expect(await settleSignUpSharing(db(), unseen.userId!, { offered: false, ticked: false })).toBeNull();
    const stored = await db()
      .select({ name: s.users.firstName, sharing: s.users.iboSharing })
      .from(s.users)
      .where(and(sql`${s.users.lastName} = ${TAG}`, sql`${s.users.firstName} in ('forged', 'signedup', 'declined', 'unseen')`));
    expect(Object.fromEntries(stored.map((r) => [r.name, r.sharing]))).toEqual({ forged: null, signedup: true, declined: false, unseen: null });
  });
});
