/**
 * Revoking from the back office: one transaction with its audit record and the holder's e-mail job,
 * idempotent under concurrency; the e-mail; the published status list and the credentials' entries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { decodeJwt, jwtVerify, createLocalJWKSet } from 'jose';
import { testDatabases } from '../db/testing';
import type { DbHandle } from '../db/client';
import { certificates, contacts, jobs, users } from '../db/schema';
import { auditOf } from '../privacy/audit.server';
import { collectArchive } from '../privacy/export.server';
import type { MailMessage } from '../mail/mail';
import { certificateByCode, certificateCredential } from './certificates.server';
import { carriesStatus, signCertificate, signCredential } from './credentials.server';
import { certificateFacts, credentialOptions, openBadgeCredential, type CertifiedCourse } from './certificates';
import { findCertificates, revokeWithReason } from './revoke.server';
import { runRevokedMail } from './revoked-mail.server';
import { buildStatusList, StatusListCache } from './status-list.server';
import { decodeStatusList, STATUS_LIST_SIZE, statusBit, statusPosition } from './status-list';
import { certificateRef, REVOKED_MAIL_JOB, revokedMailKey } from './revocation';
import { jwks, loadOrCreateSigningKey, type SigningKey } from './signing.server';

const ORIGIN = 'https://academia.example';
const ISSUER = `${ORIGIN}/credentials/issuer.json`;
const COURSE: CertifiedCourse = { nameEs: 'Curso', nameEn: 'Course', descriptionEs: 'Uno.', descriptionEn: 'One.', durationSeconds: 3600 };

for (const kind of await testDatabases()) {
  describe(`revoking with a reason (${kind.name})`, () => {
    let handle: DbHandle;
    let key: SigningKey;
    let seq = 0;

    /** A certificate of its own for each test (the seed's graduate, course 2, under a fresh code). */
    async function newCertificate(): Promise<{ id: number; code: string; contactId: number }> {
      seq += 1;
      const [contact] = await handle.db.insert(contacts).values({ firstName: 'Ana', lastName: `Prueba ${seq}`, email: `ana.${seq}.${kind.name}@example.com` }).returning({ id: contacts.id });
      const code = `ACAD-REV${seq % 10}-${String(seq).padStart(4, '0')}-0000-0000`;
      const [row] = await handle.db.insert(certificates).values({ contactId: contact!.id, courseId: 2, code, holderName: `Ana Prueba ${seq}`, issuedAt: new Date('2026-03-05T10:00:00Z') }).returning();
      return { id: row!.id, code, contactId: contact!.id };
    }
    const revoke = (code: string, reason = 'Plagio en el examen final.', now = new Date('2026-11-27T10:00:00Z')) => revokeWithReason(handle.db, { code, reason, actorUserId: 1, origin: ORIGIN, now });

    beforeAll(async () => {
      handle = await kind.create({ seed: true });
      key = await loadOrCreateSigningKey(null, undefined);
    });
    afterAll(async () => handle?.close());

    it('revokes once: the certificate (since when, why), the audit record with the reason, the e-mail job; all in one go', async () => {
      const c = await newCertificate();
      const outcome = await revoke(c.code.toLowerCase().toUpperCase());
      expect(outcome).toMatchObject({ status: 'revoked', certificateId: c.id });
      const stored = (await certificateByCode(handle.db, c.code))!;
      expect(stored.revokedAt?.toISOString()).toBe('2026-11-27T10:00:00.000Z');
      expect(stored.revokedReason).toBe('Plagio en el examen final.');
      const [event] = await auditOf(handle.db, certificateRef(c.id), 'certificates.revoke');
      expect(event).toMatchObject({ actor: 'user:1', before: { state: 'valid' }, after: { state: 'revoked', reason: 'Plagio en el examen final.', revokedAt: '2026-11-27T10:00:00.000Z' } });
      const queued = await handle.db.select().from(jobs).where(eq(jobs.key, revokedMailKey(c.id)));
      expect(queued).toHaveLength(1);
      expect(queued[0]).toMatchObject({ name: REVOKED_MAIL_JOB, payload: { certificateId: c.id, origin: ORIGIN } });
      expect(outcome.status === 'revoked' && outcome.changed).toEqual([{ catalog: true }, { person: { contactId: c.contactId } }]);

      // Again: refused, nothing changes (no second record, the first reason and date kept).
      const again = await revoke(c.code, 'Otro motivo', new Date('2026-11-28T10:00:00Z'));
      expect(again).toEqual({ status: 'alreadyRevoked', revokedAt: stored.revokedAt });
      expect((await certificateByCode(handle.db, c.code))!.revokedReason).toBe('Plagio en el examen final.');
      expect(await auditOf(handle.db, certificateRef(c.id), 'certificates.revoke')).toHaveLength(1);
    });

    it('gives one revocation when two administrators revoke at once', async () => {
      const c = await newCertificate();
      const outcomes = await Promise.all(Array.from({ length: 4 }, (_, i) => revoke(c.code, `Motivo ${i}`)));
      expect(outcomes.filter((o) => o.status === 'revoked')).toHaveLength(1);
      expect(outcomes.filter((o) => o.status === 'alreadyRevoked')).toHaveLength(3);
      expect(await auditOf(handle.db, certificateRef(c.id), 'certificates.revoke')).toHaveLength(1);
      expect(await handle.db.select().from(jobs).where(eq(jobs.key, revokedMailKey(c.id)))).toHaveLength(1);
    });

    it('answers unknown for a code no certificate has, writing nothing', async () => {
      const before = await handle.db.select({ n: sql<number>`count(*)::int` }).from(jobs);
      expect(await revoke('ACAD-0000-0000-0000-0000')).toEqual({ status: 'unknown' });
      expect(await handle.db.select({ n: sql<number>`count(*)::int` }).from(jobs)).toEqual(before);
    });

    it('finds certificates by code or by the holder’s e-mail, with their state', async () => {
      const c = await newCertificate();
      const [contact] = await handle.db.select().from(contacts).where(eq(contacts.id, c.contactId));
      const byEmail = await findCertificates(handle.db, { by: 'email', email: contact!.email.toLowerCase() });
      expect(byEmail.map((r) => r.code)).toEqual([c.code]);
      const byCode = await findCertificates(handle.db, { by: 'code', code: c.code });
      expect(byCode[0]).toMatchObject({ code: c.code, courseId: 2, revokedAt: null, email: contact!.email });
      const graduate = await findCertificates(handle.db, { by: 'email', email: 'graduate@academia.example' });
      expect(graduate.map((r) => r.code)).toContain('ACAD-GRAD-2026-0000-0002');
      expect(await findCertificates(handle.db, { by: 'nothing' })).toEqual([]);
    });

    it('e-mails the holder in the language of their profile, with the reason, and tells every process again', async () => {
      const c = await newCertificate();
      const [user] = await handle.db.insert(users).values({ email: `holder.${c.id}.${kind.name}@example.com`, passwordHash: 'x', firstName: 'Holder', lastName: 'English', locale: 'en' }).returning({ id: users.id });
      await handle.db.update(contacts).set({ userId: user!.id }).where(eq(contacts.id, c.contactId));
      await revoke(c.code, 'The final exam was copied.');
      const sent: MailMessage[] = [];
      let told = 0;
      const deps = { db: handle.db, send: async (m: MailMessage) => (sent.push(m), { id: 'x' }) as never, catalogChanged: async () => void (told += 1) };
      expect(await runRevokedMail(deps, { certificateId: c.id, origin: ORIGIN })).toBe('sent');
      expect(told).toBe(1);
      expect(sent).toHaveLength(1);
      expect(sent[0]!.to).toBe(`holder.${c.id}.${kind.name}@example.com`);
      expect(sent[0]!.subject).toMatch(/was revoked/);
      expect(sent[0]!.text).toContain('Reason: The final exam was copied.');
      expect(sent[0]!.text).toContain('November 27, 2026');
      expect(sent[0]!.text).toContain(`${ORIGIN}/en/verify/${c.code}`);
      // The holder's own data archive keeps the reason too.
      const archive = await collectArchive(handle.db, user!.id, { locale: 'en', origin: ORIGIN });
      expect(archive!.tables.certificates).toEqual([expect.objectContaining({ code: c.code, revokedAt: '2026-11-27T10:00:00.000Z', revokedReason: 'The final exam was copied.' })]);
      // A certificate not revoked, or a payload that names none, sends nothing.
      const valid = await newCertificate();
      expect(await runRevokedMail(deps, { certificateId: valid.id, origin: ORIGIN })).toBe('nothing');
      expect(await runRevokedMail(deps, { certificateId: 'x' })).toBe('nothing');
      expect(sent).toHaveLength(1);
    });

    it('publishes a signed list with a 1 exactly at the revoked certificates’ indexes', async () => {
      const revoked = await newCertificate();
      const valid = await newCertificate();
      await revoke(revoked.code);
      const jwt = await buildStatusList({ db: handle.db, signingKey: key, origin: ORIGIN, issuerId: ISSUER }, 1, Date.now());
      const { payload, protectedHeader } = await jwtVerify(jwt, createLocalJWKSet(jwks([key.publicJwk])), { typ: 'vc+jwt' });
      expect(protectedHeader.alg).toBe('EdDSA');
      expect(payload).toMatchObject({ type: ['VerifiableCredential', 'BitstringStatusListCredential'], issuer: ISSUER, id: `${ORIGIN}/credentials/status/1` });
      const bits = decodeStatusList((payload.credentialSubject as { encodedList: string }).encodedList);
      expect(bits.length * 8).toBeGreaterThanOrEqual(STATUS_LIST_SIZE);
      const revokedIds = (await handle.db.select({ id: certificates.id }).from(certificates).where(sql`${certificates.revokedAt} is not null`)).map((r) => statusPosition(r.id).index).sort((a, b) => a - b);
      const ones: number[] = [];
      for (let i = 0; i < STATUS_LIST_SIZE; i++) if (statusBit(bits, i)) ones.push(i);
      expect(ones).toEqual(revokedIds);
      expect(ones).toContain(statusPosition(revoked.id).index);
      expect(ones).not.toContain(statusPosition(valid.id).index);
    });

    it('signs each credential with its status entry, and signs again one kept from before the lists', async () => {
      const c = await newCertificate();
      const row = (await certificateByCode(handle.db, c.code))!;
      const ctx = { signingKey: key, origin: ORIGIN, locale: 'es' as const, course: COURSE, issuerName: 'Academia' };
      const fresh = decodeJwt(await signCertificate(row, ctx));
      expect(fresh.credentialStatus).toEqual({ id: `${ORIGIN}/credentials/status/1#${c.id}`, type: 'BitstringStatusListEntry', statusPurpose: 'revocation', statusListIndex: String(c.id), statusListCredential: `${ORIGIN}/credentials/status/1` });
      // A credential kept from before: no entry. Served again, it is signed anew with one, and kept.
      const old = await signCredential(openBadgeCredential(certificateFacts(row, COURSE, 'es', ORIGIN, 'Academia'), credentialOptions(row, COURSE, 'es', ORIGIN)), key);
      await handle.db.update(certificates).set({ credential: old }).where(eq(certificates.id, c.id));
      expect(carriesStatus(old)).toBe(false);
      const withOld = (await certificateByCode(handle.db, c.code))!;
      const served = await certificateCredential(handle.db, withOld, () => signCertificate(withOld, ctx));
      expect(carriesStatus(served)).toBe(true);
      expect((await certificateByCode(handle.db, c.code))!.credential).toBe(served);
      // And from then on the kept one is served as it is.
      const again = await certificateCredential(handle.db, (await certificateByCode(handle.db, c.code))!, () => Promise.reject(new Error('signed again')));
      expect(again).toBe(served);
    });
  });
}

describe('the kept lists', () => {
  it('are served while fresh and built again after a minute or once the catalogue’s version moved (a revocation anywhere)', async () => {
    const cache = new StatusListCache();
    let builds = 0;
    const build = async () => `jwt-${++builds}`;
    expect(await cache.get('o 1', 1, 0, build)).toBe('jwt-1');
    expect(await cache.get('o 1', 1, 59_000, build)).toBe('jwt-1');
    expect(await cache.get('o 1', 2, 59_000, build)).toBe('jwt-2');
    expect(await cache.get('o 1', 2, 200_000, build)).toBe('jwt-3');
    expect(await cache.get('o 2', 2, 200_000, build)).toBe('jwt-4');
  });
});
