import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousViolations, languageTurns, outboxMail, useOwnServer } from './fixtures';

/** What each language's page says. */
const LANGS = [
  {
    locale: 'es',
    prefix: '',
    title: 'Contáctanos',
    labels: {
      name: 'Nombre',
      lastName: 'Apellido',
      email: 'Correo electrónico',
      country: 'País',
      dial: 'Código de país',
      phone: 'Teléfono',
      type: 'Motivo del mensaje',
      message: 'Mensaje',
      accept: /acepto la política de privacidad/,
    },
    submit: 'Enviar mensaje',
    otherType: 'Soporte técnico',
    colombia: 'Colombia',
    sent: 'Mensaje enviado',
    tooMany: 'Se enviaron demasiados mensajes desde tu conexión. Espera unos minutos e inténtalo de nuevo.',
    errors: {
      name: 'El campo Nombre es obligatorio',
      lastName: 'El campo Apellido es obligatorio',
      email: 'El campo Correo electrónico es obligatorio',
      phone: 'El campo Teléfono es obligatorio',
      message: 'El campo Mensaje es obligatorio',
      accept: 'Debes aceptar la política de privacidad',
      badEmail: 'Debe ser un correo electrónico válido',
      phoneLength: 'El teléfono debe tener exactamente 10 dígitos',
      phoneDigits: 'El teléfono solo puede contener números',
      tooLong: 'Este campo no debe contener más de 32 caracteres',
      type: 'Elige una de las opciones de la lista',
    },
    info: { email: 'contacto@academia.example', follow: 'Síguenos' },
  },
  {
    locale: 'en',
    prefix: '/en',
    title: 'Contact us',
    labels: {
      name: 'Name',
      lastName: 'Last name',
      email: 'Email',
      country: 'Country',
      dial: 'Country code',
      phone: 'Phone',
      type: 'Reason for your message',
      message: 'Message',
      accept: /accept the privacy policy/,
    },
    submit: 'Send message',
    otherType: 'Technical support',
    colombia: 'Colombia',
    sent: 'Message sent',
    tooMany: 'Too many messages were sent from your connection. Wait a few minutes and try again.',
    errors: {
      name: 'Name field is required',
      lastName: 'Last name field is required',
      email: 'Email field is required',
      phone: 'Phone field is required',
      message: 'Message field is required',
      accept: 'You must accept the privacy policy',
      badEmail: 'It has to be a valid email',
      phoneLength: 'The phone must have exactly 10 digits',
      phoneDigits: 'The phone may only contain numbers',
      tooLong: 'This field must not contain more than 32 characters',
      type: 'Choose one of the options in the list',
    },
    info: { email: 'contacto@academia.example', follow: 'Follow us' },
  },
] as const;
type Lang = (typeof LANGS)[number];

const PAGES = ['/contact-us', '/contact-1', '/contact-2'] as const;

const form = (page: Page) => page.locator('form.contact-form');
const status = (page: Page) => page.locator('#contact-status');
const field = (page: Page, l: Lang, name: keyof Lang['labels']) => form(page).getByLabel(l.labels[name], { exact: typeof l.labels[name] === 'string' });

/** Waits until the island has hydrated (its own checks and sending are active). */
async function enhanced(page: Page) {
  await expect(page.locator('form.contact-form[data-enhanced="true"]')).toBeAttached();
}

/** Fills a valid form; `token` makes the message findable in the outbox. */
async function fillValid(page: Page, l: Lang, token: string) {
  await field(page, l, 'name').fill('Ana');
  await field(page, l, 'lastName').fill('Pérez');
  await field(page, l, 'email').fill(`ana.${token}@example.com`);
  await field(page, l, 'phone').fill('3001234567');
  await field(page, l, 'message').fill(`Quiero información. ref ${token}`);
  await field(page, l, 'accept').check();
}

