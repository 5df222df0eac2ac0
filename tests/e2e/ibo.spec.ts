import { expect, languageTurns, useOwnServer, test, welcomeTest } from './fixtures';

const TEXTS = {
  es: { prefix: '', guest: 'Continuar como invitado con un código IBO', code: 'Código IBO', enter: 'Entrar', required: 'Este campo es requerido', notFound: 'El IBO está suspendido o no existe.', start: 'Empezar el curso', confirm: 'Confirmar', confirmed: '¡Información confirmada con éxito!', invalidEmail: 'Debe ser un correo electrónico válido', found: 'Encontramos a este cliente: puedes confirmar.', email: 'Correo electrónico', name: 'Nombre', last: 'Apellido', notYours: 'Este correo pertenece a un cliente que no es uno de tus prospectos: puede iniciar sesión con su propia cuenta.', tooMany: 'Demasiados intentos. Espera unos minutos e inténtalo de nuevo.', tooManyTitle: 'Demasiados intentos' },
  en: { prefix: '/en', guest: 'Continue as a guest with an IBO code', code: 'IBO code', enter: 'Enter', required: 'This field is requerido', notFound: "The IBO is suspended or doesn't exist.", start: 'Start the course', confirm: 'Confirm', confirmed: 'Information confirmed successfully!', invalidEmail: 'It has to be a valid email', found: 'We found this customer: you can confirm.', email: 'Email', name: 'Name', last: 'Last name', notYours: 'This e-mail belongs to a customer who is not one of your prospects: they can log in with their own account.', tooMany: 'Too many attempts. Wait a few minutes and try again.', tooManyTitle: 'Too many attempts' },
} as const;

const storedIbo = (page: import('@playwright/test').Page) => page.evaluate(() => JSON.parse(localStorage.getItem('ibo') ?? 'null'));

