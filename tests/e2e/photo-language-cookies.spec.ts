/**
 * The profile photo, the preferred language and the cookie notice, as a person meets them: uploads
 * with and without JavaScript, every bad file refused in words with a 4xx and nothing kept, the photo
 * re-encoded and shown in the header; a chosen language used for the mails (reset, address confirmation and change) and after logging in; the
 * notice in both languages, closed for good with or without JavaScript without changing the shared page
 * HTML, and its list of cookies the very cookies a journey through the site receives.
 */
import sharp from 'sharp';
import { imageBomb } from '../../src/lib/testing/images';
import { expect, expectNoSeriousViolations, outboxMail, test, type Page } from './fixtures';

let n = 0;
const unique = () => `${Date.now()}.${process.pid}.${++n}.${Math.floor(Math.random() * 1e6)}`;

async function newLearner(page: Page, baseURL: string) {
  const email = `foto.${unique()}@example.com`;
  const response = await page.request.post('/_actions/auth.register', {
    headers: { origin: baseURL },
    form: { name: 'Nora', lastName: 'Quintero', email, confirmEmail: email, gender: 'female', birthDay: '7', birthMonth: '4', birthYear: '1990', password: 'Perfil2026', confirmPassword: 'Perfil2026', lang: 'es' },
  });
  expect(response.status()).toBe(200);
  return { email, password: 'Perfil2026' };
}

const photoJpeg = () => sharp({ create: { width: 800, height: 500, channels: 3, background: { r: 20, g: 120, b: 200 } } }).jpeg({ quality: 90 }).toBuffer();

