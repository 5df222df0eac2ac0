/**
 * "My data" through the built site, as a browser (or a form without JavaScript) uses it: the page in
 * both languages, an archive asked for, built and downloaded by its owner only (someone else's link,
 * a forged one, an expired one, no session: refused in words); a deletion asked for with a wrong
 * password, twice, and cancelled by logging in. Each refusal is a localized sentence and a 4xx, with
 * nothing stored. Skipped without a build (`npm run build`).
 */
import { eq } from 'drizzle-orm';
import { parse } from 'devalue';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../src/i18n';
import * as s from '../src/lib/db/schema';
import { createSession } from '../src/lib/identity/session.server';
import { pendingDeletion, requestDeletion, zipNames } from '../src/lib/privacy';
import { DEMO_LEARNER_ARCHIVE } from '../src/lib/privacy/archive.testing';
import { siteBuilt, startBuiltSite, type BuiltSite } from './built-site.testing';

if (!siteBuilt) console.warn('The "My data" tests are skipped: they need a build (`npm run build`).');

describe.skipIf(!siteBuilt)('my data', () => {
  let built: BuiltSite;
  let base: string;
  const ids: Record<string, number> = {};
  const cookies: Record<string, string> = {};

  beforeAll(async () => {
    built = await startBuiltSite();
    base = built.base;
    for (const email of ['learner@academia.example', 'buyer@academia.example', 'ready@academia.example', 'ibo.rutas@academia.example', 'admin@academia.example']) {
      const [u] = await built.db.db.select({ id: s.users.id }).from(s.users).where(eq(s.users.email, email));
      ids[email] = u!.id;
      cookies[email] = `session=${(await createSession(built.db.db, { kind: 'user', userId: u!.id })).token}`;
    }
  });
  afterAll(() => built?.close());

  const post = (path: string, who: string | null, form: Record<string, string>) =>
    fetch(base + path, { method: 'POST', headers: { origin: base, ...(who ? { cookie: cookies[who]! } : {}), 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form), redirect: 'manual' });
  const get = (path: string, who: string | null) => built.get(path, who ? cookies[who] : undefined);

  it('shows the page in both languages, linked from the profile, and sends visitors to log in', async () => {
    for (const [path, lang] of [['/my-data', 'es'], ['/en/my-data', 'en']] as const) {
      const r = await get(path, 'learner@academia.example');
      expect(r.status, path).toBe(200);
      const html = await r.text();
      expect(html).toContain(messages(lang).myData.exportTitle);
      expect(html).toContain(messages(lang).myData.deleteTitle);
      expect(html).toContain(messages(lang).myData.keptNone);
    }
    expect(await (await get('/profile', 'learner@academia.example')).text()).toContain('href="/my-data"');
    const visitor = await get('/my-data', null);
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get('location')).toBe('/login?next=%2Fmy-data');
  });

  it('builds the archive in a job; its link serves the owner only, and not once expired', async () => {
    const r = await post('/_actions/privacy.requestExport', 'learner@academia.example', { lang: 'en' });
    expect(r.status).toBe(200);
    // Action answers are devalue-encoded.
    const { exportId } = parse(await r.text()) as { exportId: number };
    const token = built.runtime.exportLinks.token(exportId);
    // Endpoints have no English copy: the link names its language (`?lang=en`), as receipts do.
    const link = `/my-data/download/${token}?lang=en`;
    // Not ready yet: nothing to download.
    expect((await get(link, 'learner@academia.example')).status).toBe(404);
    await built.runtime.scheduler.runDue();

    const mine = await get(link, 'learner@academia.example');
    expect(mine.status).toBe(200);
    expect(mine.headers.get('content-type')).toBe('application/zip');
    expect(zipNames(new Uint8Array(await mine.arrayBuffer()))).toEqual(DEMO_LEARNER_ARCHIVE);

    // Someone else's session with her link: a sentence, nothing served.
    const theirs = await get(link, 'buyer@academia.example');
    expect(theirs.status).toBe(404);
    expect(await theirs.text()).toBe(messages('en').myData.download.notFound);
    const forged = await get(`/my-data/download/${token.slice(0, -2)}xx`, 'learner@academia.example');
    expect(forged.status).toBe(404);
    expect(await forged.text()).toBe(messages('es').myData.download.notFound);
    const nobody = await get(link, null);
    expect(nobody.status).toBe(302);
    expect(nobody.headers.get('location')).toBe(`/login?next=${encodeURIComponent(link)}`);

    await built.db.db.update(s.dataExports).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(s.dataExports.id, exportId));
    const expired = await get(link, 'learner@academia.example');
    expect(expired.status).toBe(410);
    expect(await expired.text()).toBe(messages('en').myData.download.expired);
  });

  it('refuses a wrong password and a second request in words, and schedules one deletion', async () => {
    const who = 'ready@academia.example';
    for (const lang of ['es', 'en'] as const) {
      const wrong = await post('/_actions/privacy.requestDeletion', who, { password: 'NotMine2026', lang });
      expect(wrong.status).toBe(400);
      expect(((await wrong.json()) as { message: string }).message).toBe(messages(lang).myData.wrongPassword);
    }
    const empty = await post('/_actions/privacy.requestDeletion', who, { password: '', lang: 'en' });
    expect(empty.status).toBe(400);
    expect(await pendingDeletion(built.db.db, ids[who]!)).toBeNull();
    // Without JavaScript: the page answers with the sentence where the form is.
    const page = await post('/en/my-data?_action=privacy.requestDeletion', who, { password: 'NotMine2026', lang: 'en' });
    expect(page.status).toBe(400);
    expect(await page.text()).toContain(messages('en').myData.wrongPassword);

    const first = await post('/my-data?_action=privacy.requestDeletion', who, { password: 'Examen2026', lang: 'es' });
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/my-data?scheduled=1');
    const due = await pendingDeletion(built.db.db, ids[who]!);
    expect(due!.getTime()).toBeGreaterThan(Date.now() + 13 * 86_400_000);
    const again = await post('/_actions/privacy.requestDeletion', who, { password: 'Examen2026', lang: 'en' });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { message: string }).message).toMatch(/^Your account is already scheduled for deletion on .+\. No second deletion was scheduled\.$/);
    expect(await built.db.db.select().from(s.jobs).where(eq(s.jobs.key, `account-deletion:${ids[who]}`))).toHaveLength(1);
    expect(await (await get('/en/my-data', who)).text()).toContain('Your account will be deleted on');

    // Logging in cancels it, and says so.
    const login = await post('/_actions/auth.login', null, { email: who, password: 'Examen2026', lang: 'en' });
    expect(login.status).toBe(200);
    expect((parse(await login.text()) as { next: string }).next).toBe('/en/my-data?deletionCancelled=1');
    expect(await pendingDeletion(built.db.db, ids[who]!)).toBeNull();
    expect(await (await get('/en/my-data?deletionCancelled=1', who)).text()).toContain(messages('en').myData.cancelledOnLogin);
  });

  it("refuses the academy's only administrator in words (409), until another account is an administrator", async () => {
    const who = 'admin@academia.example';
    for (const lang of ['es', 'en'] as const) {
      const refused = await post('/_actions/privacy.requestDeletion', who, { password: 'Admin2026', lang });
      expect(refused.status).toBe(409);
      expect(((await refused.json()) as { message: string }).message).toBe(messages(lang).myData.lastAdministrator);
    }
    expect(await pendingDeletion(built.db.db, ids[who]!)).toBeNull();
    // A second administrator: then the first may go.
    await built.db.db.insert(s.staffRoles).values({ userId: ids['buyer@academia.example']!, role: 'administrator' });
    try {
      const first = await post('/_actions/privacy.requestDeletion', who, { password: 'Admin2026', lang: 'en' });
      expect(first.status).toBe(200);
      expect(await pendingDeletion(built.db.db, ids[who]!)).not.toBeNull();
    } finally {
      await built.db.db.delete(s.staffRoles).where(eq(s.staffRoles.userId, ids['buyer@academia.example']!));
      await built.db.db.delete(s.jobs).where(eq(s.jobs.key, `account-deletion:${ids[who]}`));
    }
  });

  it('counts deletion requests per account: past the limit, 429 in words', async () => {
    const who = 'ibo.rutas@academia.example';
    const answers: number[] = [];
    for (let i = 0; i < 6; i++) answers.push((await post('/_actions/privacy.requestDeletion', who, { password: `Wrong${i}2026`, lang: 'en' })).status);
    expect(answers).toEqual([400, 400, 400, 400, 400, 429]);
    expect(await pendingDeletion(built.db.db, ids[who]!)).toBeNull();
  });
});

