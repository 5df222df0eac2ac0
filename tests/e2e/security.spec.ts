import { expect, outboxMail, test } from './fixtures';
import { Client, loopback } from './support/http';

/**
 * Pages that hydrate forms and the player run under our Content-Security-Policy without the browser
 * reporting a single violation (an attempted eval, an inline handler, a foreign source): a violation is
 * either a broken feature or a DevTools issue that costs the page its best-practices score.
 */
// One page visits each in turn (a browser context each would cost more than the check): every load
// starts a new document, with its own list of violations.
test('no Content-Security-Policy violation on /, /login, /register, /contact-us, /en/contact-us, /courses-details/1', async ({ page }) => {
  await page.addInitScript(() => {
    (window as unknown as { cspViolations: string[] }).cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      (window as unknown as { cspViolations: string[] }).cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
    );
  });
  for (const url of ['/', '/login', '/register', '/contact-us', '/en/contact-us', '/courses-details/1']) {
    await test.step(`no Content-Security-Policy violation on ${url}`, async () => {
      await page.goto(url, { waitUntil: 'networkidle' });
      // Forms validate on input: use one so every schema a page ships has run.
      const email = page.getByRole('textbox', { name: /correo|e-mail/i }).first();
      if (await email.count()) await email.fill('a@b.co');
      expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations), url).toEqual([]);
    });
  }
});

/** The policy's script sources: what decides whether an inline script runs. */
function scriptSources(policy: string | undefined): string[] {
  const directives = (policy ?? '').split(';').map((d) => d.trim().split(/\s+/));
  return (directives.find(([name]) => name === 'script-src-elem') ?? directives.find(([name]) => name === 'script-src') ?? []).slice(1);
}

test('no page lets an inline script run without its hash: no unsafe-inline for scripts', async ({ page, request }) => {
  for (const url of ['/', '/about-us', '/en/about-us', '/courses', '/courses-details/1', '/en/login', '/no-such-page', '/api/search?q=vision']) {
    const r = await request.get(url);
    const sources = scriptSources(r.headers()['content-security-policy']);
    expect(sources, url).toContain("'self'");
    expect(sources, url).not.toContain("'unsafe-inline'");
  }
  // A script that found its way into a page (say, through an unescaped field) does not run.
  await page.addInitScript(() => {
    (window as unknown as { blocked: string[] }).blocked = [];
    document.addEventListener('securitypolicyviolation', (e) => (window as unknown as { blocked: string[] }).blocked.push(e.violatedDirective));
  });
  await page.goto('/courses-details/1', { waitUntil: 'networkidle' });
  await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.injected = true';
    document.body.append(s);
    const b = document.createElement('button');
    b.setAttribute('onclick', 'window.injected = true');
    document.body.append(b);
    b.click();
  });
  await expect.poll(() => page.evaluate(() => (window as unknown as { blocked: string[] }).blocked.length)).toBeGreaterThanOrEqual(2);
  expect(await page.evaluate(() => (window as unknown as { injected?: boolean }).injected)).toBeUndefined();
});

test('a foreign Host header is refused and never reaches a page, the page cache or an e-mail (Trust #4, #5)', async ({ baseURL }) => {
  const c = new Client(baseURL!, loopback(121));
  try {
    const path = `/en/courses-details/8?poison=${Date.now()}`;
    for (const host of ['evil.example', `evil.example:${new URL(baseURL!).port}`, '127.0.0.1.evil.example']) {
      const poisoned = await c.get(path, { headers: { host }, noCookies: true });
      expect(poisoned.status, host).toBe(421);
      expect(poisoned.body).toBe('Unknown address: this academy does not answer to that host name.');
      expect(poisoned.body).not.toContain('evil');
    }
    // Forwarded headers from a client are not believed either (no TRUST_PROXY here).
    const forwarded = await c.get(path, { headers: { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' }, noCookies: true });
    expect(forwarded.status).toBe(200);
    const kept = await c.get(path, { noCookies: true });
    expect(kept.headers['x-page-cache']).toBe('hit');
    for (const r of [forwarded, kept]) {
      expect(r.body).not.toContain('evil.example');
      expect(r.body).toContain(`<link rel="canonical" href="${baseURL}/en/courses-details/8"`);
      expect(r.body).toContain(`<meta property="og:image" content="${baseURL}/images/og-default.png"`);
    }
    // The password-reset link names the academy, never the Host or X-Forwarded-Host a stranger sent.
    const email = `host.${Date.now()}@example.com`;
    const password = 'Anfitrion2026';
    const registered = await c.post('/_actions/auth.register', {
      form: { name: 'Host', lastName: 'Header', email, confirmEmail: email, gender: 'other', birthDay: '1', birthMonth: '1', birthYear: '1990', password, confirmPassword: password, lang: 'en' },
    });
    expect(registered.status, registered.body.slice(0, 200)).toBe(200);
    c.cookies.clear();
    const refused = await c.post('/_actions/auth.requestReset', { form: { email, lang: 'en' }, headers: { host: 'evil.example', origin: 'http://evil.example' } });
    expect(refused.status).toBe(421);
    const sent = await c.post('/_actions/auth.requestReset', { form: { email, lang: 'en' }, headers: { 'x-forwarded-host': 'evil.example' } });
    expect(sent.status, sent.body.slice(0, 200)).toBe(200);
    await expect.poll(() => outboxMail(email, 'reset-password'), { timeout: 10_000 }).toBeTruthy();
    const mail = (await outboxMail(email, 'reset-password'))!;
    expect(mail).not.toContain('evil.example');
    expect(mail).toContain(`${baseURL}/en/reset-password?token=`);
  } finally {
    c.close();
  }
});

test('a change from the same host over another scheme or port is refused, in the visitor’s language', async ({ baseURL }) => {
  const c = new Client(baseURL!, loopback(122));
  try {
    const url = new URL(baseURL!);
    for (const origin of [`https://${url.host}`, `http://${url.hostname}:${Number(url.port) + 1}`, 'null']) {
      const r = await c.post('/_actions/cart.add', { form: { kind: 'book', id: '1', lang: 'en' }, headers: { origin, 'accept-language': 'en' } });
      expect(r.status, origin).toBe(403);
      expect(r.body).toBe('Request refused: changes can only be sent from the academy itself.');
    }
    expect((await c.post('/_actions/cart.add', { form: { kind: 'book', id: '1', lang: 'en' } })).status).toBe(200);
  } finally {
    c.close();
  }
});

test('every answer carries a request id, and the error page shows it (Trust #7)', async ({ page, request }) => {
  const ids = new Set<string>();
  for (const url of ['/', '/about-us', '/courses', '/api/search?q=vision', '/no-such-page', '/healthz']) {
    const id = (await request.get(url, { headers: { 'x-request-id': 'chosen-by-client' } })).headers()['x-request-id'];
    expect(id, url).toMatch(/^[A-Za-z0-9_-]{16}$/);
    ids.add(id!);
  }
  expect(ids.size).toBe(6);
  const response = await page.goto('/en/500');
  expect(response?.status()).toBe(500);
  const id = response!.headers()['x-request-id']!;
  await expect(page.getByText(`Error reference: ${id}`)).toBeVisible();
});