const BAD = [
  { what: 'a 20 MB photo', file: () => ({ name: 'grande.jpg', mimeType: 'image/jpeg', buffer: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(20 * 1024 * 1024)]) }), status: 413, es: 'demasiado grande', en: 'too large' },
  { what: 'a PDF renamed .jpg', file: () => ({ name: 'foto.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('%PDF-1.7\n1 0 obj << >> endobj\n%%EOF') }), status: 415, es: 'no es una foto JPEG, PNG o WebP', en: 'is not a JPEG, PNG or WebP photo' },
  { what: 'an SVG with a script', file: () => ({ name: 'foto.svg', mimeType: 'image/svg+xml', buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>') }), status: 415, es: 'no es una foto JPEG, PNG o WebP', en: 'is not a JPEG, PNG or WebP photo' },
  { what: 'a GIF (a type we do not take)', file: () => ({ name: 'foto.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a\u0001\u0000\u0001\u0000\u0000\u0000\u0000;') }), status: 415, es: 'no es una foto JPEG, PNG o WebP', en: 'is not a JPEG, PNG or WebP photo' },
  { what: 'an image bomb', file: async () => ({ name: 'bomba.png', mimeType: 'image/png', buffer: await imageBomb(100_000) }), status: 400, es: 'demasiados píxeles', en: 'too many pixels' },
] as const;

test.describe('profile photo', () => {
  test('bad files: a sentence in the page language, a 4xx, and no photo kept', async ({ page, baseURL }) => {
    await newLearner(page, baseURL!);
    for (const bad of BAD) {
      for (const locale of ['es', 'en'] as const) {
        const prefix = locale === 'en' ? '/en' : '';
        const r = await page.request.post(`${prefix}/profile?_action=account.setPhoto`, { headers: { origin: baseURL! }, multipart: { lang: locale, photo: await bad.file() } });
        expect(r.status(), `${bad.what} (${locale})`).toBe(bad.status);
        expect(await r.text(), `${bad.what} (${locale})`).toContain(bad[locale]);
      }
    }
    // A good photo with a square that does not fit inside it: refused in words, nothing kept.
    for (const [locale, words] of [['es', 'El recorte no cabe en la foto'], ['en', 'The crop does not fit inside the photo']] as const) {
      const prefix = locale === 'en' ? '/en' : '';
      const r = await page.request.post(`${prefix}/profile?_action=account.setPhoto`, {
        headers: { origin: baseURL! },
        multipart: { lang: locale, cropX: '500', cropY: '0', cropSize: '400', photo: { name: 'me.jpg', mimeType: 'image/jpeg', buffer: await photoJpeg() } },
      });
      expect(r.status(), locale).toBe(400);
      expect(await r.text()).toContain(words);
    }
    // The RPC answers the same way.
    const rpc = await page.request.post('/_actions/account.setPhoto', { headers: { origin: baseURL! }, multipart: { lang: 'en', photo: await BAD[1].file() } });
    expect(rpc.status()).toBe(415);
    expect((await rpc.json()).message).toContain('not a JPEG, PNG or WebP');
    await page.goto('/en/profile');
    await expect(page.locator('.profile img')).toHaveCount(0);
  });

  for (const js of [true, false]) {
    test(`a good photo ${js ? 'with' : 'without'} JavaScript is re-encoded to a 256 px WebP square, shown in the header, and private`, async ({ browser, baseURL }) => {
      const context = await browser.newContext({ javaScriptEnabled: js });
      const page = await context.newPage();
      await newLearner(page, baseURL!);
      await page.goto('/en/profile');
      const upload = await photoJpeg();
      // A file chosen before the form hydrates would never reach its preview: wait for every island.
      if (js) await page.waitForFunction(() => [...document.querySelectorAll('astro-island')].every((island) => !island.hasAttribute('ssr')));
      await page.getByLabel('Choose a photo').setInputFiles({ name: 'me.jpg', mimeType: 'image/jpeg', buffer: upload });
      if (js) await expect(page.locator('.photo-preview img')).toBeVisible();
      await page.getByRole('button', { name: 'Save the photo' }).click();
      await expect(page).toHaveURL(/\/en\/profile\?photo=1$/);
      await expect(page.locator('p.saved')).toHaveText('Your photo has been saved');
      const src = await page.locator('.profile img').getAttribute('src');
      expect(src).toMatch(/^\/profile\/photo\/\d+-[0-9a-f]{20}\.webp$/);
      const served = await page.request.get(src!);
      expect(served.status()).toBe(200);
      expect(served.headers()['content-type']).toBe('image/webp');
      expect(served.headers()['x-content-type-options']).toBe('nosniff');
      expect(served.headers()['cache-control']).toContain('private');
      const bytes = await served.body();
      expect(Buffer.compare(bytes, upload)).not.toBe(0);
      expect(await sharp(bytes).metadata()).toMatchObject({ format: 'webp', width: 256, height: 256 });
      if (js) {
        // The header's account menu shows the photo instead of the initials.
        await page.goto('/en/courses');
        await expect(page.locator('header img.avatar').first()).toHaveAttribute('src', src!);
      }
      // Nobody else gets it: another learner and a visitor.
      const other = await browser.newContext();
      const otherPage = await other.newPage();
      await newLearner(otherPage, baseURL!);
      expect((await otherPage.request.get(src!)).status()).toBe(404);
      const visitor = await browser.newContext();
      expect((await visitor.request.get(src!, { maxRedirects: 0 })).status()).toBe(302);
      await Promise.all([context.close(), other.close(), visitor.close()]);
    });
  }
});

test.describe('profile photo crop and removal', () => {
  test('the square moved by keyboard and pointer is the one kept; removing the photo brings the initials back', async ({ page, baseURL }) => {
    await newLearner(page, baseURL!);
    await page.goto('/en/profile');
    await page.waitForFunction(() => [...document.querySelectorAll('astro-island')].every((island) => !island.hasAttribute('ssr')));
    // Red on the left half, blue on the right: 800 × 400.
    const half = (r: number, b: number) => sharp({ create: { width: 400, height: 400, channels: 3, background: { r, g: 0, b } } }).png().toBuffer();
    const upload = await sharp({ create: { width: 800, height: 400, channels: 3, background: { r: 0, g: 0, b: 0 } } })
      .composite([
        { input: await half(230, 0), left: 0, top: 0 },
        { input: await half(0, 230), left: 400, top: 0 },
      ])
      .jpeg({ quality: 92 })
      .toBuffer();
    await page.getByLabel('Choose a photo').setInputFiles({ name: 'me.jpg', mimeType: 'image/jpeg', buffer: upload });
    const frame = page.getByRole('group', { name: 'Photo crop' });
    await expect(frame).toBeVisible();
    await expectNoSeriousViolations(page, '.photo-form');
    const field = (name: string) => page.locator(`input[name="${name}"]`);
    // It starts as the largest square in the centre.
    await expect(field('cropX')).toHaveValue('200');
    await expect(field('cropSize')).toHaveValue('400');
    // The keyboard: right as far as it goes (the blue half).
    await frame.focus();
    for (let i = 0; i < 12; i++) await frame.press('ArrowRight');
    await expect(field('cropX')).toHaveValue('400');
    // The pointer: dragged all the way left (the red half), then made smaller with "-" around its centre.
    // `hover` waits until the frame itself takes the pointer at its centre (in view, nothing over it).
    await frame.hover();
    const box = (await frame.boundingBox())!;
    await page.mouse.down();
    await page.mouse.move(box.x - 900, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await expect(field('cropX')).toHaveValue('0');
    for (let i = 0; i < 10; i++) await frame.press('-');
    await expect(field('cropSize')).toHaveValue('200');
    await expect(page.getByText('A square of 200 pixels, 100 from the left edge and 100 from the top.')).toBeAttached();
    await page.getByRole('button', { name: 'Save the photo' }).click();
    await expect(page).toHaveURL(/\/en\/profile\?photo=1$/);
    const src = (await page.locator('.profile img').getAttribute('src'))!;
    const kept = await (await page.request.get(src)).body();
    const { data } = await sharp(kept).extract({ left: 128, top: 128, width: 1, height: 1 }).raw().toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(180);
    expect(data[2]).toBeLessThan(80);

    // Removed: no photo on the profile nor in the header, the initials instead, and the file is gone.
    await page.getByRole('button', { name: 'Remove the photo' }).click();
    await expect(page).toHaveURL(/\/en\/profile\?photo=removed$/);
    await expect(page.getByText('Your photo was removed: the menu shows your initials.')).toBeVisible();
    await expect(page.locator('.profile img')).toHaveCount(0);
    await expect(page.locator('.profile .initials')).toHaveText('NQ');
    await expect(page.getByRole('button', { name: 'Remove the photo' })).toHaveCount(0);
    await expect(page.locator('header img.avatar')).toHaveCount(0);
    expect((await page.request.get(src)).status()).toBe(404);
  });
});

test.describe('preferred language', () => {
  test('chosen on the Spanish profile: the address and reset mails come in it, and logging in lands in it', async ({ browser, baseURL }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const { email, password } = await newLearner(page, baseURL!);
    await page.goto('/profile');
    await page.getByLabel('Idioma preferido').selectOption('en');
    await page.getByRole('button', { name: 'Guardar los cambios' }).click();
    await expect(page.locator('p.saved')).toHaveText('Tu perfil se ha actualizado');
    await expect(page.locator('dl')).toContainText('English');
    // Asked for from Spanish pages, the confirmation link, the address change link and its notice come in English too.
    const headers = { origin: baseURL! };
    expect((await page.request.post('/_actions/account.resendVerification', { headers, form: { lang: 'es' } })).status()).toBe(200);
    const moved = `movida.${unique()}@example.com`;
    expect((await page.request.post('/_actions/account.changeEmail', { headers, form: { email: moved, currentPassword: password, lang: 'es' } })).status()).toBe(200);
    for (const [to, words] of [
      [email, ['Confirm your e-mail address', '/en/confirm-email']],
      [moved, ['Confirm your new e-mail address', '/en/confirm-email']],
      [email, ['Someone with access to your account asked to change its address']],
    ] as const) {
      await expect.poll(async () => (await outboxMail(to, ...words)) !== undefined, { timeout: 15_000, message: `${to}: ${words[0]}` }).toBe(true);
    }
    await context.close();

    // The reset link asked for on the Spanish page is mailed in English, to the English page.
    const visitor = await browser.newContext();
    const v = await visitor.newPage();
    await v.goto('/forgot-password');
    const asked = await v.request.post('/_actions/auth.requestReset', { headers: { origin: baseURL! }, form: { email, lang: 'es' } });
    expect(asked.status()).toBe(200);
    let mail: string | undefined;
    await expect.poll(async () => (mail = await outboxMail(email, 'reset-password')), { timeout: 15_000 }).toBeTruthy();
    expect(mail).toContain('/en/reset-password?token=');
    expect(mail).toContain('Choose a new password');
    expect(mail).not.toContain('Elige una nueva contrase');

    // Logging in from the Spanish login page lands on the English site.
    await v.goto('/login');
    const login = v.locator('form[action*="auth.login"]');
    await expect(login).toHaveAttribute('data-enhanced', 'true');
    await login.getByLabel('Correo electrónico').fill(email);
    await login.getByLabel('Contraseña', { exact: true }).fill(password);
    await login.getByRole('button', { name: 'Iniciar sesión' }).click();
    await expect(v).toHaveURL(/\/en\/?$/);
    await visitor.close();
  });
});

test.describe('cookie notice', () => {
  for (const l of [
    { prefix: '', text: 'Solo usamos las cookies necesarias', close: 'Entendido', link: 'Qué cookies y para qué' },
    { prefix: '/en', text: 'We only use the cookies the site needs', close: 'Got it', link: 'Which cookies and why' },
  ]) {
    test(`shown once (${l.prefix || 'es'}) and closed for good with JavaScript`, async ({ browser }) => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${l.prefix}/about-us`);
      const notice = page.locator('.cookie-notice');
      await expect(notice).toBeVisible();
      await expect(notice).toContainText(l.text);
      await expect(notice.getByRole('link', { name: l.link })).toHaveAttribute('href', `${l.prefix}/privacity#cookies`);
      await notice.getByRole('button', { name: l.close }).click();
      await expect(notice).toBeHidden();
      await page.goto(`${l.prefix}/courses`);
      await expect(page.locator('.cookie-notice')).toBeHidden();
      await context.close();
    });
  }

  test('closed for good without JavaScript, and the shared page HTML does not change', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/en/courses');
    const before = await page.request.get('/en/courses');
    await expect(page.locator('.cookie-notice')).toBeVisible();
    await page.locator('.cookie-notice').getByRole('button', { name: 'Got it' }).click();
    await expect(page).toHaveURL(/\/en\/courses$/);
    await expect(page.locator('.cookie-notice')).toBeHidden();
    await page.goto('/about-us');
    await expect(page.locator('.cookie-notice')).toBeHidden();
    expect((await context.cookies()).find((c) => c.name === 'notice')).toMatchObject({ value: 'seen', path: '/' });
    // The same page HTML (from the shared page cache) with and without the cookie: the browser hides it.
    const after = await page.request.get('/en/courses');
    expect(after.headers()['x-page-cache']).toBe('hit');
    expect(await after.text()).toBe(await before.text());
    expect((await page.request.get('/cookie-notice.css')).headers()['cache-control']).toContain('private');
    expect(await (await page.request.get('/cookie-notice.css')).text()).toContain('display:none');
    void baseURL;
    await context.close();
  });

  test("the policy's list of cookies is the cookies a journey through the site receives", async ({ browser, baseURL }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto('/en/privacity#cookies');
    const codes = page.locator('article table tbody tr td:first-child code');
    await expect(codes.first()).toBeVisible();
    const listed = await codes.allTextContents();
    // An IBO's link (ref), a cart (cart), closing the notice (notice), logging in (session).
    await page.goto('/HORIZONTE01');
    expect((await page.request.post('/_actions/cart.add', { form: { kind: 'course', id: '6', lang: 'en' }, headers: { origin: baseURL! } })).status()).toBe(200);
    await page.goto('/en/about-us');
    await page.locator('.cookie-notice').getByRole('button', { name: 'Got it' }).click();
    await newLearner(page, baseURL!);
    const received = [...new Set((await context.cookies()).map((c) => c.name))].sort();
    expect(received).toEqual([...listed].sort());
    await context.close();
  });
});