describe.skipIf(!siteBuilt)('a deleted account’s certificate', () => {
  let built: BuiltSite;
  beforeAll(async () => {
    built = await startBuiltSite();
  });
  afterAll(() => built?.close());

  it('stays verifiable with the course and date and no name, even where its page was kept', async () => {
    const code = 'ACAD-GRAD-2026-0000-0002';
    const before = await (await fetch(`${built.base}/en/verify/${code}`)).text();
    expect(before).toContain('Mateo');
    await fetch(`${built.base}/en/verify/${code}`); // kept by now
    const [u] = await built.db.db.select({ id: s.users.id }).from(s.users).where(eq(s.users.email, 'graduate@academia.example'));
    const now = Date.now();
    expect((await requestDeletion(built.db.db, { userId: u!.id, password: 'Gradua2026', now: new Date(now - 14 * 86_400_000 - 1000) })).status).toBe('scheduled');
    await built.runtime.scheduler.runDue();
    const after = await fetch(`${built.base}/en/verify/${code}`);
    expect(after.status).toBe(200);
    const html = await after.text();
    expect(html).not.toContain('Mateo');
    expect(html).not.toContain('Gutiérrez');
    expect(html).toContain(messages('en').certificates.verify.validTitle);
    expect(html).toContain(code);
    expect(html).toContain(messages('en').certificates.verify.signatureValid);
  });
});
