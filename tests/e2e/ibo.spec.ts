import { expect, test, welcomeTest } from './fixtures';

const TEXTS = {
  es: { prefix: '', guest: 'Continuar como invitado con un código IBO', code: 'Código IBO', enter: 'Entrar', required: 'Este campo es requerido', notFound: 'El IBO está suspendido o no existe.', start: 'Empezar el curso', confirm: 'Confirmar', confirmed: '¡Información confirmada con éxito!', invalidEmail: 'Debe ser un correo electrónico válido', found: 'Encontramos a este cliente: puedes confirmar.', email: 'Correo electrónico', name: 'Nombre', last: 'Apellido' },
  en: { prefix: '/en', guest: 'Continue as a guest with an IBO code', code: 'IBO code', enter: 'Enter', required: 'This field is requerido', notFound: "The IBO is suspended or doesn't exist.", start: 'Start the course', confirm: 'Confirm', confirmed: 'Information confirmed successfully!', invalidEmail: 'It has to be a valid email', found: 'We found this customer: you can confirm.', email: 'Email', name: 'Name', last: 'Last name' },
} as const;

const storedIbo = (page: import('@playwright/test').Page) => page.evaluate(() => JSON.parse(localStorage.getItem('ibo') ?? 'null'));

for (const [lang, T] of Object.entries(TEXTS)) {
  welcomeTest(`the welcome modal's guest path checks the IBO code on the server (${lang})`, async ({ page }) => {
    await page.goto(`${T.prefix}/`);
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('link', { name: T.guest }).click();
    const code = dialog.getByLabel(T.code);
    await expect(code).toBeFocused();
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

  test(`an affiliate link opens the home page in the IBO's session and remembers the referral (${lang})`, async ({ page }) => {
    const response = await page.goto(`${T.prefix}/MUNDO2026`);
    expect(response?.status()).toBe(200);
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
    await expect(page.getByRole('dialog')).toBeHidden();
    await expect.poll(() => storedIbo(page)).toMatchObject({ companyName: 'Mundo Travel Group', code: 'MUNDO2026' });
    const names = (await page.context().cookies()).map((c) => c.name);
    expect(names).toContain('session');
    expect(names).toContain('ref');
  });

  test(`an invalid or suspended affiliate code goes home with an error alert (${lang})`, async ({ page }) => {
    for (const code of ['NOPE9999', 'RUTAS99']) {
      await page.goto(`${T.prefix}/${code}`);
      await expect(page).toHaveURL(new RegExp(`${T.prefix}/\\?ibo=invalid$`));
      await expect(page.getByRole('alert')).toHaveText(T.notFound);
    }
  });

  test(`a prospect is confirmed before an IBO session opens a free course (${lang})`, async ({ page }) => {
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
    // An existing customer found by e-mail alone enables Confirm.
    await dialog.getByLabel(T.email).fill('learner@academia.example');
    await dialog.getByLabel(T.name, { exact: true }).click();
    await expect(dialog.getByText(T.found)).toBeVisible();
    await expect(confirm).toBeEnabled();
    await confirm.click();
    await expect(page.locator('[data-toast]')).toHaveText(T.confirmed);
    await page.waitForURL(new RegExp(`${T.prefix}/course-tracking/1$`));
    await expect.poll(() => page.evaluate(() => JSON.parse(localStorage.getItem('contact') ?? 'null')?.email)).toBe('learner@academia.example');
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
  await page.goto('/HORIZONTE01');
  for (const id of [3, 6]) {
    await page.goto(`/courses-details/${id}`);
    await expect(page.locator('.next-step')).toHaveAttribute('data-refusal', 'login');
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

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

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
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
  }
});
