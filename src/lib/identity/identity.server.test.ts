import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { testDatabases, testHashCost } from '../db/testing';
import type { DbHandle } from '../db/client';
import * as s from '../db/schema';
import { LIMITS } from '../http/rate-limit';
import { createRateLimiter } from '../http/rate-limit.server';
import { registerAccount } from './account.server';
import { registerSchema } from './account';
import { attributeReferral, checkIboCode, confirmProspect, customerExists, enterThroughLink, findActiveIbo, recordReferral } from './ibo.server';
import { createSession, destroySession, hashToken, readSession, setSessionProspect, SESSION_TTL_MS } from './session.server';

const databases = await testDatabases();

describe.each(databases)('identity on $name', ({ create }) => {
  let handle: DbHandle;
  beforeAll(async () => {
    handle = await create({ seed: true });
  });
  afterAll(async () => {
    await handle?.close();
  });
  const userId = async (email: string) => (await handle.db.select().from(s.users).where(eq(s.users.email, email)))[0]!.id;

  describe('sessions', () => {
    it('stores only the hash of the token and reads a learner back with their own contact', async () => {
      const uid = await userId('learner@academia.example');
      const { token } = await createSession(handle.db, { kind: 'user', userId: uid });
      const rows = await handle.db.select().from(s.sessions).where(eq(s.sessions.tokenHash, hashToken(token)));
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain(token);
      const info = await readSession(handle.db, token);
      expect(info?.identity.kind).toBe('learner');
      expect(info?.identity.userId).toBe(uid);
      expect(info?.identity.contactId).not.toBeNull();
      expect(info?.user?.email).toBe('learner@academia.example');
    });

    it('refuses forged, expired, logged-out and deleted-user sessions', async () => {
      expect(await readSession(handle.db, 'forged-token')).toBeNull();
      expect(await readSession(handle.db, undefined)).toBeNull();
      expect(await readSession(handle.db, 'x'.repeat(5000))).toBeNull();
      const uid = await userId('buyer@academia.example');
      const past = new Date(Date.now() - SESSION_TTL_MS - 1000);
      const expired = await createSession(handle.db, { kind: 'user', userId: uid }, past);
      expect(await readSession(handle.db, expired.token)).toBeNull();
      const live = await createSession(handle.db, { kind: 'user', userId: uid });
      await destroySession(handle.db, live.token);
      expect(await readSession(handle.db, live.token)).toBeNull();
      const [temp] = await handle.db.insert(s.users).values({ email: 'temp@academia.example', firstName: 'T', lastName: 'T' }).returning();
      const doomed = await createSession(handle.db, { kind: 'user', userId: temp!.id });
      await handle.db.delete(s.users).where(eq(s.users.id, temp!.id));
      expect(await readSession(handle.db, doomed.token)).toBeNull();
    });

    it('refuses a session of a refused user type and of a suspended IBO', async () => {
      const refused = await createSession(handle.db, { kind: 'user', userId: await userId('refused@academia.example') });
      expect(await readSession(handle.db, refused.token)).toBeNull();
      const [rutas] = await handle.db.select().from(s.ibos).where(eq(s.ibos.code, 'RUTAS99'));
      const suspended = await createSession(handle.db, { kind: 'ibo', iboId: rutas!.id });
      expect(await readSession(handle.db, suspended.token)).toBeNull();
    });
  });

  describe('IBO codes and referrals', () => {
    it('finds active IBOs by code in any case, never suspended, unknown or malformed ones', async () => {
      expect((await findActiveIbo(handle.db, ' horizonte01 '))?.companyName).toBe('Viajes Horizonte S.A.S.');
      for (const bad of ['RUTAS99', 'NOPE123', '../x', "'; drop table ibos; --", '', null]) expect(await findActiveIbo(handle.db, bad), String(bad)).toBeNull();
    });

    it('keeps the first and the last IBO of a browser and attributes the sign-up to the last', async () => {
      const h = (await findActiveIbo(handle.db, 'HORIZONTE01'))!;
      const m = (await findActiveIbo(handle.db, 'MUNDO2026'))!;
      await recordReferral(handle.db, 'visitor-1', h.id);
      await recordReferral(handle.db, 'visitor-1', m.id);
      const [ref] = await handle.db.select().from(s.referrals).where(eq(s.referrals.visitorId, 'visitor-1'));
      expect(ref).toMatchObject({ firstIboId: h.id, lastIboId: m.id });
      const [u] = await handle.db.insert(s.users).values({ email: 'referred@academia.example', firstName: 'R', lastName: 'R' }).returning();
      await attributeReferral(handle.db, 'visitor-1', u!.id);
      const [after] = await handle.db.select().from(s.users).where(eq(s.users.id, u!.id));
      expect(after!.referredByIboId).toBe(m.id);
    });
  });

  describe('IBO code guesses', () => {
    const address = () => `test-address-${Math.random()}`;
    const limiter = createRateLimiter({ spec: (name) => LIMITS[name] });
    afterAll(() => limiter.close());
    const link = (rawCode: string, from: string) => enterThroughLink(handle.db, limiter, { rawCode, address: from, visitorId: undefined, currentToken: undefined, learnerLoggedIn: false });

    it('count invalid codes per address, typed and in links together, then refuse every code until the window passes', async () => {
      const from = address();
      const limit = LIMITS.codePerAddress.points;
      for (let i = 0; i < limit; i++) {
        const outcome = i % 2 === 0 ? await checkIboCode(handle.db, limiter, `NOPE${i}X`, from) : await link(`NOPE${i}X`, from);
        expect(outcome.status, `guess ${i + 1}`).toBe('invalid');
      }
      const typed = await checkIboCode(handle.db, limiter, 'HORIZONTE01', from);
      expect(typed.status).toBe('limited');
      if (typed.status === 'limited') expect(typed.retryAfterSeconds).toBeGreaterThan(60);
      expect((await link('MUNDO2026', from)).status).toBe('limited');
      expect((await link('NOPE9X', from)).status).toBe('limited');
      // Another address is counted apart, and what is not a code at all is not counted.
      expect((await checkIboCode(handle.db, limiter, 'HORIZONTE01', address())).status).toBe('ok');
      expect((await link('no-es-codigo', address())).status).toBe('not-a-code');
    });

    it('never count valid codes', async () => {
      const from = address();
      for (let i = 0; i < LIMITS.codePerAddress.points * 2; i++) expect((await checkIboCode(handle.db, limiter, i % 2 ? 'horizonte01' : 'MUNDO2026', from)).status).toBe('ok');
      expect((await link('MUNDO2026', from)).status).toBe('ok');
    });
  });

  describe('prospects', () => {
    const iboSession = async () => {
      const ibo = (await findActiveIbo(handle.db, 'MUNDO2026'))!;
      const { token } = await createSession(handle.db, { kind: 'ibo', iboId: ibo.id });
      return { token, tokenHash: hashToken(token), ibo };
    };

    it('creates a prospect as a type-9 user of the IBO, with a contact, and remembers it in the session', async () => {
      const session = await iboSession();
      const r = await confirmProspect(handle.db, session, { firstName: 'Nora', lastName: 'Prieto', email: 'Nora.Prieto@Example.com' });
      expect(r.status).toBe('confirmed');
      const [user] = await handle.db.select().from(s.users).where(sql`lower(${s.users.email}) = 'nora.prieto@example.com'`);
      expect(user).toMatchObject({ userType: s.USER_TYPE.prospect, mainUserId: session.ibo.userId, createdBy: session.ibo.userId });
      const info = await readSession(handle.db, session.token);
      expect(info?.identity).toMatchObject({ kind: 'ibo', contactId: r.status === 'confirmed' ? r.contact.id : -1 });
      expect(await customerExists(handle.db, 'NORA.PRIETO@example.com')).toBe(true);
    });

    const horizonteSession = async () => {
      const ibo = (await findActiveIbo(handle.db, 'HORIZONTE01'))!;
      const { token } = await createSession(handle.db, { kind: 'ibo', iboId: ibo.id });
      return { token, tokenHash: hashToken(token), ibo };
    };
    const contactOf = async (email: string) => (await handle.db.select().from(s.contacts).where(sql`lower(${s.contacts.email}) = ${email.toLowerCase()}`))[0];

    it('reuses the IBO’s own prospect found by e-mail alone, and refuses an unknown one without names', async () => {
      const session = await iboSession();
      const first = await confirmProspect(handle.db, session, { firstName: 'Olga', lastName: 'Propia', email: 'olga.propia@example.com' });
      const again = await iboSession();
      const reused = await confirmProspect(handle.db, again, { email: 'OLGA.PROPIA@example.com' });
      expect(reused).toMatchObject({ status: 'confirmed', created: false, contact: { email: 'olga.propia@example.com', firstName: 'Olga' } });
      expect(reused.status === 'confirmed' && first.status === 'confirmed' && reused.contact.id === first.contact.id).toBe(true);
      expect((await readSession(handle.db, again.token))?.identity.contactId).toBe(first.status === 'confirmed' ? first.contact.id : -1);
      expect(await confirmProspect(handle.db, session, { email: 'nobody@example.com' })).toEqual({ status: 'unknown-customer' });
    });

    it('never binds an IBO session to a registered customer, and tells nothing about them', async () => {
      const learnerBefore = await contactOf('learner@academia.example');
      for (const input of [
        { email: 'learner@academia.example' },
        { email: ' Learner@Academia.Example ' },
        { firstName: 'Falso', lastName: 'Nombre', email: 'learner@academia.example' },
        { email: 'admin@academia.example' },
        { email: 'ibo.mundo@academia.example' },
      ]) {
        const session = await iboSession();
        const outcome = await confirmProspect(handle.db, session, input);
        expect(outcome, input.email).toEqual({ status: 'not-own-prospect' });
        const info = await readSession(handle.db, session.token);
        expect(info?.identity.contactId, input.email).toBeNull();
        expect(info?.prospect, input.email).toBeNull();
      }
      // The learner's own contact is left as it was: not moved to the IBO, names unchanged.
      expect(await contactOf('learner@academia.example')).toEqual(learnerBefore);
    });

    it('refuses a registered customer without a contact, creating nothing for them', async () => {
      await handle.db.insert(s.users).values({ email: 'sin.contacto@example.com', firstName: 'Sin', lastName: 'Contacto', passwordHash: 'x' });
      const session = await iboSession();
      expect(await confirmProspect(handle.db, session, { firstName: 'Sin', lastName: 'Contacto', email: 'sin.contacto@example.com' })).toEqual({ status: 'not-own-prospect' });
      expect(await contactOf('sin.contacto@example.com')).toBeUndefined();
    });

    it('refuses another IBO’s prospect, with or without names', async () => {
      const mundo = await iboSession();
      expect((await confirmProspect(handle.db, mundo, { firstName: 'Ajeno', lastName: 'Prospecto', email: 'ajeno@example.com' })).status).toBe('confirmed');
      for (const input of [{ email: 'ajeno@example.com' }, { firstName: 'Otro', lastName: 'Nombre', email: 'AJENO@example.com' }]) {
        const horizonte = await horizonteSession();
        expect(await confirmProspect(handle.db, horizonte, input)).toEqual({ status: 'not-own-prospect' });
        expect((await readSession(handle.db, horizonte.token))?.identity.contactId).toBeNull();
      }
      expect(await contactOf('ajeno@example.com')).toMatchObject({ firstName: 'Ajeno', iboId: mundo.ibo.id });
    });

    it('refuses a prospect who has since signed up: they are a registered customer now', async () => {
      const mundo = await iboSession();
      await confirmProspect(handle.db, mundo, { firstName: 'Luego', lastName: 'Registrado', email: 'luego.registrado@example.com' });
      const form = registerSchema.parse({
        name: 'Luego',
        lastName: 'Registrado',
        email: 'luego.registrado@example.com',
        confirmEmail: 'luego.registrado@example.com',
        gender: 'other',
        birthDay: '1',
        birthMonth: '1',
        birthYear: '1990',
        password: 'Clave2026',
        confirmPassword: 'Clave2026',
      });
      expect((await registerAccount(handle.db, form, testHashCost)).status).toBe('ok');
      // The session bound before the sign-up no longer reads the contact either.
      expect((await readSession(handle.db, mundo.token))?.identity.contactId).toBeNull();
      const again = await iboSession();
      expect(await confirmProspect(handle.db, again, { email: 'luego.registrado@example.com' })).toEqual({ status: 'not-own-prospect' });
    });

    it('ignores a session bound to a contact that is not the IBO’s own prospect (an already poisoned session)', async () => {
      const learner = (await contactOf('learner@academia.example'))!;
      const poisoned = await iboSession();
      await setSessionProspect(handle.db, poisoned.tokenHash, learner.id);
      const info = await readSession(handle.db, poisoned.token);
      expect(info?.identity).toEqual({ kind: 'ibo', userId: null, contactId: null });
      expect(info?.prospect).toBeNull();
      expect(info?.ibo?.code).toBe('MUNDO2026');
      const mundo = await iboSession();
      await confirmProspect(handle.db, mundo, { firstName: 'De', lastName: 'Mundo', email: 'de.mundo@example.com' });
      const other = await horizonteSession();
      await setSessionProspect(handle.db, other.tokenHash, (await contactOf('de.mundo@example.com'))!.id);
      expect((await readSession(handle.db, other.token))?.identity.contactId).toBeNull();
      expect((await readSession(handle.db, mundo.token))?.identity.contactId).toBe((await contactOf('de.mundo@example.com'))!.id);
    });

    it('confirming the same new prospect twice at once makes one contact', async () => {
      const [a, b] = await Promise.all([iboSession(), iboSession()]);
      const input = { firstName: 'Doble', lastName: 'Clic', email: 'doble.clic@example.com' };
      const results = await Promise.all([confirmProspect(handle.db, a, input), confirmProspect(handle.db, b, input)]);
      expect(results.every((r) => r.status === 'confirmed')).toBe(true);
      const rows = await handle.db.select().from(s.contacts).where(sql`lower(${s.contacts.email}) = 'doble.clic@example.com'`);
      expect(rows).toHaveLength(1);
      const people = await handle.db.select().from(s.users).where(sql`lower(${s.users.email}) = 'doble.clic@example.com'`);
      expect(people).toHaveLength(1);
    });
  });
});
