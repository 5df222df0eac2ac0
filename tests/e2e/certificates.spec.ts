/**
 * The certificate journey on a server of its own, whose database is given a learner who completed
 * course 2 (every lesson, and its exam passed) before the server starts: issuing without
 * JavaScript, the certificate page (QR code, PDF, credential, LinkedIn), the e-mail, issuing again,
 * the public verification page, and the downloaded credential checked with the published keys alone.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { expect, expectNoSeriousViolations, seededDataFolder, startServer, test, type OwnServer } from './fixtures';
import { openDatabase } from '../../src/lib/db/client';
import * as s from '../../src/lib/db/schema';
import { PEOPLE } from './support/seed';

const COURSE = 2;

/** Every lesson of course 2 completed by the learner, and its exam passed. */
async function completeCourse(dataDir: string): Promise<void> {
  const handle = await openDatabase({ databaseUrl: null, dataDir });
  try {
    const db = handle.db;
    const [contact] = await db.select({ id: s.contacts.id }).from(s.contacts).innerJoin(s.users, eq(s.users.id, s.contacts.userId)).where(eq(s.users.email, PEOPLE.learner.email));
    const lessons = await db.select({ id: s.subtopics.id }).from(s.subtopics).innerJoin(s.topics, eq(s.topics.id, s.subtopics.topicId)).where(eq(s.topics.courseId, COURSE));
    const [evaluation] = await db.select({ id: s.evaluations.id }).from(s.evaluations).where(eq(s.evaluations.courseId, COURSE));
    const now = Date.now();
    await db.insert(s.tracking).values(lessons.map((l) => ({ contactId: contact!.id, courseId: COURSE, subtopicId: l.id, completedAt: new Date(now) })));
    await db.insert(s.examAttempts).values({
      evaluationId: evaluation!.id,
      contactId: contact!.id,
      attemptNumber: 1,
      questionIds: [],
      startedAt: new Date(now - 120_000),
      deadlineAt: new Date(now + 60_000),
      submittedAt: new Date(now - 60_000),
      score: 90,
      passed: true,
    });
  } finally {
    await handle.close();
  }
}

