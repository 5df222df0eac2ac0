/**
 * Identity journeys: login, the header's user and IBO menus, sessions and protected pages, logout,
 * 401 handling, registration, password reset by e-mail, and bad input. Each block in both languages,
 * its journeys in turn (`languageTurns`).
 */
import { request as httpRequest } from 'node:http';
import { expect, expectNoSeriousViolations, languageTurns, outboxMail, test, type Page } from './fixtures';

const LANGS = [
  {
    locale: 'es',
    prefix: '',
    home: '/',
    title: 'Iniciar sesión',
    labels: {
      email: 'Correo electrónico',
      password: 'Contraseña',
      name: 'Nombre',
      lastName: 'Apellido',
      confirmEmail: 'Confirmar correo electrónico',
      gender: 'Género',
      day: 'Día',
      month: 'Mes',
      year: 'Año',
      confirmPassword: 'Confirmar contraseña',
    },
    submit: 'Iniciar sesión',
    asIbo: 'Autenticarse como IBO',
    cancel: 'Cancelar',
    forgot: '¿Olvidaste tu contraseña?',
    createAccount: 'Crear una cuenta',
    registerTitle: 'Crear una cuenta',
    registerSubmit: 'Crear cuenta',
    info: 'Información',
    ok: 'Aceptar',
    female: 'Femenino',
    april: 'Abril',
    menu: { myLearning: 'Mi aprendizaje', myShopping: 'Mis compras', logout: 'Cerrar sesión', closeSession: 'Cerrar sesión', login: 'Iniciar sesión' },
    account: (name: string) => `Menú de la cuenta de ${name}`,
    iboMenu: (company: string) => `Sesión IBO de ${company}`,
    code: (code: string) => `Código: ${code}`,
    errors: {
      emailRequired: 'El campo Correo electrónico es obligatorio',
      passwordRequired: 'El campo Contraseña es obligatorio',
      badEmail: 'Debe ser un correo electrónico válido',
      shortPassword: 'El campo Contraseña debe tener al menos 6 caracteres',
      tooLong32: 'Este campo no debe contener más de 32 caracteres',
      tooLong60: 'Este campo no debe contener más de 60 caracteres',
      nameRequired: 'El campo Nombre es obligatorio',
      lastNameRequired: 'El campo Apellido es obligatorio',
      confirmEmailRequired: 'El campo Confirmar correo electrónico es obligatorio',
      genderRequired: 'El campo Género es obligatorio',
      birthRequired: 'El campo Fecha de nacimiento es obligatorio',
      confirmPasswordRequired: 'El campo Confirmar contraseña es obligatorio',
      emailMismatch: 'Los correos no coinciden',
      passwordMismatch: 'Las contraseñas no coinciden',
      invalidDate: 'Esa fecha no existe: revisa el día y el mes',
      emailTaken: 'Ya existe una cuenta con este correo. Inicia sesión o recupera tu contraseña.',
      refused: '¡Ups! El usuario o la contraseña no son correctos.',
      connection: 'No fue posible conectar con el servidor. Revisa tu conexión e inténtalo de nuevo.',
      tooMany: /Demasiados intentos\. Espera \d+ minutos/,
    },
    loginRequired: 'Inicia sesión para continuar.',
    forgotTitle: 'Recuperar la contraseña',
    forgotSubmit: 'Enviar el enlace',
    sent: /Si hay una cuenta con .*, le enviamos un enlace/,
    mailSubject: 'Elige una nueva contraseña',
    resetTitle: 'Elegir una nueva contraseña',
    resetSubmit: 'Guardar la contraseña',
    passwordChanged: 'Tu contraseña cambió. Inicia sesión con la nueva.',
    invalidLink: 'Este enlace no es válido o ya venció. Pide uno nuevo.',
  },
  {
    locale: 'en',
    prefix: '/en',
    home: '/en/',
    title: 'Log in',
    labels: {
      email: 'Email',
      password: 'Password',
      name: 'Name',
      lastName: 'Last name',
      confirmEmail: 'Confirm email',
      gender: 'Gender',
      day: 'Day',
      month: 'Month',
      year: 'Year',
      confirmPassword: 'Confirm password',
    },
    submit: 'Log in',
    asIbo: 'Authenticate as IBO',
    cancel: 'Cancel',
    forgot: 'Forgot your password?',
    createAccount: 'Create an account',
    registerTitle: 'Create an account',
    registerSubmit: 'Create account',
    info: 'Information',
    ok: 'OK',
    female: 'Female',
    april: 'April',
    menu: { myLearning: 'My learning', myShopping: 'My shopping', logout: 'Log out', closeSession: 'Close session', login: 'Log in' },
    account: (name: string) => `Account menu of ${name}`,
    iboMenu: (company: string) => `IBO session of ${company}`,
    code: (code: string) => `Code: ${code}`,
    errors: {
      emailRequired: 'Email field is required',
      passwordRequired: 'Password field is required',
      badEmail: 'It has to be a valid email',
      shortPassword: 'Password field must have at least 6 characters',
      tooLong32: 'This field must not contain more than 32 characters',
      tooLong60: 'This field must not contain more than 60 characters',
      nameRequired: 'Name field is required',
      lastNameRequired: 'Last name field is required',
      confirmEmailRequired: 'Confirm email field is required',
      genderRequired: 'Gender field is required',
      birthRequired: 'Birth date field is required',
      confirmPasswordRequired: 'Confirm password field is required',
      emailMismatch: 'Emails No match',
      passwordMismatch: 'Passwords do not match',
      invalidDate: 'That date does not exist: check the day and the month',
      emailTaken: 'An account with this email already exists. Log in or reset your password.',
      refused: 'Oops! The username or password is not correct.',
      connection: 'Could not connect to the server. Check your connection and try again.',
      tooMany: /Too many attempts\. Wait \d+ minutes/,
    },
    loginRequired: 'Log in to continue.',
    forgotTitle: 'Reset your password',
    forgotSubmit: 'Send the link',
    sent: /If there is an account for .*, we sent it a link/,
    mailSubject: 'Choose a new password',
    resetTitle: 'Choose a new password',
    resetSubmit: 'Save the password',
    passwordChanged: 'Your password was changed. Log in with the new one.',
    invalidLink: 'This link is not valid or has expired. Ask for a new one.',
  },
] as const;
type Lang = (typeof LANGS)[number];

