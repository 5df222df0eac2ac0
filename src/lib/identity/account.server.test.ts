import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '~/lib/db';
import { contacts, ibos, passwordResets, sessions, users, USER_TYPE } from '~/lib/db/schema';
import { testDatabases, testHashCost } from '~/lib/db/testing';
import { registerFormSchema, type RegisterForm } from './account';
import { authenticate, createPasswordReset, loadProfile, registerAccount, resetPassword, resetTokenUsable } from './account.server';
import { DEFAULT_COST } from './password';
import { createSession, readSession } from './session.server';

const databases = await testDatabases();

let n = 0;
/** A valid registration with a fresh address. */
function form(patch: Partial<Record<string, string>> = {}): RegisterForm {
  n += 1;
  const email = patch.email ?? `new.${n}.${Date.now()}@example.com`;
  const parsed = registerFormSchema().parse({
    name: 'Nora',
    lastName: 'Quintero',
    email,
    confirmEmail: email,
    gender: 'female',
    birthDay: '3',
    birthMonth: '11',
    birthYear: String(new Date().getFullYear() - 30),
    password: 'Clave2026',
    confirmPassword: 'Clave2026',
    ...patch,
  });
  return parsed;
}

describe.each(databases)('accounts on $name', ({ create }) => {
  let handle: DbHandle;
  const db = () => handle.db;

  beforeAll(async () => {
    handle = await create({ seed: true });
  });
  afterAll(async () => {
    await handle?.close();
  });

  describe('authenticate', () => {
    it('accepts a demo learner, whatever the case of the address', async () => {
      const r = await authenticate(db(), ' Learner@Academia.example ', 'Aprende2026', testHashCost);
      expect(r.status).toBe('ok');
      if (r.status === 'ok') expect(r.user.firstName).toBe('Laura');
    });

    it('answers the same for a wrong password, an unknown address and a refused user type (type 2)', async () => {
      expect(await authenticate(db(), 'learner@academia.example', 'aprende2026', testHashCost)).toEqual({ status: 'invalid' });
      expect(await authenticate(db(), 'nobody@academia.example', 'Aprende2026', testHashCost)).toEqual({ status: 'invalid' });
      // The right password of a type-2 user is refused like a wrong one.
      expect(await authenticate(db(), 'refused@academia.example', 'Rechazo2026', testHashCost)).toEqual({ status: 'invalid' });
    });

    it('takes about as long for an unknown address as for a wrong password (no account enumeration)', async () => {
      // At the production cost, so the hash dominates: an account hashed at 2^15, the decoy made at 2^15.
      const email = 'timing@academia.example';
      expect((await registerAccount(db(), form({ email }), DEFAULT_COST)).status).toBe('ok');
      const time = async (address: string) => {
        const t = performance.now();
        await authenticate(db(), address, 'wrong-password', DEFAULT_COST);
        return performance.now() - t;
      };
      await time('nobody@academia.example');
      const known: number[] = [];
      const unknown: number[] = [];
      for (let i = 0; i < 5; i++) {
        known.push(await time(email));
        unknown.push(await time(`nobody${i}@academia.example`));
      }
      // Both run one scrypt (about a tenth of a second); a skipped check would be about 100× faster. The
      // fastest of each: a busy machine only ever adds time.
      expect(Math.min(...unknown)).toBeGreaterThan(Math.min(...known) * 0.4);
    });

    it('refuses a prospect without a password', async () => {
      await db().insert(users).values({ email: 'prospect.only@example.com', firstName: 'P', lastName: 'Q', userType: USER_TYPE.prospect });
      expect(await authenticate(db(), 'prospect.only@example.com', '', testHashCost)).toEqual({ status: 'invalid' });
    });
  });

  describe('registerAccount', () => {
    it('creates a learner with a hashed password and its own contact, and the new account logs in', async () => {
      const f = form();
      const r = await registerAccount(db(), f, testHashCost);
      expect(r.status).toBe('ok');
      if (r.status !== 'ok') return;
      expect(r.user).toMatchObject({ firstName: 'Nora', lastName: 'Quintero', gender: 'female', userType: USER_TYPE.learner });
      expect(r.user.passwordHash).toMatch(/^scrypt\$/);
      expect(r.user.birthDate).toBe(`${new Date().getFullYear() - 30}-11-03`);
      const own = await db().select().from(contacts).where(eq(contacts.userId, r.user.id));
      expect(own).toHaveLength(1);
      expect((await authenticate(db(), f.email, 'Clave2026', testHashCost)).status).toBe('ok');
      expect(await loadProfile(db(), r.user.id)).toMatchObject({ firstName: 'Nora', email: f.email, gender: 'female', birthDate: r.user.birthDate });
      expect(await loadProfile(db(), 999_999)).toBeNull();
      // The session of the new account names its contact (the person whose progress is tracked).
      const { token } = await createSession(db(), { kind: 'user', userId: r.user.id });
      expect((await readSession(db(), token))?.identity).toEqual({ kind: 'learner', userId: r.user.id, contactId: own[0]!.id });
    });

    it('refuses an address already in use, whatever its case', async () => {
      expect(await registerAccount(db(), form({ email: 'LEARNER@academia.example' }), testHashCost)).toEqual({ status: 'emailTaken' });
      expect(await registerAccount(db(), form({ email: 'refused@academia.example' }), testHashCost)).toEqual({ status: 'emailTaken' });
    });

    it('lets exactly one of two simultaneous sign-ups with one address through', async () => {
      const email = `race.${Date.now()}@example.com`;
      const results = await Promise.all([registerAccount(db(), form({ email }), testHashCost), registerAccount(db(), form({ email: email.toUpperCase() }))]);
      expect(results.map((r) => r.status).sort()).toEqual(['emailTaken', 'ok']);
      const [row] = await db().select({ n: count() }).from(users).where(eq(sql`lower(${users.email})`, email));
      expect(row!.n).toBe(1);
    });

    it('turns a password-less prospect of an IBO into the account, keeping its contact', async () => {
      const email = `prospect.${Date.now()}@example.com`;
      const [ibo] = await db().select().from(ibos).where(eq(ibos.code, 'HORIZONTE01'));
      const [prospect] = await db()
        .insert(users)
        .values({ email, firstName: 'Pro', lastName: 'Specto', userType: USER_TYPE.prospect, mainUserId: ibo!.userId })
        .returning();
      const [contact] = await db().insert(contacts).values({ email, firstName: 'Pro', lastName: 'Specto', iboId: ibo!.id }).returning();
      const r = await registerAccount(db(), form({ email }), testHashCost);
      expect(r.status).toBe('ok');
      if (r.status !== 'ok') return;
      expect(r.user.id).toBe(prospect!.id);
      expect(r.user.userType).toBe(USER_TYPE.learner);
      const [linked] = await db().select().from(contacts).where(eq(contacts.id, contact!.id));
      expect(linked!.userId).toBe(prospect!.id);
      // Once claimed, the address is taken.
      expect(await registerAccount(db(), form({ email }), testHashCost)).toEqual({ status: 'emailTaken' });
    });
  });

  describe('password reset', () => {
    async function account() {
      const f = form();
      const r = await registerAccount(db(), f, testHashCost);
      if (r.status !== 'ok') throw new Error('not registered');
      return { email: f.email, user: r.user };
    }

    it('gives no link for an unknown address, a refused user or a password-less prospect', async () => {
      expect(await createPasswordReset(db(), 'nobody@example.com')).toBeNull();
      expect(await createPasswordReset(db(), 'refused@academia.example')).toBeNull();
      expect(await createPasswordReset(db(), 'prospect.only@example.com')).toBeNull();
    });

    it('stores only the hash of a link’s token; the link sets a new password once and ends every session', async () => {
      const { email, user } = await account();
      const { token: sessionToken } = await createSession(db(), { kind: 'user', userId: user.id });
      const reset = await createPasswordReset(db(), email.toUpperCase());
      expect(reset).not.toBeNull();
      const token = reset!.token;
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const stored = await db().select().from(passwordResets).where(eq(passwordResets.userId, user.id));
      expect(stored.map((s) => s.tokenHash)).not.toContain(token);
      expect(await resetTokenUsable(db(), token)).toBe(true);

      expect(await resetPassword(db(), token, 'Otra2026!', new Date(), testHashCost)).toEqual({ status: 'ok', userId: user.id, changed: [{ session: { userId: user.id } }] });
      expect((await authenticate(db(), email, 'Clave2026', testHashCost)).status).toBe('invalid');
      expect((await authenticate(db(), email, 'Otra2026!', testHashCost)).status).toBe('ok');
      expect(await readSession(db(), sessionToken)).toBeNull();
      // Single use.
      expect(await resetTokenUsable(db(), token)).toBe(false);
      expect(await resetPassword(db(), token, 'Tercera2026', new Date(), testHashCost)).toEqual({ status: 'invalid' });
      expect((await authenticate(db(), email, 'Otra2026!', testHashCost)).status).toBe('ok');
    });

    it('spends every other open link of the account too', async () => {
      const { email } = await account();
      const first = await createPasswordReset(db(), email);
      const second = await createPasswordReset(db(), email);
      expect((await resetPassword(db(), second!.token, 'Nueva2026', new Date(), testHashCost)).status).toBe('ok');
      expect(await resetTokenUsable(db(), first!.token)).toBe(false);
      expect((await resetPassword(db(), first!.token, 'Vieja2026', new Date(), testHashCost)).status).toBe('invalid');
    });

    it('refuses an expired link, an unknown one and a forged one', async () => {
      const { email } = await account();
      const t0 = new Date('2026-01-01T10:00:00Z');
      const reset = await createPasswordReset(db(), email, t0);
      const later = new Date(t0.getTime() + 61 * 60_000);
      expect(await resetTokenUsable(db(), reset!.token, later)).toBe(false);
      expect(await resetPassword(db(), reset!.token, 'Nueva2026', later)).toEqual({ status: 'invalid' });
      for (const bad of ['', 'unknown', 'x'.repeat(500), "' or 1=1 --"]) {
        expect(await resetTokenUsable(db(), bad)).toBe(false);
        expect(await resetPassword(db(), bad, 'Nueva2026', new Date(), testHashCost)).toEqual({ status: 'invalid' });
      }
    });

    it('lets one of two simultaneous uses of a link win', async () => {
      const { email, user } = await account();
      const reset = await createPasswordReset(db(), email);
      const results = await Promise.all([resetPassword(db(), reset!.token, 'Primera2026', new Date(), testHashCost), resetPassword(db(), reset!.token, 'Segunda2026', new Date(), testHashCost)]);
      expect(results.map((r) => r.status).sort()).toEqual(['invalid', 'ok']);
      const ok = (await authenticate(db(), email, 'Primera2026', testHashCost)).status === 'ok' || (await authenticate(db(), email, 'Segunda2026', testHashCost)).status === 'ok';
      expect(ok).toBe(true);
      const [open] = await db()
        .select({ n: count() })
        .from(sessions)
        .where(and(eq(sessions.userId, user.id)));
      expect(open!.n).toBe(0);
    });
  });
});