for (const [lang, T] of Object.entries(TEXTS)) {
  const turn = languageTurns(Object.keys(TEXTS), lang, 1);
  if (turn()) welcomeTest(`the welcome modal's guest path checks the IBO code on the server (${lang})`, async ({ page }) => {
    await page.goto(`${T.prefix}/`);
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('link', { name: T.guest }).click();
    const code = dialog.getByLabel(T.code);
    await expect(code).toBeFocused();
    // The form hydrates when the browser is idle: a click before that posts it without JavaScript, to the
    // guest page (that path has journeys of its own). This one is about the modal's own checks.
    await expect(dialog.locator('astro-island:has(form.ibo-code-form)')).not.toHaveAttribute('ssr', '');
    await dialog.getByRole('button', { name: T.enter }).click();
    await expect(dialog.getByRole('alert')).toHaveText(T.required);
    for (const bad of ['NOPE123', 'RUTAS99', '<script>']) {
      await code.fill(bad);
      await dialog.getByRole('button', { name: T.enter }).click();
      await expect(dialog.getByRole('alert')).toHaveText(T.notFound);
    }
    expect(await storedIbo(page)).toBeNull();
    await code.fill('horizonte01');
    const reloaded = page.waitForEvent('load');
    await dialog.getByRole('button', { name: T.enter }).click();
    await reloaded;
    await expect.poll(() => storedIbo(page)).toMatchObject({ companyName: 'Viajes Horizonte S.A.S.', code: 'HORIZONTE01' });
    await expect(page.getByRole('dialog')).toBeHidden();
    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name === 'session');
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Lax');
  });

  // One tab: the refused codes first (they open no session), then the affiliate link that does.
  if (turn()) test(`an invalid or suspended affiliate code goes home with an error alert; an affiliate link opens the home page in the IBO's session and remembers the referral (${lang})`, async ({ page }) => {
    for (const code of ['NOPE9999', 'RUTAS99']) {
      await page.goto(`${T.prefix}/${code}`);
      await expect(page, code).toHaveURL(new RegExp(`${T.prefix}/\\?ibo=invalid$`));
      await expect(page.getByRole('alert'), code).toHaveText(T.notFound);
    }

    const response = await page.goto(`${T.prefix}/MUNDO2026`);
    expect(response?.status()).toBe(200);
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
    await expect(page.getByRole('dialog')).toBeHidden();
    await expect.poll(() => storedIbo(page)).toMatchObject({ companyName: 'Mundo Travel Group', code: 'MUNDO2026' });
    const names = (await page.context().cookies()).map((c) => c.name);
    expect(names).toContain('session');
    expect(names).toContain('ref');
  });

  if (turn()) test(`a prospect is confirmed before an IBO session opens a free course; a registered customer never is (${lang})`, async ({ page, request, baseURL }) => {
    // The IBO registered this prospect before, in another session.
    const own = `propio.${Date.now()}.${lang}@example.com`;
    const headers = { origin: baseURL! };
    expect((await request.post('/_actions/ibo.enter', { form: { code: 'HORIZONTE01', lang }, headers })).status()).toBe(200);
    expect((await request.post('/_actions/ibo.confirmProspect', { form: { firstName: 'Propio', lastName: 'Prospecto', email: own, lang }, headers })).status()).toBe(200);
    await page.goto(`${T.prefix}/HORIZONTE01`);
    await page.goto(`${T.prefix}/courses-details/1`);
    await page.getByRole('button', { name: T.start }).click();
    const dialog = page.getByRole('dialog');
    const confirm = dialog.getByRole('button', { name: T.confirm });
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel(T.email).fill('no-es-un-correo');
    await dialog.getByLabel(T.name, { exact: true }).click();
    await expect(dialog.getByRole('alert').first()).toHaveText(T.invalidEmail);
    await expect(confirm).toBeDisabled();
    // A registered learner is found (yes or no only), but confirming says they are not the IBO's.
    await dialog.getByLabel(T.email).fill('learner@academia.example');
    await dialog.getByLabel(T.name, { exact: true }).click();
    await expect(dialog.getByText(T.found)).toBeVisible();
    await expect(confirm).toBeEnabled();
    await confirm.click();
    await expect(dialog.getByRole('alert').filter({ hasText: T.notYours })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`${T.prefix}/courses-details/1$`));
    expect(await page.evaluate(() => localStorage.getItem('contact'))).toBeNull();
    // The IBO's own prospect, found by e-mail alone, is confirmed and the course opens.
    await dialog.getByLabel(T.email).fill(own.toUpperCase());
    await dialog.getByLabel(T.name, { exact: true }).click();
    await expect(dialog.getByText(T.found)).toBeVisible();
    await confirm.click();
    await expect(page.locator('[data-toast]')).toHaveText(T.confirmed);
    await page.waitForURL(new RegExp(`${T.prefix}/course-tracking/1$`));
    await expect.poll(() => page.evaluate(() => JSON.parse(localStorage.getItem('contact') ?? 'null'))).toMatchObject({ email: own, firstName: 'Propio' });
  });

  if (turn()) test(`an IBO code alone never opens a registered customer’s or another IBO’s prospect’s record (${lang})`, async ({ request, playwright, baseURL }) => {
    const headers = { origin: baseURL! };
    // Another IBO's prospect.
    const mundo = await playwright.request.newContext({ baseURL: baseURL! });
    const theirs = `de.mundo.${Date.now()}.${lang}@example.com`;
    await mundo.post('/_actions/ibo.enter', { form: { code: 'MUNDO2026', lang }, headers });
    expect((await mundo.post('/_actions/ibo.confirmProspect', { form: { firstName: 'Ajeno', lastName: 'Secreto', email: theirs, lang }, headers })).status()).toBe(200);
    await mundo.dispose();

    expect((await request.post('/_actions/ibo.enter', { form: { code: 'HORIZONTE01', lang }, headers })).status()).toBe(200);
    for (const form of [
      { email: 'learner@academia.example' },
      { email: 'Buyer@Academia.Example' },
      { firstName: 'Laura', lastName: 'Méndez', email: 'learner@academia.example' },
      { email: theirs },
      { firstName: 'Otro', lastName: 'Nombre', email: theirs },
    ]) {
      const r = await request.post('/_actions/ibo.confirmProspect', { form: { ...form, lang }, headers });
      expect(r.status(), form.email).toBe(409);
      const body = await r.text();
      expect(JSON.parse(body).message).toBe(T.notYours);
      expect(body, form.email).not.toMatch(/Laura|Méndez|Ajeno|Secreto|"id"|contact/i);
    }
    // The session has no prospect: the course still asks for one, and the player refuses.
    expect(await (await request.get(`${T.prefix}/courses-details/1`)).text()).toContain('data-refusal="prospect"');
    expect((await request.get(`${T.prefix}/course-tracking/1`)).status()).toBe(403);
  });
}