const token = () => `t${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

for (const l of LANGS) {
  const turn = languageTurns(LANGS, l);
  test.describe(`contact form (${l.locale})`, () => {
    if (turn()) test(`sends a message without reloading, says "${l.sent}" and empties the form`, async ({ page }) => {
      await page.goto(`${l.prefix}/contact-us`);
      await expect(page.getByRole('heading', { level: 1, name: l.title })).toBeVisible();
      await enhanced(page);
      // Defaults: type 8 (course information), United States, +1.
      await expect(field(page, l, 'dial')).toHaveValue('+1');
      await expect(field(page, l, 'type')).toHaveValue('8');
      const t = token();
      await fillValid(page, l, t);
      await field(page, l, 'type').selectOption({ label: l.otherType });
      await field(page, l, 'country').selectOption({ label: l.colombia });
      await expect(field(page, l, 'dial')).toHaveValue('+57');

      const navigations: string[] = [];
      page.on('framenavigated', (f) => navigations.push(f.url()));
      await form(page).getByRole('button', { name: l.submit }).click();

      await expect(status(page)).toHaveText(l.sent);
      await expect(status(page)).toBeFocused();
      await expect(status(page)).toHaveAttribute('aria-live', 'polite');
      expect(navigations).toEqual([]);
      for (const name of ['name', 'lastName', 'email', 'phone', 'message'] as const) await expect(field(page, l, name)).toHaveValue('');
      await expect(field(page, l, 'accept')).not.toBeChecked();
      await expect(field(page, l, 'type')).toHaveValue('8');

      // The message was stored and its notification written to the server's outbox.
      await expect.poll(() => outboxMail(t), { timeout: 10_000 }).toBeTruthy();
      const mail = (await outboxMail(t))!;
      expect(mail).toContain('+57 3001234567');
      expect(mail).toMatch(/^Reply-To: .*<ana\.t[a-z0-9]+@example\.com>/m);
    });

    if (turn()) test('shows every rule in the page language, next to its field, and focuses the first error', async ({ page }) => {
      // A whole journey (many pages, a login or two): more than the default budget on a busy 2-core machine.
      test.slow();
      const posts: string[] = [];
      page.on('request', (r) => r.method() === 'POST' && posts.push(r.url()));
      await page.goto(`${l.prefix}/contact-us`);
      await enhanced(page);

      await form(page).getByRole('button', { name: l.submit }).click();
      const expected = [
        ['name', l.errors.name],
        ['lastName', l.errors.lastName],
        ['email', l.errors.email],
        ['phone', l.errors.phone],
        ['message', l.errors.message],
        ['accept', l.errors.accept],
      ] as const;
      for (const [name, text] of expected) {
        const control = field(page, l, name);
        await expect(control).toHaveAttribute('aria-invalid', 'true');
        await expect(control).toHaveAccessibleDescription(new RegExp(text));
        await expect(form(page).getByText(text, { exact: true })).toBeVisible();
      }
      await expect(field(page, l, 'name')).toBeFocused();
      expect(posts).toEqual([]);

      // Checked as the visitor leaves each field.
      await field(page, l, 'email').fill('ana@');
      await field(page, l, 'email').blur();
      await expect(form(page).getByText(l.errors.badEmail)).toBeVisible();
      for (const [phone, text] of [
        ['300123456', l.errors.phoneLength],
        ['30012345678', l.errors.phoneLength],
        ['30012345ab', l.errors.phoneDigits],
      ] as const) {
        await field(page, l, 'phone').fill(phone);
        await field(page, l, 'phone').blur();
        await expect(field(page, l, 'phone'), phone).toHaveAccessibleDescription(new RegExp(text));
      }
      await field(page, l, 'name').fill('N'.repeat(33));
      await field(page, l, 'name').blur();
      await expect(field(page, l, 'name')).toHaveAccessibleDescription(new RegExp(l.errors.tooLong));

      // Fixing a field clears its message as it is typed.
      await field(page, l, 'phone').fill('3001234567');
      await expect(field(page, l, 'phone')).not.toHaveAttribute('aria-invalid');
      await expect(form(page).getByText(l.errors.phoneDigits)).toHaveCount(0);

      // Everything valid but the acceptance: the checkbox gets the focus and its message.
      await fillValid(page, l, token());
      await field(page, l, 'accept').uncheck();
      await form(page).getByRole('button', { name: l.submit }).click();
      await expect(form(page).getByText(l.errors.accept)).toBeVisible();
      await expect(field(page, l, 'accept')).toBeFocused();
      expect(posts).toEqual([]);
      await expectNoSeriousViolations(page);
    });

    if (turn()) test('a click on send straight from a field with a mistake still checks the whole form', async ({ page }) => {
      await page.goto(`${l.prefix}/contact-us`);
      await enhanced(page);
      await field(page, l, 'phone').fill('12345abc');
      await form(page).getByRole('button', { name: l.submit }).click();
      await expect(field(page, l, 'name')).toBeFocused();
      await expect(field(page, l, 'name')).toHaveAccessibleDescription(new RegExp(l.errors.name));
      await expect(field(page, l, 'phone')).toHaveAccessibleDescription(new RegExp(l.errors.phoneDigits));
    });
  });

  test.describe(`contact form without JavaScript (${l.locale})`, () => {
    test.use({ javaScriptEnabled: false });

    if (turn()) test('posts to the server, which answers 400 with the messages and keeps the values, then sends', async ({ page }) => {
      await page.goto(`${l.prefix}/contact-1`);
      await field(page, l, 'name').fill('Ana');
      await field(page, l, 'email').fill('ana@');
      await field(page, l, 'phone').fill('300123456');
      const submit = async () => {
        const response = page.waitForResponse((r) => r.request().method() === 'POST');
        await form(page).getByRole('button', { name: l.submit }).click();
        return (await response).status();
      };
      expect(await submit()).toBe(400);
      await expect(page).toHaveURL(/_action=contact\.send/);
      for (const [name, text] of [
        ['lastName', l.errors.lastName],
        ['email', l.errors.badEmail],
        ['phone', l.errors.phoneLength],
        ['message', l.errors.message],
        ['accept', l.errors.accept],
      ] as const) {
        await expect(field(page, l, name)).toHaveAttribute('aria-invalid', 'true');
        await expect(field(page, l, name)).toHaveAccessibleDescription(new RegExp(text));
      }
      await expect(field(page, l, 'name')).not.toHaveAttribute('aria-invalid');
      await expect(field(page, l, 'name')).toHaveValue('Ana');
      await expect(field(page, l, 'email')).toHaveValue('ana@');
      await expect(field(page, l, 'phone')).toHaveValue('300123456');

      const t = token();
      await fillValid(page, l, t);
      await field(page, l, 'type').selectOption({ label: l.otherType });
      expect(await submit()).toBe(200);
      await expect(status(page)).toHaveText(l.sent);
      await expect(field(page, l, 'name')).toHaveValue('');
      await expect(field(page, l, 'type')).toHaveValue('8');
      await expect.poll(() => outboxMail(t), { timeout: 10_000 }).toBeTruthy();
    });

    // One page shows each refusal in turn (a browser context each would cost more than the checks).
    if (turn()) test('refuses each mistake with a 400 and its message: an empty form, a bad email, phones of 9 and 11 characters, letters in the phone, the privacy policy not accepted, a name of 33 characters, a forged message type', async ({ page, baseURL }) => {
      for (const [label, patch, key] of [
        ['an empty form', { name: '', lastName: '', email: '', phone: '', message: '', accepts: '' }, 'name'],
        ['a bad email', { email: 'ana@example' }, 'badEmail'],
        ['a phone of 9 characters', { phone: '300123456' }, 'phoneLength'],
        ['a phone of 11 characters', { phone: '30012345678' }, 'phoneLength'],
        ['letters in the phone', { phone: '300abc4567' }, 'phoneDigits'],
        ['the privacy policy not accepted', { accepts: '' }, 'accept'],
        ['a name of 33 characters', { name: 'N'.repeat(33) }, 'tooLong'],
        ['a forged message type', { type: '999' }, 'type'],
      ] as const) {
        await test.step(`refuses ${label} with a 400 and its message`, async () => {
          const data: Record<string, string> = {
            name: 'Ana',
            lastName: 'Pérez',
            email: 'ana@example.com',
            countryCode: 'US',
            countryPhoneCode: '+1',
            phone: '3051234567',
            type: '8',
            message: 'Hola',
            accepts: 'on',
            language: l.locale,
            ...patch,
          };
          if (data.accepts === '') delete data.accepts;
          const response = await page.request.post(`${l.prefix}/contact-2?_action=contact.send`, { form: data, headers: { Origin: baseURL! } });
          expect(response.status(), label).toBe(400);
          await page.setContent(await response.text());
          await expect(page.locator('.field-error').getByText(l.errors[key], { exact: true }), label).toBeVisible();
          await expect(page.locator('#contact-status'), label).toHaveText('');
        });
      }
    });
  });
}

test('what was typed before the form came alive is kept and checked', async ({ page }) => {
  const l = LANGS[0]!;
  // The page's scripts arrive only once the visitor has typed (a slow connection).
  let release!: () => void;
  const arrived = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/_astro/**/*.js', async (route) => {
    await arrived;
    await route.continue();
  });
  await page.goto(`${l.prefix}/contact-2`, { waitUntil: 'commit' });
  await field(page, l, 'name').fill('Ana');
  await field(page, l, 'email').fill('ana@');
  await expect(form(page)).not.toHaveAttribute('data-enhanced', 'true');
  release();
  await enhanced(page);
  await expect(field(page, l, 'name')).toHaveValue('Ana');
  await expect(field(page, l, 'email')).toHaveValue('ana@');
  // The island checks what it took, not an empty field.
  await field(page, l, 'email').focus();
  await field(page, l, 'email').blur();
  await expect(field(page, l, 'email')).toHaveAccessibleDescription(new RegExp(l.errors.badEmail));
});

for (const l of LANGS) {
  // axe audits the error state once (in English; the Spanish /contact-2 is audited below): both languages draw the same markup.
  const audit = l.locale === 'en';
  test(`the server-rendered error state shows the field's message${audit ? ', with no serious axe violation' : ''} (${l.locale})`, async ({ page }) => {
    await page.goto(`${l.prefix}/contact-2`);
    // Filled once the island has hydrated: before, hydration could set the field back to empty.
    await enhanced(page);
    await field(page, l, 'email').fill('ana@');
    // form.submit() posts natively without a submit event, as a browser without JavaScript would.
    const response = page.waitForResponse((r) => r.request().method() === 'POST');
    await form(page).evaluate((f: HTMLFormElement) => f.submit());
    expect((await response).status()).toBe(400);
    await expect(field(page, l, 'email')).toHaveAccessibleDescription(new RegExp(l.errors.badEmail));
    await expect(field(page, l, 'email')).toHaveValue('ana@');
    if (audit) await expectNoSeriousViolations(page);
  });
}

