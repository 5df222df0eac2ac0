import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '~/lib/db';
import { contacts, emailTokens, sessions, users } from '~/lib/db/schema';
import { testDatabases, testHashCost } from '~/lib/db/testing';
import { registerSchema } from './account';
import { authenticate, registerAccount } from './account.server';
import {
  changePassword,
  createVerification,
  emailTokenUsable,
  emailVerified,
  endOtherSessions,
  endOwnSession,
  listSessions,
  openEmailLink,
  requestEmailChange,
  sessionPublicId,
} from './security.server';
import { createSession, hashToken } from './session.server';

const databases = await testDatabases();
const year = String(new Date().getFullYear() - 30);
let n = 0;

describe.each(databases)('account security on $name', ({ create }) => {
  let handle: DbHandle;
  const db = () => handle.db;
  beforeAll(async () => {
    handle = await create({ seed: true });
  });
  afterAll(async () => {
    await handle.close();
  });

  /** A new account, unconfirmed, with two sessions: `mine` (the one asking) and `other`. */
  async function person(password = 'Vieja2026') {
    const email = `seguridad.${n++}.${Date.now()}@example.com`;
    const form = registerSchema.parse({ name: 'Nora', lastName: 'Quintero', email, confirmEmail: email, gender: 'female', birthDay: '3', birthMonth: '11', birthYear: year, password, confirmPassword: password, lang: 'es' });
    const outcome = await registerAccount(db(), form, testHashCost);
    if (outcome.status !== 'ok') throw new Error('not registered');
    const userId = outcome.user.id;
    const mine = await createSession(db(), { kind: 'user', userId }, new Date(), { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/127.0', address: '203.0.113.57' });
    const other = await createSession(db(), { kind: 'user', userId }, new Date(), { userAgent: 'Mozilla/5.0 (Linux; Android 14) Chrome/126.0 Mobile', address: '198.51.100.9' });
    return { userId, email, password, mine: hashToken(mine.token), other: hashToken(other.token) };
  }
  const sessionsOf = async (userId: number) => (await db().select({ h: sessions.tokenHash }).from(sessions).where(eq(sessions.userId, userId))).map((s) => s.h).sort();

  describe('changing the password', () => {
    it('ends every other session of the person, keeps this one, and tells every process', async () => {
      const p = await person();
      const stranger = await person();
      const outcome = await changePassword(db(), p.userId, p.mine, p.password, 'Nueva2026', new Date(), testHashCost);
      expect(outcome).toEqual({ status: 'ok', changed: [{ session: { userId: p.userId } }] });
      expect(await sessionsOf(p.userId)).toEqual([p.mine]);
      expect(await sessionsOf(stranger.userId)).toHaveLength(2);
      expect((await authenticate(db(), p.email, 'Nueva2026', testHashCost)).status).toBe('ok');
      expect((await authenticate(db(), p.email, p.password, testHashCost)).status).toBe('invalid');
    });

    it('refuses a wrong current password and changes nothing', async () => {
      const p = await person();
      const [before] = await db().select().from(users).where(eq(users.id, p.userId));
      expect(await changePassword(db(), p.userId, p.mine, 'NoEsLaMia1', 'Nueva2026', new Date(), testHashCost)).toEqual({ status: 'wrongPassword' });
      const [after] = await db().select().from(users).where(eq(users.id, p.userId));
      expect(after).toEqual(before);
      expect(await sessionsOf(p.userId)).toHaveLength(2);
    });
  });

  describe('the list of sessions', () => {
    it('lists the person’s sessions with where they came from, marking this one, by ids that are not tokens', async () => {
      const p = await person();
      const list = await listSessions(db(), p.userId, p.mine);
      expect(list).toHaveLength(2);
      const mine = list.find((s) => s.current)!;
      expect(mine).toMatchObject({ id: sessionPublicId(p.mine), userAgent: expect.stringContaining('Firefox'), address: '203.0.113.57' });
      for (const s of list) {
        expect(s.id).toMatch(/^[0-9a-f]{24}$/);
        expect([p.mine, p.other]).not.toContain(s.id);
      }
    });

    it("refuses someone else's session id and ends nothing", async () => {
      const p = await person();
      const stranger = await person();
      expect(await endOwnSession(db(), p.userId, sessionPublicId(stranger.other), p.mine)).toEqual({ status: 'notFound' });
      expect(await endOwnSession(db(), p.userId, '0123456789abcdef01234567', p.mine)).toEqual({ status: 'notFound' });
      expect(await sessionsOf(stranger.userId)).toHaveLength(2);
      expect(await sessionsOf(p.userId)).toHaveLength(2);
    });

    it('ends one of the person’s own sessions', async () => {
      const p = await person();
      expect(await endOwnSession(db(), p.userId, sessionPublicId(p.other), p.mine)).toEqual({ status: 'ok', current: false, changed: [{ session: { tokenHash: p.other } }] });
      expect(await sessionsOf(p.userId)).toEqual([p.mine]);
      expect(await endOwnSession(db(), p.userId, sessionPublicId(p.mine), p.mine)).toMatchObject({ status: 'ok', current: true });
      expect(await sessionsOf(p.userId)).toEqual([]);
    });

    it('ends every other session at once', async () => {
      const p = await person();
      const outcome = await endOtherSessions(db(), p.userId, p.mine);
      expect(outcome).toEqual({ ended: 1, changed: [{ session: { tokenHash: p.other } }] });
      expect(await sessionsOf(p.userId)).toEqual([p.mine]);
    });
  });

  describe('confirming the address given at sign-up', () => {
    it('starts unconfirmed; the link confirms once and stores only its hash', async () => {
      const p = await person();
      expect(await emailVerified(db(), p.userId)).toBe(false);
      const link = (await createVerification(db(), p.userId))!;
      expect(link).toMatchObject({ to: p.email, name: 'Nora' });
      const stored = await db().select().from(emailTokens).where(eq(emailTokens.userId, p.userId));
      expect(stored.map((r) => r.tokenHash)).toEqual([hashToken(link.token)]);
      expect(JSON.stringify(stored)).not.toContain(link.token);
      expect(await emailTokenUsable(db(), link.token)).toBe(true);
      const opened = await openEmailLink(db(), link.token);
      expect(opened).toEqual({ status: 'verified', userId: p.userId, email: p.email, changed: [{ session: { userId: p.userId } }, { person: { userId: p.userId } }] });
      expect(await emailVerified(db(), p.userId)).toBe(true);
      // Reused: refused, nothing changed.
      expect(await openEmailLink(db(), link.token)).toEqual({ status: 'invalid' });
      expect(await emailTokenUsable(db(), link.token)).toBe(false);
      // Nothing more to confirm.
      expect(await createVerification(db(), p.userId)).toBeNull();
    });

    it('refuses an expired link and a forged one, confirming nothing', async () => {
      const p = await person();
      const link = (await createVerification(db(), p.userId, new Date(Date.now() - 73 * 3_600_000)))!;
      expect(await openEmailLink(db(), link.token)).toEqual({ status: 'invalid' });
      expect(await openEmailLink(db(), 'forged')).toEqual({ status: 'invalid' });
      expect(await openEmailLink(db(), 'x'.repeat(100_000))).toEqual({ status: 'invalid' });
      expect(await emailVerified(db(), p.userId)).toBe(false);
    });
  });

  describe('changing the address', () => {
    it('changes nothing until the link sent to the new address is opened; then moves the account and its contact, once', async () => {
      const p = await person();
      const to = `nueva.${n++}.${Date.now()}@example.com`;
      const asked = await requestEmailChange(db(), p.userId, p.password, to);
      if (asked.status !== 'ok') throw new Error(asked.status);
      expect(asked.link).toMatchObject({ to, current: p.email });
      expect((await db().select({ email: users.email }).from(users).where(eq(users.id, p.userId)))[0]!.email).toBe(p.email);
      expect(await openEmailLink(db(), asked.link.token)).toMatchObject({ status: 'changed', userId: p.userId, email: to });
      const [user] = await db().select().from(users).where(eq(users.id, p.userId));
      expect(user).toMatchObject({ email: to, emailVerifiedAt: expect.any(Date) });
      const [contact] = await db().select({ email: contacts.email }).from(contacts).where(eq(contacts.userId, p.userId));
      expect(contact!.email).toBe(to);
      expect((await authenticate(db(), to, p.password, testHashCost)).status).toBe('ok');
      expect(await openEmailLink(db(), asked.link.token)).toEqual({ status: 'invalid' });
    });

    it('refuses a wrong current password, the same address, and an address another account holds (as registration does)', async () => {
      const p = await person();
      const other = await person();
      expect(await requestEmailChange(db(), p.userId, 'NoEsLaMia1', `x.${Date.now()}@example.com`)).toEqual({ status: 'wrongPassword' });
      expect(await requestEmailChange(db(), p.userId, p.password, p.email.toUpperCase())).toEqual({ status: 'same' });
      expect(await requestEmailChange(db(), p.userId, p.password, other.email.toUpperCase())).toEqual({ status: 'taken' });
      expect(await requestEmailChange(db(), p.userId, p.password, 'learner@academia.example')).toEqual({ status: 'taken' });
      expect(await db().select().from(emailTokens).where(eq(emailTokens.purpose, 'change'))).not.toContainEqual(expect.objectContaining({ userId: p.userId }));
    });

    it('refuses a link whose address another account took meanwhile, and an expired one, changing nothing', async () => {
      const p = await person();
      const to = `disputada.${n++}.${Date.now()}@example.com`;
      const asked = await requestEmailChange(db(), p.userId, p.password, to);
      if (asked.status !== 'ok') throw new Error(asked.status);
      const rival = registerSchema.parse({ name: 'Rival', lastName: 'Rival', email: to, confirmEmail: to, gender: 'other', birthDay: '1', birthMonth: '1', birthYear: year, password: 'Rival2026', confirmPassword: 'Rival2026', lang: 'es' });
      expect((await registerAccount(db(), rival, testHashCost)).status).toBe('ok');
      expect(await openEmailLink(db(), asked.link.token)).toEqual({ status: 'taken' });
      expect((await db().select({ email: users.email }).from(users).where(eq(users.id, p.userId)))[0]!.email).toBe(p.email);

      const late = await requestEmailChange(db(), p.userId, p.password, `tarde.${Date.now()}@example.com`, new Date(Date.now() - 25 * 3_600_000));
      if (late.status !== 'ok') throw new Error(late.status);
      expect(await openEmailLink(db(), late.link.token)).toEqual({ status: 'invalid' });
      expect((await db().select({ email: users.email }).from(users).where(eq(users.id, p.userId)))[0]!.email).toBe(p.email);
    });

    it('spends a confirmation link sent to the old address once the address changed', async () => {
      const p = await person();
      const verify = (await createVerification(db(), p.userId))!;
      const asked = await requestEmailChange(db(), p.userId, p.password, `movida.${n++}.${Date.now()}@example.com`);
      if (asked.status !== 'ok') throw new Error(asked.status);
      await openEmailLink(db(), asked.link.token);
      expect(await openEmailLink(db(), verify.token)).toEqual({ status: 'invalid' });
    });
  });
});