test('a new prospect needs name, last name and e-mail; confirming twice makes one contact and the course opens', async ({ page }) => {
  await page.goto('/MUNDO2026');
  await page.goto('/courses-details/2');
  await page.getByRole('button', { name: 'Empezar el curso' }).click();
  const dialog = page.getByRole('dialog');
  const email = `nuevo.${Date.now()}@example.com`;
  await dialog.getByLabel('Correo electrónico').fill(email);
  await dialog.getByLabel('Nombre', { exact: true }).fill('Nuevo');
  await expect(dialog.getByRole('button', { name: 'Confirmar' })).toBeDisabled();
  await dialog.getByLabel('Apellido').fill('Prospecto');
  await expect(dialog.getByRole('button', { name: 'Confirmar' })).toBeEnabled();
  await dialog.getByRole('button', { name: 'Confirmar' }).click();
  await page.waitForURL(/\/course-tracking\/2$/);
  // The player opens for the IBO session and records the prospect's progress over the socket.
  const player = page.locator('[data-ready="true"]');
  await expect(player).toHaveAttribute('data-connected', 'true');
  await page.locator('video').evaluate((v: HTMLVideoElement) => {
    v.muted = true;
    return v.play();
  });
  await expect(player).toHaveAttribute('data-saved', /@/);
  // The session now has its prospect: the course page says the course can start.
  await page.goto('/courses-details/2');
  await expect(page.locator('.next-step')).toHaveAttribute('data-refusal', 'open');
  // The same confirmation posted again reuses the contact instead of failing.
  const again = await page.request.post('/_actions/ibo.confirmProspect', { form: { firstName: 'Nuevo', lastName: 'Prospecto', email, lang: 'es' }, headers: { origin: new URL(page.url()).origin } });
  expect(again.status()).toBe(200);
});

test('IBO sessions may not open members-only or paid courses, and guests without a session get no prospect form', async ({ page }) => {
  await page.goto('/courses-details/1');
  await expect(page.locator('.next-step')).toHaveAttribute('data-refusal', 'prospect');
  await expect(page.getByRole('link', { name: 'Entrar como invitado' })).toHaveAttribute('href', /\/guest\?next=/);
  // A visitor may also open free courses with an account of their own, and come back here after.
  await expect(page.getByRole('link', { name: 'Crear una cuenta gratis' })).toHaveAttribute('href', `/register?next=${encodeURIComponent('/courses-details/1')}`);
  await page.goto('/HORIZONTE01');
  for (const id of [3, 6]) {
    await page.goto(`/courses-details/${id}`);
    await expect(page.locator('.next-step')).toHaveAttribute('data-refusal', 'login');
    await expect(page.locator('.next-step').getByRole('link', { name: 'Crear una cuenta gratis' })).toHaveAttribute('href', `/register?next=${encodeURIComponent(`/courses-details/${id}`)}`);
  }
});

test('prospect actions refuse requests without an IBO session, cross-site posts and bad input, without a 500', async ({ request, baseURL }) => {
  const origin = { origin: baseURL! };
  const noSession = await request.post('/_actions/ibo.confirmProspect', { form: { firstName: 'A', lastName: 'B', email: 'a@b.co', lang: 'en' }, headers: origin });
  expect(noSession.status()).toBe(401);
  const crossSite = await request.post('/_actions/ibo.enter', { form: { code: 'HORIZONTE01', lang: 'en' }, headers: { origin: 'https://evil.example' } });
  expect(crossSite.status()).toBe(403);
  expect(await crossSite.text()).toBe('Solicitud rechazada: los cambios solo pueden enviarse desde la propia academia.');
  const crossSiteEn = await request.post('/_actions/ibo.enter', { form: { code: 'HORIZONTE01', lang: 'en' }, headers: { origin: 'https://evil.example', 'accept-language': 'en-US,en;q=0.9' } });
  expect(await crossSiteEn.text()).toBe('Request refused: changes can only be sent from the academy itself.');
  for (const code of ['', 'x'.repeat(5000), '../../etc', '<img src=x onerror=alert(1)>']) {
    const r = await request.post('/_actions/ibo.enter', { form: { code, lang: 'en' }, headers: origin });
    expect(r.status(), code.slice(0, 20)).toBeGreaterThanOrEqual(400);
    expect(r.status(), code.slice(0, 20)).toBeLessThan(500);
  }
});