test.describe('certificates, on a server of its own', () => {
  test.describe.configure({ mode: 'serial' });
  let server: OwnServer | undefined;
  const base = () => server!.baseURL;
  let code = '';

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    const dataDir = await seededDataFolder();
    await completeCourse(dataDir);
    server = await startServer({ DATA_DIR: dataDir });
  });
  test.afterAll(async () => {
    await server?.dispose();
  });

  const logIn = async (request: import('@playwright/test').APIRequestContext, who: keyof typeof PEOPLE) => {
    const r = await request.post(`${base()}/_actions/auth.login`, { form: { email: PEOPLE[who].email, password: PEOPLE[who].password, lang: 'en' }, headers: { Origin: base() } });
    expect(r.status()).toBe(200);
  };
  const mails = async () => {
    const dir = join(server!.dataDir, 'outbox');
    const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.eml'));
    return Promise.all(files.map((f) => readFile(join(dir, f), 'utf8')));
  };

  test('issues the certificate without JavaScript and shows it: QR code, PDF, credential, LinkedIn; one e-mail', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, acceptDownloads: true });
    const page = await context.newPage();
    try {
      await logIn(page.request, 'learner');
      await page.goto(`${base()}/en/course-generate?course=${COURSE}`);
      await expect(page.getByRole('heading', { level: 1, name: 'Get your certificate' })).toBeVisible();
      await expect(page.locator('#main').getByText('Laura Méndez')).toBeVisible();
      await page.getByRole('button', { name: 'Issue my certificate' }).click();
      await expect(page).toHaveURL(`${base()}/en/course-certificate/${COURSE}`);
      await expect(page.getByRole('heading', { name: 'Certificate of Completion' })).toBeVisible();
      await expect(page.getByRole('img', { name: 'QR code with the verification link' })).toBeVisible();
      code = (await page.locator('.code').first().textContent())!.trim();
      expect(code).toMatch(/^ACAD(-[0-9A-HJKMNP-TV-Z]{4}){4}$/);

      const linkedIn = await page.getByRole('link', { name: /Add to LinkedIn profile/ }).getAttribute('href');
      expect(linkedIn).toMatch(/^https:\/\/www\.linkedin\.com\/profile\/add\?startTask=CERTIFICATION_NAME&/);
      expect(new URL(linkedIn!).searchParams.get('certId')).toBe(code);
      expect(new URL(linkedIn!).searchParams.get('certUrl')).toBe(`${base()}/en/verify/${code}`);

      const [pdf] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download PDF' }).click()]);
      expect(pdf.suggestedFilename()).toMatch(/^certificate-.+\.pdf$/);
      expect((await readFile((await pdf.path())!)).subarray(0, 5).toString()).toBe('%PDF-');

      // The e-mail went out once, with the certificate's and the verification page's links.
      await expect.poll(async () => (await mails()).length, { timeout: 10_000 }).toBe(1);
      const [mail] = await mails();
      expect(mail).toContain(PEOPLE.learner.email);
      expect(mail!.replace(/=\r?\n/g, '')).toContain(`/en/verify/${code}`);

      // Issuing again gives the same certificate, and no second e-mail.
      await page.goto(`${base()}/course-generate?course=${COURSE}`);
      await expect(page).toHaveURL(`${base()}/course-certificate/${COURSE}`);
      const again = await page.request.post(`${base()}/_actions/certificates.issue`, { form: { course: String(COURSE), lang: 'es' }, headers: { Origin: base() } });
      expect(again.status()).toBe(200);
      expect(await again.text()).toContain(code);
      expect(await mails()).toHaveLength(1);
    } finally {
      await context.close();
    }
  });

  test('the downloaded credential verifies with the published keys alone; any change breaks it', async ({ playwright }) => {
    const learner = await playwright.request.newContext();
    const anyone = await playwright.request.newContext();
    try {
      await logIn(learner, 'learner');
      const r = await learner.get(`${base()}/course-certificate/${COURSE}/credential`);
      expect(r.status()).toBe(200);
      expect(r.headers()['content-disposition']).toBe(`attachment; filename="${code}.jwt"`);
      const jwt = await r.text();
      const keys = await anyone.get(`${base()}/.well-known/jwks.json`);
      expect(keys.status()).toBe(200);
      const keySet = createLocalJWKSet(await keys.json());
      const { payload, protectedHeader } = await jwtVerify(jwt, keySet, { algorithms: ['EdDSA'], typ: 'vc+jwt' });
      expect(protectedHeader.alg).toBe('EdDSA');
      expect(payload.type).toEqual(['VerifiableCredential', 'OpenBadgeCredential']);
      expect((payload.issuer as { id: string }).id).toBe(`${base()}/credentials/issuer.json`);
      expect((payload.credentialSubject as { name: string }).name).toBe('Laura Méndez');
      // The issuer id is a real address: the issuer profile.
      const issuer = await anyone.get((payload.issuer as { id: string }).id);
      expect(await issuer.json()).toMatchObject({ type: ['Profile'], id: `${base()}/credentials/issuer.json` });
      // One changed character anywhere (header, payload or signature) and it no longer verifies.
      for (let i = 0; i < jwt.length; i += 17) {
      // A segment's last character may carry unused bits (another letter can decode the same): not those.
      if (jwt[i] === '.' || i + 1 === jwt.length || jwt[i + 1] === '.') continue;
        const changed = jwt.slice(0, i) + (jwt[i] === 'A' ? 'B' : 'A') + jwt.slice(i + 1);
        await expect(jwtVerify(changed, keySet, { algorithms: ['EdDSA'] }), `changed at ${i}`).rejects.toThrow();
      }
    } finally {
      await learner.dispose();
      await anyone.dispose();
    }
  });

  test('anyone verifies the code, in both languages, seeing the holder, course and date only; others hold no certificate', async ({ browser, playwright }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      const answer = await page.goto(`${base()}/en/verify/${code.toLowerCase()}`);
      expect(answer?.status()).toBe(200);
      await expect(page.getByRole('heading', { name: 'Valid certificate' })).toBeVisible();
      await expect(page.locator('#main').getByText('Laura Méndez')).toBeVisible();
      await expect(page.getByText('Digital signature checked')).toBeVisible();
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
      const html = await page.content();
      expect(html).not.toContain(PEOPLE.learner.email);
      await expectNoSeriousViolations(page);
      expect((await page.goto(`${base()}/verify/${code}`))?.status()).toBe(200);
      await expect(page.getByRole('heading', { name: 'Certificado válido' })).toBeVisible();
      // The demo graduate's certificate (README) verifies, with its signature.
      expect((await page.goto(`${base()}/en/verify/ACAD-GRAD-2026-0000-0002`))?.status()).toBe(200);
      await expect(page.getByRole('heading', { name: 'Valid certificate' })).toBeVisible();
      await expect(page.locator('#main').getByText('Mateo Gutiérrez')).toBeVisible();
      await expect(page.getByText('Digital signature checked')).toBeVisible();
      expect(await page.content()).not.toContain('graduate@academia.example');
      const unknown = await page.goto(`${base()}/verify/ACAD-0000-0000-0000-0000`);
      expect(unknown?.status()).toBe(404);
      await expect(page.getByRole('heading', { name: 'Certificado no encontrado' })).toBeVisible();
      // The learner's own certificate page, with JavaScript, at phone width.
      await logIn(page.request, 'learner');
      await page.setViewportSize({ width: 360, height: 800 });
      await page.goto(`${base()}/course-certificate/${COURSE}`);
      await expect(page.getByRole('img', { name: 'Código QR con el enlace de verificación' })).toBeVisible();
      await expectNoSeriousViolations(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    } finally {
      await context.close();
    }
    const buyer = await playwright.request.newContext();
    try {
      await logIn(buyer, 'buyer');
      for (const path of [`/course-certificate/${COURSE}`, `/course-certificate/${COURSE}/pdf?lang=en`, `/course-certificate/${COURSE}/credential`]) {
        expect((await buyer.get(`${base()}${path}`, { maxRedirects: 0 })).status(), path).toBe(404);
      }
      expect((await buyer.get(`${base()}/course-generate?course=${COURSE}`, { maxRedirects: 0 })).status()).toBe(403);
    } finally {
      await buyer.dispose();
    }
  });
});
