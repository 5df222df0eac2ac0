import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { testDatabases } from '../db/testing';
import type { DbHandle } from '../db/client';
import * as s from '../db/schema';
import { attributeReferral, confirmProspect, customerExists, findActiveIbo, recordReferral } from './ibo.server';
import { createSession, destroySession, hashToken, readSession, SESSION_TTL_MS } from './session.server';

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

    it('reuses an existing customer found by e-mail alone, and refuses an unknown one without names', async () => {
      const session = await iboSession();
      const reused = await confirmProspect(handle.db, session, { email: 'learner@academia.example' });
      expect(reused).toMatchObject({ status: 'confirmed', created: false });
      expect(await confirmProspect(handle.db, session, { email: 'nobody@example.com' })).toEqual({ status: 'unknown-customer' });
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