test('prospect confirmations are limited per IBO session, in the page language', async ({ request, baseURL }) => {
  const headers = { origin: baseURL! };
  await request.post('/_actions/ibo.enter', { form: { code: 'MUNDO2026', lang: 'en' }, headers });
  const email = `repetido.${Date.now()}@example.com`;
  for (let i = 0; i < 10; i++) {
    const r = await request.post('/_actions/ibo.confirmProspect', { form: { firstName: 'Re', lastName: 'Petido', email, lang: 'en' }, headers });
    expect(r.status(), `confirmation ${i + 1}`).toBe(200);
  }
  const refused = await request.post('/_actions/ibo.confirmProspect', { form: { firstName: 'Re', lastName: 'Petido', email, lang: 'es' }, headers });
  expect(refused.status()).toBe(429);
  expect((await refused.json()).message).toBe(TEXTS.es.tooMany);
  expect(Number(refused.headers()['retry-after'])).toBeGreaterThan(500);
});

test('control characters in prospect fields get a 400 naming the field, and nothing is created', async ({ request, baseURL }) => {
  const headers = { origin: baseURL! };
  await request.post('/_actions/ibo.enter', { form: { code: 'HORIZONTE01', lang: 'en' }, headers });
  const email = `nulo.${Date.now()}@example.com`;
  for (const [form, text] of [
    [{ firstName: 'Ana\u0000', lastName: 'Ruiz', email }, 'Name field contains characters that are not allowed'],
    [{ firstName: 'Ana', lastName: 'Ru\u0085iz', email }, 'Last name field contains characters that are not allowed'],
    [{ firstName: 'Ana', lastName: 'Ruiz', email: `\u0000${email}` }, 'Email field contains characters that are not allowed'],
  ] as const) {
    const r = await request.post('/_actions/ibo.confirmProspect', { form: { ...form, lang: 'en' }, headers });
    expect(r.status()).toBe(400);
    expect((await r.json()).message).toBe(text);
  }
  const lookup = await request.post('/_actions/ibo.lookup', { data: { email, lang: 'en' }, headers });
  expect(await lookup.text()).toContain('false');
});

test('/guest never sends the browser to another site after a valid code, however `next` is disguised', async ({ page, baseURL }) => {
  const site = new URL(baseURL!).host;
  for (const next of ['/.//evil.example/phish', '/%2e//evil.example', '/..//evil.example']) {
    await page.context().clearCookies();
    await page.goto(`/guest?next=${encodeURIComponent(next)}`);
    // Hydrated: the island sends the code and then follows `next` itself.
    await expect(page.locator('astro-island:has(form.ibo-code-form)')).not.toHaveAttribute('ssr', '');
    await page.getByLabel('Código IBO').fill('HORIZONTE01');
    const navigated = page.waitForEvent('framenavigated', (f) => f === page.mainFrame());
    await page.getByRole('button', { name: 'Entrar' }).click();
    await navigated;
    expect(new URL(page.url()).host, next).toBe(site);
    await page.waitForLoadState('load');
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('ibo') ?? 'null')?.code)).toBe('HORIZONTE01');
  }
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('/guest redirects to this site only, however `next` is disguised', async ({ page, baseURL }) => {
    const site = new URL(baseURL!).host;
    for (const next of ['/.//evil.example/phish', '/%2e//evil.example', '/a/..//evil.example']) {
      await page.goto(`/en/guest?next=${encodeURIComponent(next)}`);
      await page.getByLabel('IBO code').fill('HORIZONTE01');
      const answer = page.waitForResponse((r) => r.request().method() === 'POST');
      await page.getByRole('button', { name: 'Enter' }).click();
      const location = (await answer).headers().location ?? '';
      expect(location.startsWith('//'), `${next} → ${location}`).toBe(false);
      expect(new URL(location, baseURL).host, next).toBe(site);
      await page.waitForLoadState('load');
      expect(new URL(page.url()).host, next).toBe(site);
    }
  });

  test('/guest takes an IBO code and answers errors on the page', async ({ page }) => {
    await page.goto('/en/guest');
    await page.getByLabel('IBO code').fill('RUTAS99');
    await page.getByRole('button', { name: 'Enter' }).click();
    await expect(page.getByRole('alert')).toHaveText("The IBO is suspended or doesn't exist.");
    await page.getByLabel('IBO code').fill('HORIZONTE01');
    await page.getByRole('button', { name: 'Enter' }).click();
    await expect(page).toHaveURL(/\/en\/$/);
    expect((await page.context().cookies()).some((c) => c.name === 'session')).toBe(true);
  });
});