for (const [i, path] of PAGES.entries()) {
  for (const [j, l] of LANGS.entries()) {
    const url = `${l.prefix}${path}`;
    // axe audits each layout once, Spanish and English by turns (both languages draw the same markup).
    const audit = (i + j) % 2 === 0;
    test(`${url} shows the form, the company details and social links${audit ? ', with no serious axe violation' : ''}`, async ({ page }) => {
      const response = await page.goto(url);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole('heading', { level: 1, name: l.title })).toBeVisible();
      await expect(form(page).getByRole('button', { name: l.submit })).toBeVisible();
      const main = page.getByRole('main');
      await expect(main.getByRole('link', { name: l.info.email })).toHaveAttribute('href', `mailto:${l.info.email}`);
      await expect(main.getByRole('link', { name: '+1 305 555 0142' })).toHaveAttribute('href', 'tel:+13055550142');
      await expect(main.getByText('1200 Brickell Ave, Miami, FL 33131').first()).toBeVisible();
      const social = main.getByRole('list', { name: l.info.follow });
      for (const name of ['Facebook', 'Instagram', 'YouTube', 'TikTok']) {
        await expect(social.getByRole('link', { name, exact: true })).toHaveAttribute('href', /^https:\/\//);
      }
      await expect(form(page).getByRole('link', { name: l.locale === 'es' ? 'política de privacidad' : 'privacy policy' })).toHaveAttribute(
        'href',
        `${l.prefix}/privacity`,
      );
      await enhanced(page);
      if (audit) await expectNoSeriousViolations(page);
    });
  }
}

