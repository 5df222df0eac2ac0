/**
 * The business page's reads on the seeded database: a session knows the IBO its account owns, the
 * page's gate reads the IBO as stored now (a suspension counts at once), an active IBO's share kit
 * links only the courses a visitor may open, and the QR downloads are valid images of the link, or a
 * refusal in words.
 */
import { eq } from 'drizzle-orm';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../db/testing';
import type { DbHandle } from '../db/client';
import * as s from '../db/schema';
import { loadCatalog } from '../catalog';
import { createSession, readSession } from '../identity/session.server';
import { sessionSummary } from '../identity/account';
import { businessPageView, loadBusinessGate } from './business.server';
import { qrAnswer } from './qr-answer.server';

const databases = await testDatabases();
const ORIGIN = 'https://academia.example';

describe.each(databases)("an IBO's business page ($name)", (database) => {
  let handle: DbHandle;
  const idOf = async (email: string) => (await handle.db.select({ id: s.users.id }).from(s.users).where(eq(s.users.email, email)))[0]!.id;
  const sessionOf = async (email: string) => readSession(handle.db, (await createSession(handle.db, { kind: 'user', userId: await idOf(email) })).token);
  const iboSession = async (code: string) => {
    const [ibo] = await handle.db.select({ id: s.ibos.id }).from(s.ibos).where(eq(s.ibos.code, code));
    return readSession(handle.db, (await createSession(handle.db, { kind: 'ibo', iboId: ibo!.id })).token);
  };
  const page = async (session: Awaited<ReturnType<typeof readSession>>, locale: 'es' | 'en' = 'es') => businessPageView(await loadBusinessGate(handle.db, session), () => loadCatalog(handle.db), ORIGIN, locale);
  const qr = (session: Awaited<ReturnType<typeof readSession>>, format: 'png' | 'svg', lang = 'en') =>
    qrAnswer({ url: new URL(`${ORIGIN}/mybusiness/qr.${format}?lang=${lang}`), headers: new Headers(), session, db: handle.db, origin: ORIGIN }, format);

  beforeAll(async () => {
    handle = await database.create({ seed: true });
  });
  afterAll(async () => {
    await handle.close();
  });

  it('reads the IBO an account owns into its session, and its menu links my business', async () => {
    const owner = await sessionOf('ibo.horizonte@academia.example');
    expect(owner?.ownIbo).toMatchObject({ code: 'HORIZONTE01', status: 'active' });
    expect(sessionSummary(owner)).toMatchObject({ kind: 'user', business: true });
    expect((await sessionOf('ibo.rutas@academia.example'))?.ownIbo).toMatchObject({ code: 'RUTAS99', status: 'suspended' });
    const learner = await sessionOf('learner@academia.example');
    expect(learner?.ownIbo).toBeUndefined();
    expect(sessionSummary(learner)).not.toHaveProperty('business');
    // A session opened with the IBO's code is not the IBO's account.
    expect((await iboSession('HORIZONTE01'))?.ownIbo).toBeUndefined();
  });

  it("gives an active IBO's owner the share kit: links in both languages, the courses a visitor may open, the QR code", async () => {
    const view = await page(await sessionOf('ibo.horizonte@academia.example'));
    expect(view.gate.kind).toBe('owner');
    expect(view.kit?.messages.es.url).toBe(`${ORIGIN}/HORIZONTE01`);
    expect(view.kit?.messages.en.url).toBe(`${ORIGIN}/en/HORIZONTE01`);
    const ids = view.kit!.courses.map((c) => c.id);
    expect(ids).toContain(1);
    expect(ids).toContain(6);
    // Buyers-only courses (10, 16) and the unlisted test course (12) are not shared.
    for (const hidden of [10, 12, 16]) expect(ids).not.toContain(hidden);
    expect(view.kit!.courses.find((c) => c.id === 6)?.urls.es).toBe(`${ORIGIN}/HORIZONTE01?course=6`);
    expect(view.qrSvg).toMatch(/^<svg role="img" aria-label="[^"]*HORIZONTE01"/);
  });

  it("shows a suspended IBO's owner the notice and nothing else, and counts a suspension at once", async () => {
    const rutas = await page(await sessionOf('ibo.rutas@academia.example'));
    expect(rutas).toMatchObject({ gate: { kind: 'suspended' }, kit: null, qrSvg: null });
    // Mundo's session was read while it was active; the page reads the IBO as it is now.
    const mundo = await sessionOf('ibo.mundo@academia.example');
    await handle.db.update(s.ibos).set({ status: 'suspended' }).where(eq(s.ibos.code, 'MUNDO2026'));
    try {
      expect((await page(mundo)).gate.kind).toBe('suspended');
      expect((await qr(mundo, 'png')).status).toBe(403);
    } finally {
      await handle.db.update(s.ibos).set({ status: 'active' }).where(eq(s.ibos.code, 'MUNDO2026'));
    }
  });

  it('refuses a learner (403), an IBO session (401) and sends a visitor to log in', async () => {
    expect((await page(await sessionOf('learner@academia.example'))).gate).toEqual({ kind: 'refused', status: 403, reason: 'notOwner' });
    expect((await page(await iboSession('HORIZONTE01'))).gate).toEqual({ kind: 'refused', status: 401, reason: 'iboSession' });
    expect((await page(null)).gate).toEqual({ kind: 'login' });
  });

  it('answers the PNG and the SVG QR code of the link to the owner only, never cacheable', async () => {
    const owner = await sessionOf('ibo.horizonte@academia.example');
    const png = await qr(owner, 'png', 'es');
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(png.headers.get('cache-control')).toBe('private, no-store');
    expect(png.headers.get('content-disposition')).toBe('attachment; filename="HORIZONTE01-qr.png"');
    const image = PNG.sync.read(Buffer.from(await png.arrayBuffer()));
    expect(jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data).toBe(`${ORIGIN}/HORIZONTE01`);
    const svg = await qr(owner, 'svg', 'en');
    expect(svg.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(await svg.text()).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*viewBox="0 0 \d+ \d+"/);
  });

  it('refuses the QR code with a sentence in the asked language: 401 without an account, 403 to a learner or a suspended IBO', async () => {
    const cases = [
      [null, 401, 'Log in'],
      [await iboSession('HORIZONTE01'), 401, 'IBO code'],
      [await sessionOf('learner@academia.example'), 403, 'no IBO code'],
      [await sessionOf('ibo.rutas@academia.example'), 403, 'suspended'],
    ] as const;
    for (const [session, status, words] of cases) {
      for (const format of ['png', 'svg'] as const) {
        const r = await qr(session, format);
        expect(r.status).toBe(status);
        expect(r.headers.get('content-type')).toBe('text/plain; charset=utf-8');
        expect(r.headers.get('cache-control')).toBe('private, no-store');
        expect(await r.text()).toContain(words);
      }
    }
    expect(await (await qr(null, 'png', 'es')).text()).toContain('Inicia sesión');
  });
  it("gives HORIZONTE01's demo a business to try: its sponsored IBO, visits, people at every stage, and a commission in every state", async () => {
    const { iboPeople } = await import('./people.server');
    const { iboSales, iboCommissionTotals } = await import('../commissions/commissions.server');
    const [horizonte] = await handle.db.select().from(s.ibos).where(eq(s.ibos.code, 'HORIZONTE01'));
    const [mundo] = await handle.db.select().from(s.ibos).where(eq(s.ibos.code, 'MUNDO2026'));
    expect(mundo!.sponsorIboId).toBe(horizonte!.id);
    const people = await iboPeople(handle.db, horizonte!.id, { show: 'all', page: 1, q: '' });
    expect(people.lines.map((l) => `${l.firstName} ${l.lastName}`).sort()).toEqual(['Jorge Peña', 'Lucía Gómez', 'Marta Ruiz', 'Pedro Salas', 'Sara León']);
    expect(people.counts).toMatchObject({ stuck: 1, finished: 2, passed: 1, bought: 1 });
    const sales = await iboSales(handle.db, horizonte!.id, {});
    expect(new Set(sales.sales.flatMap((o) => o.lines.map((l) => l.state)))).toEqual(new Set(['pending', 'approved', 'paid', 'cancelled', 'reversed']));
    const totals = await iboCommissionTotals(handle.db, horizonte!.id, new Date());
    expect(totals.pending).toBeGreaterThan(0);
    expect(totals.approved).toBeGreaterThan(0);
    expect(totals.reversed).toBeLessThan(0);
    expect(totals.paid).toBeGreaterThan(0);
  });
});
