/**
 * Pages take their settings from the runtime's configuration, not from the environment: the login's
 * forgot-password link and the forgot-password page follow `FORGOT_PASSWORD_URL` as the configuration
 * read it, and the cart cookie the cart page rewrites is Secure in production over https only.
 * Skipped without a build (`npm run build`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteBuilt, startBuiltSite, type BuiltSite } from './built-site.testing';

if (!siteBuilt) console.warn('The settings-in-pages tests are skipped: they need a build (`npm run build`).');

const EXTERNAL = 'https://accounts.example.com/forgot';

describe.skipIf(!siteBuilt)('pages read their settings from the runtime', () => {
  let built: BuiltSite;

  beforeAll(async () => {
    // Set only in the configuration this site's runtime read: the process's environment has none of it.
    expect(process.env.FORGOT_PASSWORD_URL).toBeUndefined();
    built = await startBuiltSite({ env: { FORGOT_PASSWORD_URL: EXTERNAL, TRUST_PROXY: '1' } });
  });

  afterAll(() => built?.close());

  it('the login links to the configured forgot-password page, and the academy’s own page sends people there', async () => {
    for (const path of ['/login', '/en/login']) {
      const html = await (await fetch(built.base + path)).text();
      expect(html, path).toContain(`href="${EXTERNAL}"`);
    }
    const r = await fetch(`${built.base}/forgot-password`, { redirect: 'manual' });
    expect(r.status).toBe(302);
    expect(r.headers.get('location')).toBe(EXTERNAL);
  });

  it('the cart page rewrites a cart cookie naming an unknown product, Secure only over https in production', async () => {
    const cookie = `cart=${encodeURIComponent(JSON.stringify([{ kind: 'course', id: 2_000_000_000 }]))}`;
    const plain = await fetch(`${built.base}/purchase`, { headers: { cookie } });
    expect(plain.status).toBe(200);
    const over = (r: Response) => r.headers.getSetCookie().find((c) => c.startsWith('cart='));
    expect(over(plain)).toMatch(/^cart=(\[\]|%5B%5D);/);
    expect(over(plain)).not.toMatch(/;\s*Secure/i);
    const secure = await fetch(`${built.base}/purchase`, { headers: { cookie, 'x-forwarded-proto': 'https' } });
    expect(secure.status).toBe(200);
    expect(over(secure)).toMatch(/;\s*Secure/i);
  });
});