test('each contact page draws its own layout of the same form @mobile', async ({ page }) => {
  const layouts: Record<string, string> = { '/contact-us': 'contact-beside', '/contact-1': 'contact-stacked', '/contact-2': 'contact-card' };
  for (const [path, cls] of Object.entries(layouts)) {
    await page.goto(path);
    await expect(page.locator(`section.${cls} form.contact-form`)).toHaveCount(1);
    // The page's own content never scrolls sideways (the shared header is checked by its own tests).
    expect(await page.evaluate(() => document.querySelector('main')!.scrollWidth), path).toBeLessThanOrEqual(page.viewportSize()!.width);
  }
  await page.goto('/contact-1');
  await expect(page.getByRole('heading', { name: 'Nuestra oficina' })).toBeVisible();
});

test('control characters in any field are refused with a 400 and the field’s message, never a 500', async ({ request, baseURL }) => {
  const base = { name: 'Ana', lastName: 'Pérez', email: 'ana@example.com', countryCode: 'US', countryPhoneCode: '+1', phone: '3051234567', type: '8', message: 'Hola', accepts: 'on', language: 'en' };
  for (const [field, value, text] of [
    ['name', 'Ana\u0000', 'Name field contains characters that are not allowed'],
    ['lastName', 'Pé\u0000rez', 'Last name field contains characters that are not allowed'],
    ['email', 'ana\u0000@example.com', 'Email field contains characters that are not allowed'],
    ['message', 'Hola\u0000; select 1', 'Message field contains characters that are not allowed'],
    ['message', 'Hola\u001b[31m', 'Message field contains characters that are not allowed'],
    ['name', 'Ana\u0085', 'Name field contains characters that are not allowed'],
  ] as const) {
    const response = await request.post('/en/contact-2?_action=contact.send', { form: { ...base, [field]: value }, headers: { Origin: baseURL! } });
    expect(response.status(), `${field} ${JSON.stringify(value)}`).toBe(400);
    const body = await response.text();
    expect(body).toContain(text);
    expect(body).not.toMatch(/insert into|invalid byte sequence|0x00/i);
  }
});

