/**
 * The back office's dashboard figures through the built site: the administrator sees every figure, an
 * editor neither the revenue nor the support count, finance the revenue and support the open messages;
 * the page is never stored (no-store); and today's new learners go up by one when a learner registers.
 * Needs `npm run build`.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../src/lib/db/schema';
import { seedStaff } from '../src/lib/staff/staff.server';
import type { Client } from '../tests/e2e/support/http';
import { PEOPLE, registrationForm } from '../tests/e2e/support/seed';
import { ADMIN_FACTOR, EDITOR } from '../tests/e2e/support/staff';
import { siteBuilt, startBuiltSite, type BuiltSite } from './built-site.testing';

if (!siteBuilt) console.warn('The dashboard tests are skipped: they need a build (`npm run build`).');

const FACTOR = { secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', recoveryCodes: ['abcd-efgh-jkmn-pqrs', 'abcd-efgh-jkmn-pqrt', 'abcd-efgh-jkmn-pqrv'] };

/** The figures a dashboard page shows, in order (`data-figure` of its cards). */
const figuresOf = (html: string) => [...html.matchAll(/<li class="figure-card" data-figure="([a-zA-Z]+)"/g)].map((m) => m[1]);
/** The value of `figure`'s first card (today's, for a period figure). */
const valueOf = (html: string, figure: string) => /data-figure="([a-zA-Z]+)"[^>]*>[\s\S]*?class="figure-value"[^>]*>([^<]*)</.exec(html.slice(html.indexOf(`data-figure="${figure}"`)))?.[2];

describe.skipIf(!siteBuilt)('the dashboard figures, through the site', () => {
  let built: BuiltSite;

  /** A staff member with a proved second factor (an unused recovery code). */
  const staff = async (email: string, password: string, code: string): Promise<Client> => {
    const c = await built.loggedInClient(email, password, 'en');
    const r = await c.post('/_actions/staff.proveCode', { form: { code, lang: 'en' } });
    expect(r.status, r.body).toBe(200);
    return c;
  };
  const grant = async (email: string, roles: ('editor' | 'finance' | 'support')[]) => {
    const [row] = await built.db.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    await seedStaff(built.db.db, row!.id, roles, FACTOR);
  };

  beforeAll(async () => {
    built = await startBuiltSite();
  }, 120_000);
  afterAll(async () => {
    await built?.close();
  });

  it('shows the administrator every figure, today and this month, never stored', async () => {
    const admin = await staff(PEOPLE.admin.email, PEOPLE.admin.password, ADMIN_FACTOR.recoveryCodes.at(-1)!);
    const page = await admin.get('/en/admin');
    expect(page.status).toBe(200);
    expect(page.headers['cache-control']).toContain('no-store');
    const all = ['newLearners', 'activeLearners', 'completions', 'revenue'];
    expect(figuresOf(page.body)).toEqual([...all, ...all, 'openSupport']);
    expect(page.body).toContain('<h3 id="figures-day"');
    expect(valueOf(page.body, 'revenue')).toMatch(/^\$\d[\d,]*\.\d\d$/);
    const spanish = await admin.get('/admin');
    expect(spanish.body).toContain('Estudiantes nuevos');
    expect(spanish.body).toContain('Mensajes de soporte abiertos');
  });

  it('hides the revenue and the support count from an editor, the support count from finance, the revenue from support', async () => {
    await grant(EDITOR.email, ['editor']);
    const editor = await staff(EDITOR.email, EDITOR.password, FACTOR.recoveryCodes[0]!);
    const page = await editor.get('/en/admin');
    expect(page.status).toBe(200);
    const shared = ['newLearners', 'activeLearners', 'completions'];
    expect(figuresOf(page.body)).toEqual([...shared, ...shared]);
    expect(page.body).not.toContain('Revenue');
    expect(page.body).not.toContain('Open support messages');

    await grant(PEOPLE.buyer.email, ['finance']);
    const finance = await staff(PEOPLE.buyer.email, PEOPLE.buyer.password, FACTOR.recoveryCodes[1]!);
    expect(figuresOf((await finance.get('/en/admin')).body)).toEqual([...shared, 'revenue', ...shared, 'revenue']);

    await grant(PEOPLE.learner.email, ['support']);
    const support = await staff(PEOPLE.learner.email, PEOPLE.learner.password, FACTOR.recoveryCodes[2]!);
    expect(figuresOf((await support.get('/en/admin')).body)).toEqual([...shared, ...shared, 'openSupport']);
  });

  it('counts a learner who registers among today’s new learners at once', async () => {
    const admin = await staff(PEOPLE.admin.email, PEOPLE.admin.password, ADMIN_FACTOR.recoveryCodes.at(-2)!);
    const count = async () => Number((valueOf((await admin.get('/en/admin')).body, 'newLearners') ?? '').replace(/,/g, ''));
    const before = await count();
    expect(Number.isInteger(before)).toBe(true);
    const visitor = built.client();
    const r = await visitor.post('/_actions/auth.register', { form: { ...registrationForm(`panel.${Date.now()}@example.com`), lang: 'en' } });
    expect(r.status, r.body).toBe(200);
    expect(await count()).toBe(before + 1);
  });
});