const LEARNER = { email: 'learner@academia.example', password: 'Aprende2026', name: 'Laura', fullName: 'Laura Méndez' };

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
const loginForm = (page: Page, l: Lang) => page.getByRole('form', { name: l.title });
const registerForm = (page: Page, l: Lang) => page.getByRole('form', { name: l.registerTitle });
const stored = (page: Page, key: 'user' | 'ibo' | 'contact') => page.evaluate((k) => localStorage.getItem(k), key);
const sessionCookie = async (page: Page) => (await page.context().cookies()).find((c) => c.name === 'session');

/** A field's error as its accessible description reads (the page draws a warning sign before it). */
const message = (text: string) => new RegExp(`^(⚠ )?${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

/** Runs `act` and waits for the page it leads to (also when that is the same address again). */
async function reloadsAfter(page: Page, act: () => Promise<void>) {
  const navigated = page.waitForEvent('framenavigated', (f) => f === page.mainFrame());
  await act();
  await navigated;
  await page.waitForLoadState('load');
}

/** Mail is written as quoted-printable when it has non-ASCII text: decode it to read links. */
function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const hex = text.slice(i + 1, i + 3);
    if (text[i] === '=' && /^[0-9A-F]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(text[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Waits until the island has hydrated (its own checks and sending are active). */
async function hydrated(page: Page, form = page.locator('form.account-form').first()) {
  await expect(form).toHaveAttribute('data-enhanced', 'true');
}

/** Logs in through the page's form and waits for the page it leads to. */
async function logIn(page: Page, l: Lang, who: { email: string; password: string }, from = `${l.prefix}/login`) {
  await page.goto(from);
  const form = loginForm(page, l);
  await hydrated(page);
  await form.getByLabel(l.labels.email, { exact: true }).fill(who.email);
  await form.getByLabel(l.labels.password, { exact: true }).fill(who.password);
  await form.getByRole('button', { name: l.submit }).click();
}

/** A loopback address of its own (127.x.y.z): requests from it are another client address to the server. */
const loopback = () => `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${2 + Math.floor(Math.random() * 250)}`;

/** Posts a form to the test server from `address`, as a browser elsewhere would. */
function postFrom(address: string, baseURL: string, path: string, form: Record<string, string>): Promise<{ status: number; body: string; cookies: string[] }> {
  const url = new URL(path, baseURL);
  const body = new URLSearchParams(form).toString();
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method: 'POST', localAddress: address, headers: { origin: url.origin, 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, cookies: res.headers['set-cookie'] ?? [] }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A new account made through the registration action (the journeys about registration use the form). */
async function newAccount(page: Page, baseURL: string, password = 'Inicial2026') {
  const email = `persona.${unique()}@example.com`;
  const response = await page.request.post('/_actions/auth.register', {
    headers: { origin: baseURL },
    form: {
      name: 'Nora',
      lastName: 'Quintero',
      email,
      confirmEmail: email,
      gender: 'female',
      birthDay: '7',
      birthMonth: '4',
      birthYear: '1990',
      password,
      confirmPassword: password,
      lang: 'es',
    },
  });
  expect(response.status()).toBe(200);
  // The registration logged this context in; journeys start logged out.
  await page.context().clearCookies();
  return { email, password };
}

for (const l of LANGS) {
  const turn = languageTurns(LANGS, l);
  test.describe(`login (${l.locale})`, () => {
    if (turn()) test('what was typed before the form came alive is kept, and the login goes through with it', async ({ page }) => {
      // The page's scripts arrive only once the person has typed (a slow connection).
      let release!: () => void;
      const arrived = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/_astro/**/*.js', async (route) => {
        await arrived;
        await route.continue();
      });
      await page.goto(`${l.prefix}/login`, { waitUntil: 'commit' });
      const form = loginForm(page, l);
      await form.getByLabel(l.labels.email, { exact: true }).fill(LEARNER.email);
      await form.getByLabel(l.labels.password, { exact: true }).fill(LEARNER.password);
      await expect(form).not.toHaveAttribute('data-enhanced', 'true');
      release();
      await hydrated(page);
      await expect(form.getByLabel(l.labels.email, { exact: true })).toHaveValue(LEARNER.email);
      await expect(form.getByLabel(l.labels.password, { exact: true })).toHaveValue(LEARNER.password);
      await form.getByRole('button', { name: l.submit }).click();
      await page.waitForURL(l.home);
      await expect(page.getByRole('banner').getByLabel(l.account(LEARNER.fullName))).toBeVisible();
    });

    if (turn()) test('logs in, keeps the header’s user info in storage and the session in an HttpOnly cookie', async ({ page }) => {
      await logIn(page, l, LEARNER);
      await page.waitForURL(l.home);
      await expect(page.getByRole('banner').getByLabel(l.account(LEARNER.fullName))).toBeVisible();
      const user = JSON.parse((await stored(page, 'user'))!);
      expect(user).toEqual({ name: 'Laura', lastName: 'Méndez', email: LEARNER.email, imageUrl: '/images/people/laura-mendez.svg', userType: 1 });
      const cookie = await sessionCookie(page);
      expect(cookie?.httpOnly).toBe(true);
      expect(cookie?.sameSite).toBe('Lax');
      // No token anywhere a script can read.
      expect(await page.evaluate(() => document.cookie)).not.toContain('session=');
      expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain(cookie!.value);

      // The user menu: avatar with name and e-mail, my learning, my shopping, log out.
      await page.getByRole('banner').getByLabel(l.account(LEARNER.fullName)).click();
      const menu = page.locator('.user-menu-list');
      await expect(menu.getByText(LEARNER.fullName)).toBeVisible();
      await expect(menu.getByText(LEARNER.email)).toBeVisible();
      await expect(menu.getByRole('link', { name: l.menu.myLearning })).toHaveAttribute('href', `${l.prefix}/mylearning`);
      await expect(menu.getByRole('link', { name: l.menu.myShopping })).toHaveAttribute('href', `${l.prefix}/myshopping`);
      await expect(menu.getByRole('button', { name: l.menu.logout })).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(menu).toBeHidden();
    });

    if (turn()) test('shows every login rule next to its field and sends nothing', async ({ page }) => {
      const posts: string[] = [];
      page.on('request', (r) => r.method() === 'POST' && posts.push(r.url()));
      await page.goto(`${l.prefix}/login`);
      const form = loginForm(page, l);
      await hydrated(page);
      const email = form.getByLabel(l.labels.email, { exact: true });
      const password = form.getByLabel(l.labels.password, { exact: true });
      await form.getByRole('button', { name: l.submit }).click();
      await expect(email).toHaveAccessibleDescription(message(l.errors.emailRequired));
      await expect(password).toHaveAccessibleDescription(message(l.errors.passwordRequired));
      await expect(email).toBeFocused();
      await email.fill('ana@example');
      await password.fill('12345');
      await form.getByRole('button', { name: l.submit }).click();
      await expect(email).toHaveAccessibleDescription(message(l.errors.badEmail));
      await expect(password).toHaveAccessibleDescription(message(l.errors.shortPassword));
      await email.fill(`${'a'.repeat(50)}@example.com`);
      await email.blur();
      await expect(email).toHaveAccessibleDescription(message(l.errors.tooLong60));
      // Fixing a field clears its message as it is typed.
      await email.fill('ana@example.com');
      await expect(email).not.toHaveAttribute('aria-invalid');
      expect(posts).toEqual([]);
    });

    if (turn()) test('refuses a user of type 2 and a wrong password alike, in the Information modal', async ({ page }) => {
      for (const who of [
        { email: 'refused@academia.example', password: 'Rechazo2026' },
        { email: LEARNER.email, password: 'not-her-password' },
        { email: `nadie.${unique()}@example.com`, password: 'Aprende2026' },
      ]) {
        await logIn(page, l, who);
        const dialog = page.getByRole('dialog', { name: l.info });
        await expect(dialog).toBeVisible();
        await expect(dialog).toContainText(l.errors.refused);
        await dialog.getByRole('button', { name: l.ok }).click();
        await expect(dialog).toBeHidden();
        expect(await sessionCookie(page)).toBeUndefined();
        expect(await stored(page, 'user')).toBeNull();
        await expect(page).toHaveURL(new RegExp(`${l.prefix}/login$`));
      }
    });

    if (turn()) test('says the server cannot be reached when the request never gets an answer', async ({ page }) => {
      await page.route('**/_actions/auth.login{,/}', (route) => route.abort('connectionrefused'));
      await logIn(page, l, LEARNER);
      const dialog = page.getByRole('dialog', { name: l.info });
      await expect(dialog).toContainText(l.errors.connection);
      expect(await stored(page, 'user')).toBeNull();
    });

    if (turn()) test('offers the IBO code entry, cancel and the forgot-password page', async ({ page }) => {
      await page.goto(`${l.prefix}/login?next=${encodeURIComponent(`${l.prefix}/courses-details/1`)}`);
      const form = loginForm(page, l);
      await expect(form.getByRole('link', { name: l.asIbo })).toHaveAttribute('href', `${l.prefix}/guest?next=${encodeURIComponent(`${l.prefix}/courses-details/1`)}`);
      await expect(form.getByRole('link', { name: l.cancel })).toHaveAttribute('href', l.home);
      await form.getByRole('link', { name: l.forgot }).click();
      await expect(page.getByRole('heading', { level: 1, name: l.forgotTitle })).toBeVisible();
    });

    if (turn()) test('sends a visitor of a personal page to login and back', async ({ page }) => {
      for (const path of ['/mylearning', '/myshopping', '/profile']) {
        const response = await page.goto(`${l.prefix}${path}`);
        expect(response?.status()).toBe(200);
        await expect(page).toHaveURL(`${l.prefix}/login?next=${encodeURIComponent(`${l.prefix}${path}`)}`);
        await expect(page.getByRole('status').filter({ hasText: l.loginRequired })).toBeVisible();
      }
      const form = loginForm(page, l);
      await hydrated(page);
      await form.getByLabel(l.labels.email, { exact: true }).fill('buyer@academia.example');
      await form.getByLabel(l.labels.password, { exact: true }).fill('Compra2026');
      await form.getByRole('button', { name: l.submit }).click();
      await page.waitForURL(`${l.prefix}/profile`);
      await expect(page.getByRole('heading', { level: 2, name: 'Tomás Rivera' })).toBeVisible();
      await page.goto(`${l.prefix}/myshopping`);
      // The buyer's courses, including the buyers-only ones.
      await expect(page.locator('[data-course-id]')).toHaveCount(3);
    });

    if (turn()) test('logging out clears user, IBO and prospect data and the session', async ({ page }) => {
      await logIn(page, l, LEARNER);
      await page.waitForURL(l.home);
      // Leftovers of an earlier IBO session must go too.
      await page.evaluate(() => {
        localStorage.setItem('ibo', JSON.stringify({ companyName: 'X', code: 'X', imageUrl: null }));
        localStorage.setItem('contact', JSON.stringify({ id: 1, firstName: 'P', lastName: 'Q', email: 'p@example.com' }));
      });
      await page.getByRole('banner').getByLabel(l.account(LEARNER.fullName)).click();
      await reloadsAfter(page, () => page.getByRole('button', { name: l.menu.logout }).click());
      await expect(page).toHaveURL(l.home);
      expect([await stored(page, 'user'), await stored(page, 'ibo'), await stored(page, 'contact')]).toEqual([null, null, null]);
      expect(await sessionCookie(page)).toBeUndefined();
      await expect(page.getByRole('banner').getByRole('link', { name: l.menu.login })).toBeVisible();
      await page.goto(`${l.prefix}/profile`);
      await expect(page).toHaveURL(/\/login\?next=/);
    });

    if (turn()) test('an IBO session shows the company, its code and close session in the header', async ({ page }) => {
      await page.goto(`${l.prefix}/HORIZONTE01`);
      const summary = page.getByRole('banner').getByLabel(l.iboMenu('Viajes Horizonte S.A.S.'));
      await summary.click();
      const menu = page.locator('.user-menu-list');
      await expect(menu.getByText(l.code('HORIZONTE01'))).toBeVisible();
      await reloadsAfter(page, () => menu.getByRole('button', { name: l.menu.closeSession }).click());
      await expect(page).toHaveURL(l.home);
      expect(await stored(page, 'ibo')).toBeNull();
      expect(await sessionCookie(page)).toBeUndefined();
    });

    if (turn()) test('a 401 from the session check clears every stored identity and goes home', async ({ page }) => {
      await logIn(page, l, LEARNER);
      await page.waitForURL(l.home);
      await page.evaluate(() => localStorage.setItem('contact', JSON.stringify({ id: 1, firstName: 'P', lastName: 'Q', email: 'p@example.com' })));
      // The session ends on the server's side (here: the cookie is gone); the browser still has the user.
      await page.context().clearCookies();
      const verify = page.waitForResponse((r) => r.url().includes('/_actions/auth.verify'));
      // A prerendered page cannot know the session, so the header asks the server.
      await page.goto(`${l.prefix}/about-us`);
      expect((await verify).status()).toBe(401);
      await page.waitForURL(l.home);
      expect([await stored(page, 'user'), await stored(page, 'ibo'), await stored(page, 'contact')]).toEqual([null, null, null]);
    });

    if (turn()) test('a forged session cookie is dropped and gives no session', async ({ page, baseURL }) => {
      await page.context().addCookies([{ name: 'session', value: 'forged-token-value', url: baseURL! }]);
      const response = await page.goto(`${l.prefix}/courses`);
      expect(response?.status()).toBe(200);
      expect(await sessionCookie(page)).toBeUndefined();
      await expect(page.getByRole('banner').getByRole('link', { name: l.menu.login })).toBeVisible();
      const profile = await page.goto(`${l.prefix}/profile`);
      expect(profile?.url()).toContain('/login?next=');
    });
  });

  test.describe(`registration (${l.locale})`, () => {
    if (turn()) test('the login page’s registration modal checks every rule, then creates the account and logs in', async ({ page }) => {
      // A whole journey (many pages, a login or two): more than the default budget on a busy 2-core machine.
      test.slow();
      await page.goto(`${l.prefix}/login`);
      await hydrated(page);
      await page.getByRole('link', { name: l.createAccount }).click();
      const dialog = page.getByRole('dialog', { name: l.registerTitle });
      await expect(dialog).toBeVisible();
      const form = registerForm(page, l);
      await expect(form).toHaveAttribute('data-enhanced', 'true');
      const field = (k: keyof Lang['labels']) => form.getByLabel(l.labels[k], { exact: true });

      await form.getByRole('button', { name: l.registerSubmit }).click();
      for (const [k, text] of [
        ['name', l.errors.nameRequired],
        ['lastName', l.errors.lastNameRequired],
        ['email', l.errors.emailRequired],
        ['confirmEmail', l.errors.confirmEmailRequired],
        ['gender', l.errors.genderRequired],
        ['day', l.errors.birthRequired],
        ['password', l.errors.passwordRequired],
        ['confirmPassword', l.errors.confirmPasswordRequired],
      ] as const) {
        await expect(field(k), k).toHaveAccessibleDescription(k === 'password' ? new RegExp(text) : message(text));
      }
      await expect(field('name')).toBeFocused();

      const email = `registro.${unique()}@example.com`;
      await field('name').fill('N'.repeat(33));
      await field('lastName').fill('Quintero');
      await field('email').fill(`${'a'.repeat(49)}@example.com`);
      await field('confirmEmail').fill('otra@example.com');
      await field('gender').selectOption({ label: l.female });
      await field('day').selectOption('31');
      await field('month').selectOption({ label: l.april });
      await field('year').selectOption('1990');
      await field('password').fill('x'.repeat(33));
      await field('confirmPassword').fill('otra-clave');
      await form.getByRole('button', { name: l.registerSubmit }).click();
      await expect(field('name')).toHaveAccessibleDescription(message(l.errors.tooLong32));
      await expect(field('email')).toHaveAccessibleDescription(message(l.errors.tooLong60));
      await expect(field('day')).toHaveAccessibleDescription(message(l.errors.invalidDate));
      await expect(field('password')).toHaveAccessibleDescription(new RegExp(l.errors.tooLong32));
      await expect(field('confirmPassword')).toHaveAccessibleDescription(message(l.errors.passwordMismatch));
      await field('email').fill(email);
      await form.getByRole('button', { name: l.registerSubmit }).click();
      await expect(field('confirmEmail')).toHaveAccessibleDescription(message(l.errors.emailMismatch));

      // An address already in use is the e-mail field's error.
      await field('name').fill('Nora');
      await field('email').fill(LEARNER.email);
      await field('confirmEmail').fill(LEARNER.email);
      await field('day').selectOption('7');
      await field('password').fill('Clave2026');
      await field('confirmPassword').fill('Clave2026');
      await form.getByRole('button', { name: l.registerSubmit }).click();
      await expect(field('email')).toHaveAccessibleDescription(message(l.errors.emailTaken));
      await expect(field('email')).toBeFocused();

      await field('email').fill(email);
      await field('confirmEmail').fill(email.toUpperCase());
      await form.getByRole('button', { name: l.registerSubmit }).click();
      await page.waitForURL(l.home);
      expect(JSON.parse((await stored(page, 'user'))!)).toMatchObject({ name: 'Nora', lastName: 'Quintero', email, userType: 1 });
      await expect(page.getByRole('banner').getByLabel(l.account('Nora Quintero'))).toBeVisible();

      // The new account logs in again after logging out.
      await page.getByRole('banner').getByLabel(l.account('Nora Quintero')).click();
      await reloadsAfter(page, () => page.getByRole('button', { name: l.menu.logout }).click());
      await logIn(page, l, { email, password: 'Clave2026' });
      await page.waitForURL(l.home);
      expect(JSON.parse((await stored(page, 'user'))!).email).toBe(email);
    });

    if (turn()) test('offers 81 birth years starting 18 years ago', async ({ page }) => {
      await page.goto(`${l.prefix}/register`);
      const years = await registerForm(page, l).getByLabel(l.labels.year, { exact: true }).locator('option').allTextContents();
      const now = new Date().getFullYear();
      expect(years.slice(1).map(Number)).toEqual(Array.from({ length: 81 }, (_, i) => now - 18 - i));
    });
  });

  test.describe(`password reset (${l.locale})`, () => {
    if (turn()) test('e-mails a single-use link that sets a new password and ends the old sessions', async ({ page, baseURL, browser }) => {
      // A whole journey (many pages, a login or two): more than the default budget on a busy 2-core machine.
      test.slow();
      const account = await newAccount(page, baseURL!);
      // A session elsewhere, with the old password.
      const other = await browser.newContext();
      const otherPage = await other.newPage();
      await logIn(otherPage, l, account);
      await otherPage.waitForURL(l.home);

      await page.goto(`${l.prefix}/login`);
      await loginForm(page, l).getByRole('link', { name: l.forgot }).click();
      const form = page.getByRole('form', { name: l.forgotTitle });
      await hydrated(page);
      await form.getByRole('button', { name: l.forgotSubmit }).click();
      await expect(form.getByLabel(l.labels.email, { exact: true })).toHaveAccessibleDescription(message(l.errors.emailRequired));
      await form.getByLabel(l.labels.email, { exact: true }).fill(account.email);
      await form.getByRole('button', { name: l.forgotSubmit }).click();
      await expect(form.getByRole('status')).toHaveText(l.sent);

      await expect.poll(() => outboxMail(account.email, 'reset-password'), { timeout: 10_000 }).toBeTruthy();
      const mail = decodeQuotedPrintable((await outboxMail(account.email, 'reset-password'))!);
      if (l.locale === 'en') expect(mail).toContain(`Subject: ${l.mailSubject}`);
      expect(mail).toContain('Nora');
      const link = /(http:\/\/\S+\/reset-password\?token=[A-Za-z0-9_-]+)/.exec(mail)?.[1];
      expect(link, mail).toBeTruthy();
      expect(new URL(link!).pathname).toBe(`${l.prefix}/reset-password`);

      await page.goto(link!);
      const reset = page.getByRole('form', { name: l.resetTitle });
      await hydrated(page);
      await reset.getByLabel(l.labels.password, { exact: true }).fill('Nueva2026');
      await reset.getByLabel(l.labels.confirmPassword, { exact: true }).fill('Nueva2027');
      await reset.getByRole('button', { name: l.resetSubmit }).click();
      await expect(reset.getByLabel(l.labels.confirmPassword, { exact: true })).toHaveAccessibleDescription(message(l.errors.passwordMismatch));
      await reset.getByLabel(l.labels.confirmPassword, { exact: true }).fill('Nueva2026');
      await reset.getByRole('button', { name: l.resetSubmit }).click();
      await page.waitForURL(/\/login\?notice=passwordChanged$/);
      await expect(page.getByRole('status').filter({ hasText: l.passwordChanged })).toBeVisible();

      // The old session elsewhere is over; the old password no longer works; the new one does.
      await otherPage.goto(`${l.prefix}/profile`);
      await expect(otherPage).toHaveURL(/\/login\?next=/);
      await other.close();
      await logIn(page, l, account);
      await expect(page.getByRole('dialog', { name: l.info })).toContainText(l.errors.refused);
      await page.getByRole('button', { name: l.ok }).click();
      await logIn(page, l, { email: account.email, password: 'Nueva2026' });
      await page.waitForURL(l.home);

      // The link works once.
      const again = await page.goto(link!);
      expect(again?.status()).toBe(410);
      await expect(page.getByRole('alert')).toHaveText(l.invalidLink);
    });

    if (turn()) test('answers the same for an address without an account, and sends nothing', async ({ page, baseURL }) => {
      const nobody = `nadie.${unique()}@example.com`;
      const somebody = await newAccount(page, baseURL!);
      await page.goto(`${l.prefix}/forgot-password`);
      const form = page.getByRole('form', { name: l.forgotTitle });
      await hydrated(page);
      await form.getByLabel(l.labels.email, { exact: true }).fill(nobody);
      await form.getByRole('button', { name: l.forgotSubmit }).click();
      await expect(form.getByRole('status')).toHaveText(l.sent);
      // The mail goes out after the answer. A reset asked for next, by an account that exists: once its
      // mail is out, one for the first address would be out too.
      await form.getByLabel(l.labels.email, { exact: true }).fill(somebody.email);
      await form.getByRole('button', { name: l.forgotSubmit }).click();
      await expect.poll(() => outboxMail(somebody.email, 'reset-password'), { timeout: 10_000 }).toBeTruthy();
      expect(await outboxMail(nobody)).toBeUndefined();
    });
  });
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('login, the user menu and logout work as plain forms, failures with their status', async ({ page }) => {
    const l = LANGS[1];
    await page.goto('/en/login');
    const form = loginForm(page, l);
    const submit = async () => {
      const response = page.waitForResponse((r) => r.request().method() === 'POST');
      await form.getByRole('button', { name: l.submit }).click();
      return (await response).status();
    };
    await form.getByLabel(l.labels.email, { exact: true }).fill('ana@');
    expect(await submit()).toBe(400);
    await expect(form.getByLabel(l.labels.email, { exact: true })).toHaveAccessibleDescription(message(l.errors.badEmail));
    await expect(form.getByLabel(l.labels.password, { exact: true })).toHaveAccessibleDescription(message(l.errors.passwordRequired));
    await form.getByLabel(l.labels.email, { exact: true }).fill(LEARNER.email);
    await form.getByLabel(l.labels.password, { exact: true }).fill('wrong-password');
    expect(await submit()).toBe(400);
    await expect(page.getByRole('alert')).toHaveText(l.errors.refused);
    await expect(form.getByLabel(l.labels.email, { exact: true })).toHaveValue(LEARNER.email);
    await form.getByLabel(l.labels.password, { exact: true }).fill(LEARNER.password);
    await form.getByRole('button', { name: l.submit }).click();
    await page.waitForURL('/en/');
    // The server draws the menu; <details> opens it without scripts.
    await page.getByRole('banner').getByLabel(l.account(LEARNER.fullName)).click();
    await reloadsAfter(page, () => page.getByRole('button', { name: l.menu.logout }).click());
    await expect(page).toHaveURL('/en/');
    expect(await sessionCookie(page)).toBeUndefined();
    await expect(page.getByRole('banner').getByRole('link', { name: l.menu.login })).toBeVisible();
  });

  test('registration works as a plain form and keeps what was typed (never the passwords)', async ({ page }) => {
    const l = LANGS[0];
    await page.goto('/register');
    const form = registerForm(page, l);
    const field = (k: keyof Lang['labels']) => form.getByLabel(l.labels[k], { exact: true });
    const email = `sinjs.${unique()}@example.com`;
    await field('name').fill('Nora');
    await field('email').fill(email);
    await field('confirmEmail').fill('otra@example.com');
    await field('password').fill('Clave2026');
    const response = page.waitForResponse((r) => r.request().method() === 'POST');
    await form.getByRole('button', { name: l.registerSubmit }).click();
    expect((await response).status()).toBe(400);
    await expect(field('name')).toHaveValue('Nora');
    await expect(field('password')).toHaveValue('');
    await expect(field('confirmEmail')).toHaveAccessibleDescription(message(l.errors.emailMismatch));
    await expect(field('lastName')).toHaveAccessibleDescription(message(l.errors.lastNameRequired));
    await field('lastName').fill('Quintero');
    await field('confirmEmail').fill(email);
    await field('gender').selectOption({ label: l.female });
    await field('day').selectOption('7');
    await field('month').selectOption({ label: l.april });
    await field('year').selectOption('1990');
    await field('password').fill('Clave2026');
    await field('confirmPassword').fill('Clave2026');
    await form.getByRole('button', { name: l.registerSubmit }).click();
    await page.waitForURL('/');
    expect((await sessionCookie(page))?.httpOnly).toBe(true);
  });
});

test.describe('bad input', () => {
  test('overlong and malformed fields get a 400 with field codes, never a 500', async ({ request, baseURL }) => {
    const headers = { origin: baseURL! };
    for (const form of [
      { email: `${'a'.repeat(10_000)}@example.com`, password: 'x'.repeat(10_000), lang: 'en' },
      { email: '<script>alert(1)</script>', password: '../../etc/passwd', lang: 'xx' },
      { email: "' or 1=1 --", password: "' or ''='" },
      {},
    ]) {
      const r = await request.post('/_actions/auth.login', { form, headers });
      expect(r.status(), JSON.stringify(form).slice(0, 80)).toBe(400);
      expect((await r.json()).fields).toBeTruthy();
    }
    // A JSON body where a form is expected is refused as such (415), not parsed.
    const json = await request.post('/_actions/auth.login', { data: { email: 42, password: ['x'] }, headers });
    expect(json.status()).toBeGreaterThanOrEqual(400);
    expect(json.status()).toBeLessThan(500);
    const register = await request.post('/_actions/auth.register', { form: { name: 'x'.repeat(5000), birthYear: '1800', gender: 'robot', lang: 'en' }, headers });
    expect(register.status()).toBe(400);
    const fields = (await register.json()).fields;
    expect(fields.name).toEqual(['tooLong']);
    expect(fields.gender).toEqual(['invalidOption']);
    const reset = await request.post('/_actions/auth.resetPassword', { form: { token: 'forged', password: 'Nueva2026', confirmPassword: 'Nueva2026', lang: 'en' }, headers });
    expect(reset.status()).toBe(400);
    expect((await reset.json()).message).toBe('This link is not valid or has expired. Ask for a new one.');
    const page = await request.get('/reset-password?token=%3Cscript%3E');
    expect(page.status()).toBe(410);
  });

  test('control characters in login, registration and reset fields get a 400 naming the field, never a 500', async ({ request, baseURL }) => {
    const headers = { origin: baseURL! };
    const login = await request.post('/_actions/auth.login', { form: { email: 'learner\u0000@academia.example', password: 'Aprende2026\u0000', lang: 'en' }, headers });
    expect(login.status()).toBe(400);
    // The first code of each field is the one the form shows.
    const fields = (await login.json()).fields;
    expect([fields.email[0], fields.password[0]]).toEqual(['invalidCharacters', 'invalidCharacters']);
    const email = `nul.${unique()}@example.com`;
    const register = await request.post('/_actions/auth.register', {
      form: { name: 'Ana\u0000', lastName: 'Pé\u0085rez', email, confirmEmail: email, gender: 'female', birthDay: '7', birthMonth: '4', birthYear: '1990', password: 'Clave2026', confirmPassword: 'Clave2026', lang: 'en' },
      headers,
    });
    expect(register.status()).toBe(400);
    const registerFields = (await register.json()).fields;
    expect([registerFields.name[0], registerFields.lastName[0]]).toEqual(['invalidCharacters', 'invalidCharacters']);
    const forgot = await request.post('/_actions/auth.requestReset', { form: { email: `\u0000${email}`, lang: 'en' }, headers });
    expect(forgot.status()).toBe(400);
    const reset = await request.post('/_actions/auth.resetPassword', { form: { token: 'abc\u0000', password: 'Nueva2026', confirmPassword: 'Nueva2026', lang: 'en' }, headers });
    expect(reset.status()).toBe(400);
    // Without JavaScript the page names the field in its language.
    const page = await request.post('/en/register?_action=auth.register', {
      form: { name: 'Ana\u0000', lastName: 'Pérez', email, confirmEmail: email, gender: 'female', birthDay: '7', birthMonth: '4', birthYear: '1990', password: 'Clave2026', confirmPassword: 'Clave2026', lang: 'en' },
      headers,
    });
    expect(page.status()).toBe(400);
    expect(await page.text()).toContain('Name field contains characters that are not allowed');
  });

  test('a name with a right-to-left override or a zero-width space gets a 400 naming the field, in the page’s language, and no account', async ({ request, baseURL }) => {
    const headers = { origin: baseURL! };
    const email = `bidi.${unique()}@example.com`;
    const form = { name: 'Ana\u202e', lastName: 'Pé\u200brez', email, confirmEmail: email, gender: 'female', birthDay: '7', birthMonth: '4', birthYear: '1990', password: 'Clave2026', confirmPassword: 'Clave2026' };
    const register = await request.post('/_actions/auth.register', { form: { ...form, lang: 'en' }, headers });
    expect(register.status()).toBe(400);
    const fields = (await register.json()).fields;
    expect([fields.name[0], fields.lastName[0]]).toEqual(['invalidCharacters', 'invalidCharacters']);
    const page = await request.post('/register?_action=auth.register', { form: { ...form, lang: 'es' }, headers });
    expect(page.status()).toBe(400);
    expect(await page.text()).toContain('El campo Nombre contiene caracteres no permitidos');
    // Nothing was written: the address is still free.
    const clean = await request.post('/_actions/auth.register', { form: { ...form, name: 'Ana', lastName: 'Pérez', lang: 'en' }, headers });
    expect(clean.status()).toBe(200);
  });

  test('a login never sends the browser to another site, however `next` is disguised', async ({ page }) => {
    for (const next of ['/.//evil.example/phish', '/%2e//evil.example', '/..//evil.example', '/\t/evil.example']) {
      await page.context().clearCookies();
      await logIn(page, LANGS[0], LEARNER, `/login?next=${encodeURIComponent(next)}`);
      await page.waitForURL((url) => url.pathname === '/');
      expect(new URL(page.url()).host, next).toBe(new URL(test.info().project.use.baseURL!).host);
    }
  });

  test('wrong passwords in a row lock the account for a while from that address, even against the right password', async ({ page, baseURL }) => {
    const account = await newAccount(page, baseURL!);
    const headers = { origin: baseURL! };
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await page.request.post('/_actions/auth.login', { form: { email: account.email, password: `wrong-${i}-pw`, lang: 'en' }, headers });
      statuses.push(r.status());
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400));
    expect(statuses.slice(10)).toEqual([429, 429]);
    const right = await page.request.post('/_actions/auth.login', { form: { email: account.email.toUpperCase(), password: account.password, lang: 'es' }, headers });
    expect(right.status()).toBe(429);
    expect((await right.json()).message).toMatch(LANGS[0].errors.tooMany);
    expect(Number(right.headers()['retry-after'])).toBeGreaterThan(800);
    expect(await sessionCookie(page)).toBeUndefined();
    // An address without an account is counted the same way: the answer tells nothing.
    const nobody = `nadie.${unique()}@example.com`;
    for (let i = 0; i < 10; i++) await page.request.post('/_actions/auth.login', { form: { email: nobody, password: 'wrong-pw', lang: 'en' }, headers });
    const after = await page.request.post('/_actions/auth.login', { form: { email: nobody, password: 'wrong-pw', lang: 'en' }, headers });
    expect(after.status()).toBe(429);
  });

  test('nobody can lock the owner out: wrong passwords refuse only the address that sent them, and merely slow the account down', async ({ page, baseURL }) => {
    const account = await newAccount(page, baseURL!);
    const [attacker, owner, another, later] = [loopback(), loopback(), loopback(), loopback()];
    const login = (from: string, password: string, lang = 'en') => postFrom(from, baseURL!, '/_actions/auth.login', { email: account.email, password, lang });
    for (let i = 0; i < 10; i++) expect((await login(attacker, `wrong-${i}-pw`)).status, `wrong password ${i + 1}`).toBe(400);
    // The 11th from the same address is refused, and so is the right password from there.
    const eleventh = await login(attacker, 'wrong-10-pw');
    expect(eleventh.status).toBe(429);
    expect(JSON.parse(eleventh.body).message).toMatch(LANGS[1].errors.tooMany);
    expect((await login(attacker, account.password)).status).toBe(429);
    // The owner, from their own address, gets in with the right password.
    const own = await login(owner, account.password, 'es');
    expect(own.status).toBe(200);
    expect(own.cookies.some((c) => c.startsWith('session='))).toBe(true);
    // More wrong passwords from yet another address only make the account's logins wait, never refuse.
    for (let i = 0; i < 2; i++) expect((await login(another, `other-${i}-pw`)).status).toBe(400);
    const started = Date.now();
    expect((await login(later, account.password)).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
  });

  test('a login or logout from another site is refused', async ({ request }) => {
    for (const action of ['auth.login', 'auth.logout', 'auth.register', 'auth.requestReset']) {
      const r = await request.post(`/_actions/${action}`, { form: { email: LEARNER.email, password: LEARNER.password }, headers: { origin: 'https://evil.example' } });
      expect(r.status(), action).toBe(403);
      expect(r.headers()['set-cookie']).toBeUndefined();
    }
  });

  test('a name that looks like markup stays text in the header and the page', async ({ page, baseURL }) => {
    const email = `marca.${unique()}@example.com`;
    const name = '</script><b>x';
    const r = await page.request.post('/_actions/auth.register', {
      headers: { origin: baseURL! },
      form: { name, lastName: '<img src=x>', email, confirmEmail: email, gender: 'other', birthDay: '1', birthMonth: '1', birthYear: '1990', password: 'Clave2026', confirmPassword: 'Clave2026', lang: 'en' },
    });
    expect(r.status()).toBe(200);
    const dialogs: string[] = [];
    page.on('dialog', (d) => dialogs.push(d.message()));
    await page.goto('/en/profile');
    await expect(page.getByRole('heading', { level: 2, name: `${name} <img src=x>` })).toBeVisible();
    await expect(page.getByRole('banner').getByLabel(`Account menu of ${name} <img src=x>`)).toBeVisible();
    await expect(page.getByRole('banner').locator('.user-menu-name')).toHaveText(name);
    expect(JSON.parse((await stored(page, 'user'))!).name).toBe(name);
    expect(dialogs).toEqual([]);
  });
});

test('the account pages have no serious axe violation, with errors shown @mobile', async ({ page }) => {
  const l = LANGS[0];
  for (const path of ['/login', '/en/register', '/forgot-password', '/reset-password?token=nope']) {
    await page.goto(path);
    await expectNoSeriousViolations(page);
  }
  await page.goto('/login');
  await hydrated(page);
  await loginForm(page, l).getByRole('button', { name: l.submit }).click();
  await expect(loginForm(page, l).getByLabel(l.labels.email, { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expectNoSeriousViolations(page);
  await logIn(page, l, LEARNER);
  await page.waitForURL('/');
  const width = page.viewportSize()!.width;
  if (width < 1200) await page.getByRole('button', { name: 'Abrir menú' }).click();
  await page.getByRole('banner').getByLabel(l.account(LEARNER.fullName)).click();
  await expect(page.locator('.user-menu-list')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  await expectNoSeriousViolations(page);
});

/* ───────────── consent to be shown to an IBO ───────────── */

const SHARING = {
  es: {
    box: (company: string) => `Permitir que ${company} (el IBO que me invitó) vea mi progreso`,
    title: 'Compartir mi progreso con mi IBO',
    switch: 'Compartir mi progreso con mi IBO',
    ibo: 'Viajes Horizonte S.A.S. (código HORIZONTE01)',
    referred: 'te registraste con su enlace',
    registered: 'te registró como prospecto',
    sees: 'Ve tu progreso',
    doesNotSee: 'No ve tu progreso',
    allowed: 'Listo: tu IBO puede ver tu progreso.',
    stopped: 'Listo: tu IBO ya no ve tu progreso.',
    noIbo: 'Tu cuenta no está vinculada a ningún IBO: no hay nada que compartir. No se ha guardado nada.',
    invalid: 'Elige si quieres compartir tu progreso o no. No se ha guardado nada.',
  },
  en: {
    box: (company: string) => `Let ${company} (the IBO who invited me) see my progress`,
    title: 'Share my progress with my IBO',
    switch: 'Share my progress with my IBO',
    ibo: 'Viajes Horizonte S.A.S. (code HORIZONTE01)',
    referred: 'you signed up through their link',
    registered: 'registered you as a prospect',
    sees: 'Sees your progress',
    doesNotSee: 'Does not see your progress',
    allowed: 'Done: your IBO can see your progress.',
    stopped: 'Done: your IBO no longer sees your progress.',
    noIbo: 'Your account is not linked to any IBO: there is nothing to share. Nothing was saved.',
    invalid: 'Choose whether to share your progress or not. Nothing was saved.',
  },
} as const;
const HORIZONTE = 'Viajes Horizonte S.A.S.';

/** Fills the registration page's form for a new person with `email` and sends it (the box left as the caller set it). */
async function signUp(page: Page, l: Lang, email: string) {
  const form = registerForm(page, l);
  const field = (k: keyof Lang['labels']) => form.getByLabel(l.labels[k], { exact: true });
  await field('name').fill('Irene');
  await field('lastName').fill('Consentida');
  await field('email').fill(email);
  await field('confirmEmail').fill(email);
  await field('gender').selectOption({ label: l.female });
  await field('day').selectOption('7');
  await field('month').selectOption({ label: l.april });
  await field('year').selectOption('1990');
  await field('password').fill('Consiento2026');
  await field('confirmPassword').fill('Consiento2026');
  await form.getByRole('button', { name: l.registerSubmit }).click();
  await page.waitForURL(l.home);
}

for (const l of LANGS) {
  const turn = languageTurns(LANGS, l);
  const c = SHARING[l.locale];
  test.describe(`consent to be shown to the IBO (${l.locale})`, () => {
    if (turn()) test('signing up through an IBO’s link offers the box unticked; My data shows the IBO and switches sharing on and off', async ({ page }) => {
      test.slow();
      await page.goto(`${l.prefix}/HORIZONTE01`);
      await page.goto(`${l.prefix}/register`);
      await hydrated(page);
      const box = registerForm(page, l).getByRole('checkbox', { name: c.box(HORIZONTE) });
      await expect(box).toBeVisible();
      await expect(box).not.toBeChecked();
      await box.check();
      await signUp(page, l, `consiente.${unique()}@example.com`);

      await page.goto(`${l.prefix}/my-data`);
      const section = page.getByRole('region', { name: c.title });
      await expect(section).toContainText(c.ibo);
      await expect(section).toContainText(c.referred);
      await expect(section).toContainText(c.sees);
      const toggle = section.getByRole('switch', { name: c.switch });
      await expect(toggle).toHaveAttribute('aria-checked', 'true');
      // Revocable at any time, and back again.
      await reloadsAfter(page, () => toggle.click());
      await expect(page).toHaveURL(new RegExp(`${l.prefix}/my-data\\?sharing=off$`));
      await expect(section.getByRole('status')).toHaveText(c.stopped);
      await expect(toggle).toHaveAttribute('aria-checked', 'false');
      await expect(section).toContainText(c.doesNotSee);
      await reloadsAfter(page, () => toggle.click());
      await expect(section.getByRole('status')).toHaveText(c.allowed);
      await expect(toggle).toHaveAttribute('aria-checked', 'true');
      await expectNoSeriousViolations(page);
    });

    if (turn()) test('without an IBO there is no box at sign-up and no section on My data', async ({ page, baseURL }) => {
      await page.goto(`${l.prefix}/register`);
      await hydrated(page);
      await expect(registerForm(page, l).getByRole('checkbox')).toHaveCount(0);
      const who = await newAccount(page, baseURL!);
      await logIn(page, l, who);
      await page.waitForURL(l.home);
      await page.goto(`${l.prefix}/my-data`);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByRole('switch')).toHaveCount(0);
      await expect(page.getByRole('region', { name: c.title })).toHaveCount(0);
    });
  });
}

test('a prospect the IBO registered finds the box ticked, and My data says the IBO registered them and sees them', async ({ page, baseURL }) => {
  test.slow();
  const l = LANGS[0];
  const c = SHARING.es;
  const email = `prospecto.consiente.${unique()}@example.com`;
  await page.goto('/HORIZONTE01');
  const confirmed = await page.request.post('/_actions/ibo.confirmProspect', { headers: { origin: baseURL! }, form: { firstName: 'Irene', lastName: 'Consentida', email, lang: 'es' } });
  expect(confirmed.status()).toBe(200);
  await page.goto('/register');
  await hydrated(page);
  await expect(registerForm(page, l).getByRole('checkbox', { name: c.box(HORIZONTE) })).toBeChecked();
  await signUp(page, l, email);
  await page.goto('/my-data');
  const section = page.getByRole('region', { name: c.title });
  await expect(section).toContainText(c.registered);
  await expect(section).toContainText(c.sees);
  await expect(section.getByRole('switch', { name: c.switch })).toHaveAttribute('aria-checked', 'true');
});

test.describe('consent: bad input', () => {
  test('a forged box with no IBO stores nothing, and the switch then answers "no IBO" in words (409), in each language', async ({ page, baseURL }) => {
    const headers = { origin: baseURL! };
    const email = `sin.ibo.${unique()}@example.com`;
    const form = { name: 'Nora', lastName: 'Quintero', email, confirmEmail: email, gender: 'female', birthDay: '7', birthMonth: '4', birthYear: '1990', password: 'Forjada2026', confirmPassword: 'Forjada2026', lang: 'es' };
    expect((await page.request.post('/_actions/auth.register', { headers, form: { ...form, iboSharing: 'on', iboSharingOffered: '1' } })).status()).toBe(200);
    for (const lang of ['es', 'en'] as const) {
      const r = await page.request.post('/_actions/account.setIboSharing', { headers, form: { share: 'true', lang } });
      expect(r.status()).toBe(409);
      expect(await r.text()).toContain(SHARING[lang].noIbo);
    }
    await page.goto('/my-data');
    await expect(page.getByRole('switch')).toHaveCount(0);
  });

  test('the switch takes only true or false (400 in words), only for the caller: a forged userId or contactId changes nobody else', async ({ page, browser, baseURL }) => {
    test.slow();
    const headers = { origin: baseURL! };
    // Two people who signed up through the IBO's link, each in their own browser, neither sharing yet.
    const other = await browser.newPage();
    for (const p of [page, other]) {
      await p.goto('/en/HORIZONTE01');
      await p.goto('/en/register');
      await hydrated(p);
      await signUp(p, LANGS[1], `enlace.${unique()}@example.com`);
    }
    for (const [share, lang] of [['maybe', 'es'], ['', 'en'], ['TRUE', 'en']] as const) {
      const r = await page.request.post('/_actions/account.setIboSharing', { headers, form: { share, lang } });
      expect(r.status()).toBe(400);
      expect(await r.text()).toContain(SHARING[lang].invalid);
    }
    await page.goto('/en/my-data');
    await expect(page.getByRole('switch', { name: SHARING.en.switch })).toHaveAttribute('aria-checked', 'false');
    // Ids of someone else are not part of the input: ignored, the caller's own choice is stored.
    for (const id of ['1', '2', '3']) {
      const r = await page.request.post('/_actions/account.setIboSharing', { headers, form: { share: 'true', userId: id, contactId: id, lang: 'en' } });
      expect(r.status()).toBe(200);
    }
    await page.reload();
    await expect(page.getByRole('switch', { name: SHARING.en.switch })).toHaveAttribute('aria-checked', 'true');
    await other.goto('/en/my-data');
    await expect(other.getByRole('switch', { name: SHARING.en.switch })).toHaveAttribute('aria-checked', 'false');
    // Someone with no session, or an IBO's session, may not set anyone's choice.
    const visitor = await browser.newContext({ baseURL: baseURL! });
    expect((await visitor.request.post('/_actions/account.setIboSharing', { headers, form: { share: 'true', lang: 'en' } })).status()).toBe(401);
    const iboPage = await visitor.newPage();
    await iboPage.goto('/en/HORIZONTE01');
    expect((await iboPage.request.post('/_actions/account.setIboSharing', { headers, form: { share: 'true', lang: 'en' } })).status()).toBe(401);
    await visitor.close();
    await other.close();
  });
});