test('real routes win over affiliate codes; what cannot be a code is the 404 page', async ({ page }) => {
  await page.goto('/about-us');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sobre nosotros');
  for (const path of ['/not.a.code', '/no-existe']) {
    // The status is what is asked here (the not-found page itself is proved by not-found.spec.ts).
    const response = await page.request.get(path);
    expect(response.status(), path).toBe(404);
  }
});

test.describe('IBO code guesses and prospect confirmations per address, on a server of its own with the default limits', () => {
  const own = useOwnServer();

  test('prospect confirmations are limited to 30 per address, across sessions', async ({ playwright }) => {
    const headers = { origin: own().baseURL };
    const statuses: number[] = [];
    for (let s = 0; s < 4; s++) {
      const session = await playwright.request.newContext({ baseURL: own().baseURL });
      expect((await session.post('/_actions/ibo.enter', { form: { code: 'MUNDO2026', lang: 'en' }, headers })).status()).toBe(200);
      for (let i = 0; i < (s < 3 ? 10 : 1); i++) {
        const r = await session.post('/_actions/ibo.confirmProspect', { form: { firstName: 'Por', lastName: 'Dirección', email: `dir.${s}.${i}@example.com`, lang: 'en' }, headers });
        statuses.push(r.status());
        if (r.status() === 429) expect((await r.json()).message).toBe(TEXTS.en.tooMany);
      }
      await session.dispose();
    }
    expect(statuses).toEqual([...Array(30).fill(200), 429]);
  });

  test('typed codes and affiliate links share one budget of 20 invalid codes; then every code gets 429 in the visitor’s language', async ({ page, request }) => {
    const headers = { origin: own().baseURL };
    // Valid codes never count.
    for (let i = 0; i < 25; i++) expect((await request.get(`${own().baseURL}/HORIZONTE01`, { maxRedirects: 0 })).status(), `valid ${i + 1}`).toBe(200);
    for (let i = 0; i < 10; i++) {
      expect((await request.post(`${own().baseURL}/_actions/ibo.enter`, { form: { code: `NOPE${i}X`, lang: 'en' }, headers })).status(), `typed ${i + 1}`).toBe(404);
      const link = await request.get(`${own().baseURL}/NOPE${i}Y`, { maxRedirects: 0 });
      expect(link.status(), `link ${i + 1}`).toBe(302);
    }
    // The budget is used up: a valid code is refused too, by both paths, until the window passes.
    const typed = await request.post(`${own().baseURL}/_actions/ibo.enter`, { form: { code: 'HORIZONTE01', lang: 'en' }, headers });
    expect(typed.status()).toBe(429);
    expect((await typed.json()).message).toBe(TEXTS.en.tooMany);
    for (const [lang, T] of Object.entries(TEXTS)) {
      const response = await page.goto(`${own().baseURL}${T.prefix}/MUNDO2026`);
      expect(response?.status(), lang).toBe(429);
      expect(Number(response?.headers()['retry-after']), lang).toBeGreaterThan(60);
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(T.tooManyTitle);
      await expect(page.getByRole('alert')).toHaveText(T.tooMany);
    }
    expect((await page.context().cookies()).some((c) => c.name === 'session')).toBe(false);
  });
});
