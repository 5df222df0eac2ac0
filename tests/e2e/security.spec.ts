import { expect, test } from './fixtures';

/**
 * Pages that hydrate forms and the player run under our Content-Security-Policy without the browser
 * reporting a single violation (an attempted eval, an inline handler, a foreign source): a violation is
 * either a broken feature or a DevTools issue that costs the page its best-practices score.
 */
for (const url of ['/', '/login', '/register', '/contact-us', '/en/contact-us', '/courses-details/1']) {
  test(`no Content-Security-Policy violation on ${url}`, async ({ page }) => {
    await page.addInitScript(() => {
      (window as unknown as { cspViolations: string[] }).cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as unknown as { cspViolations: string[] }).cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
      );
    });
    await page.goto(url, { waitUntil: 'networkidle' });
    // Forms validate on input: use one so every schema a page ships has run.
    const email = page.getByRole('textbox', { name: /correo|e-mail/i }).first();
    if (await email.count()) await email.fill('a@b.co');
    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
  });
}
