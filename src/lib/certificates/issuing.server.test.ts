/**
 * Stored certificates on PGlite (and PostgreSQL when it answers): issued once per person and course
 * (twice, or twenty times at once, give one), refused before the course is completed, found only for
 * their holder, looked up by code (valid, revoked, unknown, malformed), signed credentials kept and
 * checked with the published key alone, and the e-mail sent when one is issued.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { testDatabases } from '../db/testing';
import type { DbHandle } from '../db/client';
import { certificates, contacts, evaluations, examAttempts, tracking, users } from '../db/schema';
import { loadCatalog, type CatalogCourse, type CatalogSnapshot } from '../catalog';
import { loadViewer, VISITOR } from '../access';
import type { MailMessage } from '../mail/mail';
import { es } from '~/i18n/es';
import { en } from '~/i18n/en';
import { CROCKFORD_ALPHABET, isVerificationCode, type CertifiedCourse } from './certificates';
import { certificateByCode, certificateCount, certificateCredential, findCertificate, hasCompletedCourse, holderOf, issueCertificate, revokeCertificate } from './certificates.server';
import { checkCertificateCredential, signCertificate, verifyCredential } from './credentials.server';
import { issueAndNotify, type IssueContext } from './mail.server';
import { loadGeneratePage, loadOwnCertificate, verifyCode } from './pages.server';
import { jwks, loadOrCreateSigningKey, type SigningKey } from './signing.server';
import { saveAnswer, startAttempt } from '../exams/exams.server';
import { loadExam } from '../exams/exam-source.server';
import { correctOptions } from '../exams/exams';
import { pagesChange, personChange } from '../runtime/changes';
import { profileFormSchema } from '../identity/account';
import { updateProfile } from '../identity/profile.server';

const databases = await testDatabases();
const COURSE = 2;
const ORIGIN = 'https://academia.example';

describe.each(databases)('stored certificates on $name', ({ create }) => {
  let handle: DbHandle;
  let course: CatalogCourse;
  let key: SigningKey;
  let learner: number;
  let buyer: number;
  const now = Date.UTC(2026, 10, 20, 15, 0);

  const contactOf = async (email: string) =>
    (await handle.db.select({ id: contacts.id }).from(contacts).innerJoin(users, eq(users.id, contacts.userId)).where(eq(users.email, email)))[0]!.id;

  /** Every lesson of the course completed by the person. */
  const completeLessons = async (contactId: number, c: CatalogCourse = course) => {
    const lessons = c.modules.flatMap((m) => m.lessons.map((l) => l.id));
    await handle.db.insert(tracking).values(lessons.map((subtopicId) => ({ contactId, courseId: c.id, subtopicId, completedAt: new Date(now) })));
  };
  /** The course's exam passed by the person (a graded attempt). */
  const passExam = async (contactId: number, courseId = COURSE) => {
    const [evaluation] = await handle.db.select().from(evaluations).where(eq(evaluations.courseId, courseId));
    await handle.db.insert(examAttempts).values({
      evaluationId: evaluation!.id,
      contactId,
      attemptNumber: 1,
      questionIds: [],
      startedAt: new Date(now - 60_000),
      deadlineAt: new Date(now + 60_000),
      submittedAt: new Date(now - 30_000),
      score: 100,
      passed: true,
    });
  };
  const context = (sent: MailMessage[], over: Partial<IssueContext> = {}): IssueContext => ({
    db: handle.db,
    signingKey: key,
    send: async (m) => {
      sent.push(m);
      return { messageId: `<${sent.length}@test>` };
    },
    origin: ORIGIN,
    locale: 'es',
    course: course as CertifiedCourse,
    issuerName: 'Academia',
    mailTexts: (l) => (l === 'en' ? en : es).certificates.mail,
    ...over,
  });

  beforeAll(async () => {
    handle = await create({ seed: true });
    course = (await loadCatalog(handle.db)).byId.get(COURSE)!;
    key = await loadOrCreateSigningKey(null, undefined);
    learner = await contactOf('learner@academia.example');
    buyer = await contactOf('buyer@academia.example');
  });
  beforeEach(async () => {
    await handle.db.delete(certificates);
    await handle.db.delete(examAttempts);
    await handle.db.delete(tracking);
  });
  afterAll(async () => {
    await handle?.close();
  });

  it('refuses before the course is completed (lessons left, or the exam not passed), storing nothing', async () => {
    expect(await issueCertificate(handle.db, learner, COURSE, now)).toEqual({ ok: false, reason: 'not-completed', changed: [] });
    await completeLessons(learner);
    expect(await hasCompletedCourse(handle.db, learner, COURSE, now)).toEqual({ completed: false, changed: [] });
    expect(await issueCertificate(handle.db, learner, COURSE, now)).toEqual({ ok: false, reason: 'not-completed', changed: [] });
    await passExam(learner);
    expect(await hasCompletedCourse(handle.db, learner, COURSE, now)).toEqual({ completed: true, changed: [] });
    // Exam passed but a lesson left: still not completed.
    await handle.db.delete(tracking).where(eq(tracking.subtopicId, course.modules[0]!.lessons[0]!.id));
    expect(await issueCertificate(handle.db, learner, COURSE, now)).toEqual({ ok: false, reason: 'not-completed', changed: [] });
    expect(await certificateCount(handle.db, COURSE)).toBe(0);
  });

  it('refuses unknown courses, the test course and unknown people', async () => {
    for (const id of [999_999, 0, -1, 2 ** 40, Number.NaN]) expect(await issueCertificate(handle.db, learner, id, now)).toEqual({ ok: false, reason: 'unknown-course', changed: [] });
    expect(await issueCertificate(handle.db, learner, 12, now)).toEqual({ ok: false, reason: 'unknown-course', changed: [] });
    expect(await issueCertificate(handle.db, 2_000_000_000, COURSE, now)).toEqual({ ok: false, reason: 'unknown-person', changed: [] });
    expect(await handle.db.select().from(certificates)).toEqual([]);
  });

  it('a course without an exam is completed by its lessons alone', async () => {
    const catalog = await loadCatalog(handle.db);
    const other = catalog.byId.get(1)!;
    await handle.db.delete(evaluations).where(eq(evaluations.courseId, other.id));
    expect(await issueCertificate(handle.db, learner, other.id, now)).toEqual({ ok: false, reason: 'not-completed', changed: [] });
    await completeLessons(learner, other);
    const issued = await issueCertificate(handle.db, learner, other.id, now);
    expect(issued).toMatchObject({ ok: true, created: true });
  });

  it('issues once: a second call returns the same certificate, with a valid code and the name at issue', async () => {
    await completeLessons(learner);
    await passExam(learner);
    const first = await issueCertificate(handle.db, learner, COURSE, now);
    if (!first.ok) throw new Error(first.reason);
    expect(first.created).toBe(true);
    expect(isVerificationCode(first.certificate.code)).toBe(true);
    expect(first.certificate).toMatchObject({ contactId: learner, courseId: COURSE, holderName: 'Laura Méndez', issuedAt: new Date(now), revokedAt: null });
    // The name changes later: the certificate keeps the one it was issued with.
    await handle.db.update(users).set({ firstName: 'Laurita' }).where(eq(users.email, 'learner@academia.example'));
    const second = await issueCertificate(handle.db, learner, COURSE, now + 86_400_000);
    expect(second).toEqual({ ok: true, certificate: first.certificate, created: false, changed: [] });
    await handle.db.update(users).set({ firstName: 'Laura' }).where(eq(users.email, 'learner@academia.example'));
    expect(await certificateCount(handle.db, COURSE)).toBe(1);
  });

  it('a certificate keeps the name it was issued with after the profile changes; the next one carries the new name', async () => {
    await completeLessons(learner);
    await passExam(learner);
    const before = await issueCertificate(handle.db, learner, COURSE, now);
    if (!before.ok) throw new Error(before.reason);
    const [me] = await handle.db.select().from(users).where(eq(users.email, 'learner@academia.example'));
    const profile = profileFormSchema().parse({ name: 'Lorena', lastName: 'Ibáñez', gender: 'female', birthDay: '2', birthMonth: '3', birthYear: String(new Date().getFullYear() - 30), language: 'es' });
    try {
      expect((await updateProfile(handle.db, me!.id, profile)).status).toBe('ok');
      expect(await findCertificate(handle.db, learner, COURSE)).toMatchObject({ holderName: 'Laura Méndez' });
      const catalog = await loadCatalog(handle.db);
      const sign = (c: Parameters<typeof signCertificate>[0], course: CatalogCourse) => signCertificate(c, { signingKey: key, origin: ORIGIN, locale: 'es', course, issuerName: 'Academia' });
      const verified = await verifyCode(handle.db, catalog, before.certificate.code, jwks([key.publicJwk]), sign);
      expect(verified).toMatchObject({ status: 'valid', signatureChecked: true, certificate: { holderName: 'Laura Méndez' } });
      const kept = (await findCertificate(handle.db, learner, COURSE))!.credential!;
      expect(await verifyCredential(kept, jwks([key.publicJwk]))).toMatchObject({ ok: true, credential: { credentialSubject: { name: 'Laura Méndez' } } });
      // A course without an exam, completed after the change: its certificate has the new name.
      const other = catalog.byId.get(1)!;
      await handle.db.delete(evaluations).where(eq(evaluations.courseId, other.id));
      await completeLessons(learner, other);
      expect(await issueCertificate(handle.db, learner, other.id, now)).toMatchObject({ ok: true, created: true, certificate: { holderName: 'Lorena Ibáñez' } });
    } finally {
      await handle.db.update(users).set({ firstName: me!.firstName, lastName: me!.lastName, gender: me!.gender, birthDate: me!.birthDate }).where(eq(users.id, me!.id));
    }
  });

  it('twenty simultaneous issues store one certificate and all return it', async () => {
    await completeLessons(learner);
    await passExam(learner);
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => issueCertificate(handle.db, learner, COURSE, now)));
    expect(outcomes.every((o) => o.ok)).toBe(true);
    const ids = new Set(outcomes.map((o) => (o.ok ? o.certificate.id : 0)));
    expect(ids.size).toBe(1);
    expect(outcomes.filter((o) => o.ok && o.created)).toHaveLength(1);
    expect(await certificateCount(handle.db, COURSE)).toBe(1);
  });

  it("finds a person's own certificate only: another person's course answers nothing", async () => {
    await completeLessons(learner);
    await passExam(learner);
    const issued = await issueCertificate(handle.db, learner, COURSE, now);
    if (!issued.ok) throw new Error(issued.reason);
    expect(await findCertificate(handle.db, learner, COURSE)).toEqual(issued.certificate);
    expect(await findCertificate(handle.db, buyer, COURSE)).toBeNull();
    expect(await findCertificate(handle.db, learner, 1)).toBeNull();
    expect(await findCertificate(handle.db, learner, 2 ** 40)).toBeNull();
  });

  it('looks codes up: valid in any letter case, revoked, unknown and malformed (NUL, 100 KB, not a string) without failing', async () => {
    await completeLessons(learner);
    await passExam(learner);
    const issued = await issueCertificate(handle.db, learner, COURSE, now);
    if (!issued.ok) throw new Error(issued.reason);
    const code = issued.certificate.code;
    expect((await certificateByCode(handle.db, code))?.id).toBe(issued.certificate.id);
    expect((await certificateByCode(handle.db, ` ${code.toLowerCase()} `))?.id).toBe(issued.certificate.id);
    // A well-formed code nobody holds (one character changed).
    const last = code.at(-1)!;
    const other = code.slice(0, -1) + CROCKFORD_ALPHABET[(CROCKFORD_ALPHABET.indexOf(last) + 1) % 32];
    expect(await certificateByCode(handle.db, other)).toBeNull();
    for (const bad of ['', 'ACAD', `${code}\0`, '\0'.repeat(30), 'x'.repeat(100_000), `${code}'; drop table certificates; --`, null, 42, { code }]) {
      expect(await certificateByCode(handle.db, bad)).toBeNull();
    }
    expect(await revokeCertificate(handle.db, issued.certificate.id, now + 1000)).toBe(true);
    expect(await revokeCertificate(handle.db, issued.certificate.id, now + 2000)).toBe(false);
    expect((await certificateByCode(handle.db, code))?.revokedAt).toEqual(new Date(now + 1000));
  });

  it('keeps the first signed credential, which the published key set alone verifies; any change breaks it', async () => {
    await completeLessons(learner);
    await passExam(learner);
    const issued = await issueCertificate(handle.db, learner, COURSE, now);
    if (!issued.ok) throw new Error(issued.reason);
    const ctx = { signingKey: key, origin: ORIGIN, locale: 'en' as const, course, issuerName: 'Academia' };
    const jwt = await certificateCredential(handle.db, issued.certificate, () => signCertificate(issued.certificate, ctx));
    const stored = (await findCertificate(handle.db, learner, COURSE))!;
    expect(stored.credential).toBe(jwt);
    // Later calls return the kept one, whatever they would sign.
    expect(await certificateCredential(handle.db, stored, () => Promise.resolve('other'))).toBe(jwt);
    expect(await certificateCredential(handle.db, issued.certificate, () => Promise.resolve('other'))).toBe(jwt);

    const published = JSON.parse(JSON.stringify(jwks([key.publicJwk])));
    const check = await verifyCredential(jwt, published);
    expect(check.ok).toBe(true);
    if (check.ok) {
      expect(check.credential.id).toBe(`${ORIGIN}/verify/${issued.certificate.code}`);
      expect(check.credential.issuer.id).toBe(`${ORIGIN}/credentials/issuer.json`);
      expect(check.credential.credentialSubject.name).toBe('Laura Méndez');
      expect(check.credential.credentialSubject.achievement.name).toBe(course.nameEn);
    }
    expect(await checkCertificateCredential(jwt, stored, published)).toBe(true);
    // Any changed character of the token, or another key set, or another certificate: refused.
    const [h, p, sig] = jwt.split('.') as [string, string, string];
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString());
    payload.credentialSubject.name = 'Mallory';
    const forged = `${h}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${sig}`;
    expect(await checkCertificateCredential(forged, stored, published)).toBe(false);
    for (let i = 0; i < jwt.length; i += Math.ceil(jwt.length / 25)) {
      // A segment's last character may carry unused bits (another letter can decode the same): not those.
      if (jwt[i] === '.' || i + 1 === jwt.length || jwt[i + 1] === '.') continue;
      const changed = jwt.slice(0, i) + (jwt[i] === 'A' ? 'B' : 'A') + jwt.slice(i + 1);
      expect(await checkCertificateCredential(changed, stored, published), `changed at ${i}`).toBe(false);
    }
    const otherKey = await loadOrCreateSigningKey(null, undefined);
    expect(await checkCertificateCredential(jwt, stored, jwks([otherKey.publicJwk]))).toBe(false);
    expect(await checkCertificateCredential(jwt, { ...stored, holderName: 'Otra Persona' }, published)).toBe(false);
    expect(await checkCertificateCredential(jwt, { ...stored, code: 'ACAD-0000-0000-0000-0000' }, published)).toBe(false);
  });

  it('e-mails the certificate and verification links once, when the certificate is issued; a failed e-mail keeps it', async () => {
    // Laura chose no language for our mails: the one she asks in (English) is the mail's.
    await handle.db.update(users).set({ locale: null }).where(eq(users.email, 'learner@academia.example'));
    await completeLessons(learner);
    await passExam(learner);
    const sent: MailMessage[] = [];
    const first = await issueAndNotify(context(sent, { locale: 'en' }), learner, COURSE, now);
    expect(first).toMatchObject({ ok: true, created: true, mailed: true });
    if (!first.ok) return;
    expect(sent).toHaveLength(1);
    expect(sent[0]!.to).toBe('learner@academia.example');
    expect(sent[0]!.subject).toBe(`Your certificate for “${course.nameEn}”`);
    expect(sent[0]!.text).toContain('Hello Laura Méndez,');
    expect(sent[0]!.text).toContain(`${ORIGIN}/en/course-certificate/${COURSE}`);
    expect(sent[0]!.text).toContain(`${ORIGIN}/en/verify/${first.certificate.code}`);
    // The credential was signed and kept at issue.
    expect((await findCertificate(handle.db, learner, COURSE))!.credential).toMatch(/^ey[\w-]+\.[\w-]+\.[\w-]+$/);
    // Issuing again sends nothing.
    expect(await issueAndNotify(context(sent), learner, COURSE, now)).toMatchObject({ ok: true, created: false });
    expect(sent).toHaveLength(1);
    // Refused: nothing sent. A mail failure: the certificate stays, the failure is reported.
    expect(await issueAndNotify(context(sent), buyer, COURSE, now)).toEqual({ ok: false, reason: 'not-completed', changed: [] });
    expect(sent).toHaveLength(1);
    await completeLessons(buyer);
    await passExam(buyer);
    const failures: unknown[] = [];
    const failing = context(sent, { send: () => Promise.reject(new Error('SMTP down')), onMailError: (e) => failures.push(e) });
    expect(await issueAndNotify(failing, buyer, COURSE, now)).toMatchObject({ ok: true, created: true, mailed: false });
    expect(failures).toHaveLength(1);
    expect(await findCertificate(handle.db, buyer, COURSE)).not.toBeNull();
  });

  it('e-mails the certificate in the language the learner chose in their profile, else the one they asked in', async () => {
    await handle.db.update(users).set({ locale: 'en' }).where(eq(users.email, 'learner@academia.example'));
    await handle.db.update(users).set({ locale: 'es' }).where(eq(users.email, 'buyer@academia.example'));
    try {
      const sent: MailMessage[] = [];
      for (const contact of [learner, buyer]) {
        await completeLessons(contact);
        await passExam(contact);
      }
      // Laura chose English and asks from a Spanish page; Tomás chose Spanish and asks from an English one.
      const english = await issueAndNotify(context(sent, { locale: 'es' }), learner, COURSE, now);
      const spanish = await issueAndNotify(context(sent, { locale: 'en' }), buyer, COURSE, now);
      if (!english.ok || !spanish.ok) throw new Error('not issued');
      expect(sent.map((m) => m.subject)).toEqual([`Your certificate for “${course.nameEn}”`, `Tu certificado del curso «${course.nameEs}»`]);
      expect(sent[0]!.text).toContain(`${ORIGIN}/en/verify/${english.certificate.code}`);
      expect(sent[1]!.text).toContain(`${ORIGIN}/verify/${spanish.certificate.code}`);
      expect(sent[1]!.text).not.toContain('/en/');
    } finally {
      await handle.db.update(users).set({ locale: null }).where(eq(users.email, 'learner@academia.example'));
      await handle.db.update(users).set({ locale: null }).where(eq(users.email, 'buyer@academia.example'));
    }
  });

  it("names the holder by their account (name and e-mail)", async () => {
    expect(await holderOf(handle.db, learner)).toEqual({ name: 'Laura Méndez', email: 'learner@academia.example', locale: null });
    expect(await holderOf(handle.db, 2_000_000_000)).toBeNull();
    expect(await holderOf(handle.db, -5)).toBeNull();
  });

  it('names the holder without format characters a name stored before they were refused may hold', async () => {
    const email = 'learner@academia.example';
    await handle.db.update(users).set({ firstName: 'Laura\u202e', lastName: '\u200bMéndez\u2069' }).where(eq(users.email, email));
    try {
      expect(await holderOf(handle.db, learner)).toEqual({ name: 'Laura Méndez', email, locale: null });
    } finally {
      await handle.db.update(users).set({ firstName: 'Laura', lastName: 'Méndez' }).where(eq(users.email, email));
    }
  });
  it('the issue page: unknown, test and buyers-only courses are not found; then not completed, ready, and issued', async () => {
    const catalog: CatalogSnapshot = await loadCatalog(handle.db);
    const me = await loadViewer(handle.db, { kind: 'learner', userId: null, contactId: learner });
    for (const raw of [null, '', 'abc', '9999', '12', '10', '2.0', '02x', '1'.repeat(12), '\0']) expect(await loadGeneratePage(handle.db, catalog, me, raw, now), String(raw)).toEqual({ page: { kind: 'not-found' }, changed: [] });
    expect(await loadGeneratePage(handle.db, catalog, VISITOR, '2', now)).toEqual({ page: { kind: 'login' }, changed: [] });
    expect(await loadGeneratePage(handle.db, catalog, me, '2', now)).toMatchObject({ page: { kind: 'not-completed', course: { id: COURSE } }, changed: [] });
    await completeLessons(learner);
    await passExam(learner);
    expect(await loadGeneratePage(handle.db, catalog, me, '2', now)).toMatchObject({ page: { kind: 'ready', course: { id: COURSE }, holderName: 'Laura Méndez' }, changed: [] });
    expect(await loadOwnCertificate(handle.db, catalog, me, '2')).toBeNull();
    await issueCertificate(handle.db, learner, COURSE, now);
    expect(await loadGeneratePage(handle.db, catalog, me, '2', now)).toEqual({ page: { kind: 'issued', courseId: COURSE }, changed: [] });
    expect(await loadOwnCertificate(handle.db, catalog, me, '2')).toMatchObject({ certificate: { contactId: learner, courseId: COURSE }, course: { id: COURSE } });
    // Another person, a visitor, or a malformed id: nothing.
    const them = await loadViewer(handle.db, { kind: 'learner', userId: null, contactId: buyer });
    expect(await loadOwnCertificate(handle.db, catalog, them, '2')).toBeNull();
    expect(await loadOwnCertificate(handle.db, catalog, VISITOR, '2')).toBeNull();
    for (const raw of [undefined, 'abc', '-2', '2%00', '9'.repeat(100_000)]) expect(await loadOwnCertificate(handle.db, catalog, me, raw)).toBeNull();
  });

  it('checking the completion grades an exam attempt whose time is up, and says what that changed', async () => {
    const catalog: CatalogSnapshot = await loadCatalog(handle.db);
    const me = await loadViewer(handle.db, { kind: 'learner', userId: null, contactId: learner });
    const exam = (await loadExam(handle.db, COURSE))!;
    const started = now - 2 * exam.settings.minutes * 60_000;
    await completeLessons(learner);
    // Left unanswered, never submitted: the issue refused grades it (a fail: only the person's pages changed).
    const failing = await startAttempt(handle.db, exam, learner, started);
    if (!failing.ok) throw new Error(failing.error);
    expect(await issueCertificate(handle.db, learner, COURSE, now)).toEqual({ ok: false, reason: 'not-completed', changed: [pagesChange(learner)] });
    expect(await issueCertificate(handle.db, learner, COURSE, now)).toEqual({ ok: false, reason: 'not-completed', changed: [] });
    // Answered right, never submitted: the issue page grades it (a pass completes the course).
    const passing = await startAttempt(handle.db, exam, learner, started);
    if (!passing.ok) throw new Error(passing.error);
    for (const id of passing.attempt.drawn.questionIds) await saveAnswer(handle.db, exam, learner, passing.attempt.id, id, correctOptions(exam.pool.find((q) => q.id === id)!), started);
    expect(await loadGeneratePage(handle.db, catalog, me, '2', now)).toMatchObject({ page: { kind: 'ready' }, changed: [personChange({ contactId: learner })] });
    expect(await issueCertificate(handle.db, learner, COURSE, now)).toMatchObject({ ok: true, created: true, changed: [] });
  });

  it('verification: valid with its signature checked, revoked, unknown and malformed; a forged kept credential is reported', async () => {
    const catalog: CatalogSnapshot = await loadCatalog(handle.db);
    const published = jwks([key.publicJwk]);
    let signed = 0;
    const sign = (c: Parameters<typeof signCertificate>[0], course: CatalogCourse) => {
      signed++;
      return signCertificate(c, { signingKey: key, origin: ORIGIN, locale: 'es', course, issuerName: 'Academia' });
    };
    for (const raw of [undefined, '', 'ACAD-0000-0000-0000-0000', 'x'.repeat(100_000), 'ACAD\0', 42]) expect(await verifyCode(handle.db, catalog, raw, published, sign)).toEqual({ status: 'unknown' });
    await completeLessons(learner);
    await passExam(learner);
    const issued = await issueCertificate(handle.db, learner, COURSE, now);
    if (!issued.ok) throw new Error(issued.reason);
    // A certificate without a credential (the seed's) is signed once, on its first check.
    const valid = await verifyCode(handle.db, catalog, issued.certificate.code.toLowerCase(), published, sign);
    expect(valid).toMatchObject({ status: 'valid', signatureChecked: true, certificate: { holderName: 'Laura Méndez' }, course: { id: COURSE } });
    await verifyCode(handle.db, catalog, issued.certificate.code, published, sign);
    expect(signed).toBe(1);
    // Checked against another key set: reported, not hidden.
    const otherKey = await loadOrCreateSigningKey(null, undefined);
    expect(await verifyCode(handle.db, catalog, issued.certificate.code, jwks([otherKey.publicJwk]), sign)).toMatchObject({ status: 'valid', signatureChecked: false });
    // A kept credential that states someone else.
    const forged = await signCertificate({ ...issued.certificate, holderName: 'Mallory' }, { signingKey: key, origin: ORIGIN, locale: 'es', course, issuerName: 'Academia' });
    await handle.db.update(certificates).set({ credential: forged }).where(eq(certificates.id, issued.certificate.id));
    expect(await verifyCode(handle.db, catalog, issued.certificate.code, published, sign)).toMatchObject({ status: 'valid', signatureChecked: false });
    await revokeCertificate(handle.db, issued.certificate.id, now + 1);
    expect(await verifyCode(handle.db, catalog, issued.certificate.code, published, sign)).toMatchObject({ status: 'revoked', certificate: { revokedAt: new Date(now + 1) } });
  });
});