test.describe('contact messages per address, on a server of its own with the default limits', () => {
  const own = useOwnServer();

  const outbox = async () => (await readdir(join(own().dataDir, 'outbox')).catch(() => [] as string[])).filter((f) => f.endsWith('.eml')).length;

  test('five messages are sent; then the form says to wait (429) in the page language, and nothing is stored or mailed', async ({ page }) => {
    const send = (ref: string, language: string) =>
      page.request.post(`${own().baseURL}/_actions/contact.send`, {
        form: { name: 'Ana', lastName: 'Pérez', email: 'ana@example.com', countryCode: 'US', countryPhoneCode: '+1', phone: '3051234567', type: '8', message: `Mensaje ${ref}`, accepts: 'on', language },
        headers: { Origin: own().baseURL },
      });
    for (let i = 1; i <= 5; i++) expect((await send(`n${i}`, 'es')).status(), `message ${i}`).toBe(200);
    await expect.poll(outbox, { timeout: 10_000 }).toBe(5);

    const refused = await send('n6', 'en');
    expect(refused.status()).toBe(429);
    expect((await refused.json()).message).toBe(LANGS[1].tooMany);
    expect(Number(refused.headers()['retry-after'])).toBeGreaterThan(500);

    // The island shows the refusal where it says whether the message was sent, and keeps what was typed.
    await page.goto(`${own().baseURL}/en/contact-us`);
    await enhanced(page);
    await fillValid(page, LANGS[1], 'island');
    await form(page).getByRole('button', { name: LANGS[1].submit }).click();
    await expect(status(page)).toHaveText(LANGS[1].tooMany);
    await expect(field(page, LANGS[1], 'name')).toHaveValue('Ana');

    // Without JavaScript the page answers 429 with the same sentence in its own language.
    const noScript = await page.request.post(`${own().baseURL}/contact-1?_action=contact.send`, {
      form: { name: 'Ana', lastName: 'Pérez', email: 'ana@example.com', countryCode: 'US', countryPhoneCode: '+1', phone: '3051234567', type: '8', message: 'Sin JS', accepts: 'on', language: 'es' },
      headers: { Origin: own().baseURL },
    });
    expect(noScript.status()).toBe(429);
    await page.setContent(await noScript.text());
    await expect(page.locator('#contact-status')).toHaveText(LANGS[0].tooMany);

    expect(await outbox()).toBe(5);
    await own().stop();
    const db = new PGlite(join(own().dataDir, 'pglite'));
    try {
      const { rows } = await db.query<{ n: number }>('select count(*)::int as n from contact_messages');
      expect(rows[0]!.n).toBe(5);
    } finally {
      await db.close();
    }
  });
});
