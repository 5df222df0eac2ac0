/**
 * The checkout journey, each test as a new learner with course 6 in the cart: paying with the approved
 * test card in Spanish with a coupon (the brand shown as typed, the order's page, its receipt PDF and
 * e-mail, my shopping), a declined card in English (why, the cart kept, another card paying the same
 * cart), refused payments and unknown coupon codes limited (429 in words, with Retry-After), the form
 * without JavaScript (a Luhn failure answered 400 in words, then paid with a 303; a coupon applied, or
 * refused, with every field kept), and the pages at 360 px.
 */
import { confirmAddress, expect, outboxMail, test, type Page } from './fixtures';
import { registrationForm } from './support/seed';
import { fillPayment, paymentForm } from './support/payment';

const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const NEXT_YEAR = String(new Date().getUTCFullYear() + 1);

/** A new learner, logged in in the page's context, with course 6 in the cart. */
async function newBuyer(page: Page, tag: string): Promise<string> {
  const email = `compra.${tag}.${RUN}@example.com`;
  expect((await page.request.post('/_actions/auth.register', { form: registrationForm(email, 'Compra') })).status()).toBe(200);
  // Purchases wait for a confirmed address: the link mailed at sign-up, as the buyer would open it.
  await confirmAddress(page.request, email);
  expect((await page.request.post('/_actions/cart.add', { form: { kind: 'course', id: '6', lang: 'es' } })).status()).toBe(200);
  return email;
}

test('buys a course with the approved test card in Spanish, with a coupon: order page, receipt PDF and e-mail, my shopping', async ({ page }) => {
  await newBuyer(page, 'es');
  await page.goto('/purchase-detail');
  await expect(page.locator('form[data-enhanced="true"]')).toBeVisible();
  await fillPayment(page, 'es', '4242 4242 4242 4242');
  await expect(page.getByText('Tarjeta Visa')).toBeVisible();
  // A coupon applied after the card is typed: the summary changes in place, the payment form keeps everything.
  await page.getByLabel('Cupón de descuento').fill('bienvenida10');
  await page.getByRole('button', { name: 'Aplicar' }).click();
  await expect(page.getByText('Cupón BIENVENIDA10 aplicado: ahorras $2.00.')).toBeVisible();
  await expect(page.locator('[data-checkout-total]')).toHaveText('$17.99');
  await expect(page).toHaveURL(/\/purchase-detail\?coupon=bienvenida10$/);
  await expect(page.getByLabel('Número de tarjeta')).toHaveValue('4242 4242 4242 4242');
  await expect(page.getByLabel('CVV', { exact: true })).toHaveValue('123');
  await expect(page.getByLabel('Nombre del titular')).toHaveValue('Ana Pérez');
  await expect(page.getByLabel('Acepto los términos')).toBeChecked();
  // Removed in place too, and applied again: the form still holds the card.
  await page.getByRole('button', { name: 'Quitar el cupón' }).click();
  await expect(page.locator('[data-checkout-total]')).toHaveText('$19.99');
  await expect(page.getByRole('button', { name: 'Pagar $19.99' })).toBeVisible();
  await expect(page.getByLabel('Número de tarjeta')).toHaveValue('4242 4242 4242 4242');
  await page.getByLabel('Cupón de descuento').fill('bienvenida10');
  await page.getByLabel('Cupón de descuento').press('Enter');
  await expect(page.locator('[data-checkout-total]')).toHaveText('$17.99');
  await expect(page).toHaveURL(/\/purchase-detail\?coupon=bienvenida10$/);
  await expect(page.getByLabel('CVV', { exact: true })).toHaveValue('123');
  await expect(page.getByRole('button', { name: 'Pagar $17.99' })).toBeVisible();
  // Enter in a payment field pays (the form's first button is the coupon's Apply, which would not).
  await page.getByLabel('Número de identificación').press('Enter');
  await page.waitForURL(/\/myshopping-detail\/\d+\?paid=1$/);
  await expect(page.getByRole('status').filter({ hasText: '¡Pago recibido!' })).toBeVisible();
  await expect(page.getByText('Visa terminada en 4242')).toBeVisible();
  // The course bought is one click away.
  await expect(page.getByRole('link', { name: /^Empezar el curso / })).toHaveAttribute('href', '/course-tracking/6');
  const number = (await page.getByRole('heading', { level: 1 }).textContent())!.replace('Pedido ', '').trim();
  expect(number).toMatch(/^A-\d{6}$/);
  // The cart is empty, and the course is open.
  expect(JSON.parse(decodeURIComponent((await page.context().cookies()).find((c) => c.name === 'cart')!.value))).toEqual([]);
  const receipt = await page.request.get((await page.getByRole('link', { name: 'Descargar el recibo (PDF)' }).getAttribute('href'))!);
  expect(receipt.status()).toBe(200);
  expect(receipt.headers()['content-type']).toBe('application/pdf');
  expect((await receipt.body()).subarray(0, 5).toString()).toBe('%PDF-');
  await expect.poll(async () => (await outboxMail(`Tu recibo del pedido ${number}`)) ?? '', { timeout: 10_000 }).toContain('application/pdf');
  await page.goto('/myshopping');
  await expect(page.getByRole('link', { name: `Ver el pedido ${number}` })).toBeVisible();
  expect((await page.request.get('/course-tracking/6')).status()).toBe(200);
});

test('a declined card in English says why and keeps the cart; another card then pays it', async ({ page }) => {
  await newBuyer(page, 'en');
  await page.goto('/en/purchase-detail');
  await expect(page.locator('form[data-enhanced="true"]')).toBeVisible();
  await fillPayment(page, 'en', '4000 0000 0000 0002');
  // The declined attempt spent its payment key: the form asks for a new one, held here until the person
  // is already typing another number.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let asked = false;
  await page.route('**/_actions/commerce.newKey/', async (route) => {
    asked = true;
    await held;
    await route.continue();
  });
  await page.getByRole('button', { name: 'Pay $19.99' }).click();
  const declined = page.getByRole('alert').filter({ hasText: 'Your bank declined the payment. Try another card.' });
  await expect(declined).toBeVisible();
  // Announced at once: the focus is on the message before the new key arrives, and stays in the field
  // the person goes back to when it does.
  await expect(page.locator('#checkout-status')).toBeFocused();
  expect(JSON.parse(decodeURIComponent((await page.context().cookies()).find((c) => c.name === 'cart')!.value))).toEqual([{ kind: 'course', id: 6 }]);
  // The number groups as typed, as printed on the card, and the caret stays where the person types.
  const number = page.getByLabel('Card number');
  await number.fill('');
  await number.pressSequentially('42424242');
  // The new key was asked for and is still held (else this proves nothing about the focus).
  expect(asked).toBe(true);
  release();
  await expect(page.getByRole('button', { name: 'Pay $19.99' })).toBeEnabled();
  await expect(number).toBeFocused();
  await number.pressSequentially('4242424');
  await expect(number).toHaveValue('4242 4242 4242 424');
  await number.press('ArrowLeft');
  await number.press('ArrowLeft');
  await number.pressSequentially('9');
  await expect(number).toHaveValue('4242 4242 4242 4924');
  await number.fill('4242424242424242');
  await expect(number).toHaveValue('4242 4242 4242 4242');
  await page.getByLabel('CVV', { exact: true }).fill('123');
  await page.getByRole('button', { name: 'Pay $19.99' }).click();
  await page.waitForURL(/\/en\/myshopping-detail\/\d+\?paid=1$/);
  await page.goto('/en/myshopping');
  await expect(page.locator('.order-status[data-status="failed"]')).toHaveText('Failed');
  await expect(page.locator('.order-status[data-status="paid"]')).toHaveText('Paid');
});

test('ten refused payments in an hour stop the account from paying for a while, in words (429), even with a good card', async ({ page, baseURL }) => {
  await newBuyer(page, 'tarjetas');
  const headers = { origin: baseURL! };
  const pay = async (card: string) => {
    // A new checkout page for each payment, as a person trying card after card would open.
    const html = await (await page.request.get('/en/purchase-detail')).text();
    const key = { idempotencyKey: /name="idempotencyKey" value="([^"]+)"/.exec(html)![1]! };
    return page.request.post('/_actions/commerce.checkout', {
      headers,
      form: paymentForm({ cardNumber: card, idempotencyKey: key.idempotencyKey }),
    });
  };
  for (let i = 0; i < 10; i++) {
    const refused = await pay(i % 2 ? '4000 0000 0000 0002' : '4000 0000 0000 9995');
    expect(refused.status(), `refused payment ${i + 1}: ${await refused.text()}`).toBe(402);
  }
  const stopped = await pay('4242 4242 4242 4242');
  expect(stopped.status()).toBe(429);
  expect(await stopped.text()).toMatch(/Too many refused payments\. Wait (60|59) minutes before trying again\./);
  expect(Number(stopped.headers()['retry-after'])).toBeGreaterThan(3500);
  await page.goto('/en/myshopping');
  await expect(page.locator('[data-status="paid"]')).toHaveCount(0);
});

const COUPON_GUESSES = {
  es: { prefix: '', unknown: (code: string) => `El cupón ${code} no existe.`, limited: /^Probaste demasiados cupones que no existen\. Espera (60|59) minutos antes de probar otro\.$/ },
  en: { prefix: '/en', unknown: (code: string) => `The coupon ${code} does not exist.`, limited: /^You tried too many coupons that do not exist\. Wait (60|59) minutes before trying another\.$/ },
} as const;

for (const lang of ['es', 'en'] as const) {
  test(`coupon guesses (${lang}): ten unknown codes are answered "does not exist", then every look-up is told to wait (429, Retry-After); a real code does not count`, async ({ page, baseURL }) => {
    const t = COUPON_GUESSES[lang];
    await newBuyer(page, `cupones-${lang}`);
    // Looked up by the address (the link of the coupon's message), or by the form's Apply button without JavaScript.
    let posts = 0;
    const summary = async (code: string, by: 'get' | 'post' = 'get') => {
      if (by === 'post') posts++;
      const r =
        by === 'get'
          ? await page.request.get(`${t.prefix}/purchase-detail?coupon=${code}`)
          : await page.request.post(`${t.prefix}/purchase-detail`, { headers: { origin: baseURL! }, form: { ...paymentForm({ lang }), intent: 'apply-coupon', couponCode: code } });
      const message = /<p id="coupon-message"[^>]*>([^<]*)<\/p>/.exec(await r.text())?.[1] ?? '';
      return { status: r.status(), message, retryAfter: r.headers()['retry-after'] };
    };
    for (let i = 0; i < 3; i++) expect((await summary('bienvenida10')).status).toBe(200);
    for (let i = 0; i < 10; i++) expect(await summary(`NOEXISTE${i}`, i % 2 ? 'post' : 'get'), `guess ${i + 1}`).toMatchObject({ status: 200, message: t.unknown(`NOEXISTE${i}`) });
    expect(posts).toBe(5);
    // Past the limit, the real code too is not looked up: its answer would tell a guesser it exists.
    for (const [code, by] of [['NOEXISTE10', 'get'], ['BIENVENIDA10', 'get'], ['NOEXISTE11', 'post']] as const) {
      const stopped = await summary(code, by);
      expect(stopped.status, code).toBe(429);
      expect(stopped.message).toMatch(t.limited);
      expect(Number(stopped.retryAfter)).toBeGreaterThan(3500);
    }
    // The checkout's own look-up (the form posted with or without JavaScript) is limited the same way.
    const form = paymentForm({ coupon: 'OTRO', lang });
    const rpc = await page.request.post('/_actions/commerce.checkout', { headers: { origin: baseURL! }, form });
    expect(rpc.status()).toBe(429);
    expect((await rpc.json()).message).toMatch(t.limited);
    expect(Number(rpc.headers()['retry-after'])).toBeGreaterThan(3500);
    const posted = await page.request.post(`${t.prefix}/purchase-detail?_action=commerce.checkout`, { headers: { origin: baseURL! }, form, maxRedirects: 0 });
    expect(posted.status()).toBe(429);
    expect(Number(posted.headers()['retry-after'])).toBeGreaterThan(3500);
  });
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a card failing Luhn is answered 400 in words, then the form pays with a 303 to the order', async ({ page }) => {
    await newBuyer(page, 'nojs');
    await page.goto('/purchase-detail');
    await fillPayment(page, 'es', '4242 4242 4242 4241');
    const [refused] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.getByRole('button', { name: 'Pagar $19.99' }).click()]);
    expect(refused.status()).toBe(400);
    await expect(page.getByText('El número de tarjeta no es válido: revísalo')).toBeVisible();
    // What was typed comes back, except the card number and the CVV.
    await expect(page.getByLabel('Nombre del titular')).toHaveValue('Ana Pérez');
    await expect(page.getByLabel('Número de tarjeta')).toHaveValue('');
    await fillPayment(page, 'es', '4242 4242 4242 4242');
    const [paid] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.getByRole('button', { name: 'Pagar $19.99' }).click()]);
    expect(paid.status()).toBe(303);
    await expect(page).toHaveURL(/\/myshopping-detail\/\d+\?paid=1$/);
    await expect(page.getByText('¡Pago recibido!')).toBeVisible();
  });

  test('applying a coupon (and an unknown one) brings the page back priced with every field still typed; nothing is paid until Pay', async ({ page }) => {
    await newBuyer(page, 'nojs-cupon');
    await page.goto('/purchase-detail');
    await fillPayment(page, 'es', '4242 4242 4242 4242');
    const kept = async () => {
      await expect(page.getByLabel('Nombre del titular')).toHaveValue('Ana Pérez');
      await expect(page.getByLabel('Número de tarjeta')).toHaveValue('4242 4242 4242 4242');
      await expect(page.getByLabel('CVV', { exact: true })).toHaveValue('123');
      await expect(page.getByLabel('Mes de vencimiento')).toHaveValue('12');
      await expect(page.getByLabel('Año de vencimiento')).toHaveValue(NEXT_YEAR);
      await expect(page.getByLabel('Año de nacimiento')).toHaveValue('1990');
      await expect(page.getByLabel('País')).toHaveValue('US');
      await expect(page.getByLabel('Tipo de identificación')).toHaveValue('1');
      await expect(page.getByLabel('Número de identificación')).toHaveValue('AB123');
      await expect(page.getByLabel('Acepto los términos')).toBeChecked();
    };
    const apply = async (code: string) => {
      await page.getByLabel('Cupón de descuento').fill(code);
      const [answer] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.getByRole('button', { name: 'Aplicar' }).click()]);
      expect(answer.status()).toBe(200);
      // What was typed (the card too) is in this answer: no cache may keep it.
      expect(answer.headers()['cache-control']).toContain('no-store');
    };
    await apply('BIENVENIDA10');
    await expect(page.getByText('Cupón BIENVENIDA10 aplicado: ahorras $2.00.')).toBeVisible();
    await expect(page.locator('[data-checkout-total]')).toHaveText('$17.99');
    await kept();
    // A code that does not exist says so, and keeps the form too (the discount is gone).
    await apply('NOEXISTE');
    await expect(page.getByText('El cupón NOEXISTE no existe.')).toBeVisible();
    await expect(page.locator('[data-checkout-total]')).toHaveText('$19.99');
    await kept();
    // Nothing was charged: the cart is still there, and paying with the coupon back takes $17.99.
    await apply('BIENVENIDA10');
    await kept();
    const [paid] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.getByRole('button', { name: 'Pagar $17.99' }).click()]);
    expect(paid.status()).toBe(303);
    await expect(page).toHaveURL(/\/myshopping-detail\/\d+\?paid=1$/);
    await expect(page.getByText('$17.99').first()).toBeVisible();
  });

  test('a membership bought with the form is active with its next renewal on my shopping, and cancelling it keeps access until the period ends', async ({ page }) => {
    const email = `socia.${RUN}@example.com`;
    expect((await page.request.post('/_actions/auth.register', { form: registrationForm(email, 'Socia') })).status()).toBe(200);
    await confirmAddress(page.request, email);
    expect((await page.request.post('/_actions/cart.add', { form: { kind: 'plan', id: '1', lang: 'es' } })).status()).toBe(200);
    await page.goto('/purchase-detail');
    await fillPayment(page, 'es', '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Pagar $9.99' }).click();
    await expect(page).toHaveURL(/\/myshopping-detail\/\d+\?paid=1$/);
    await page.goto('/myshopping');
    const plan = page.locator('[data-membership]');
    await expect(plan.getByRole('heading', { name: 'Membresía Básica' })).toBeVisible();
    await expect(plan.getByText('Activa', { exact: true })).toBeVisible();
    await expect(plan.getByText(/^Se renueva el \d+ de \w+ de \d{4} con la tarjeta Visa terminada en 4242\.$/)).toBeVisible();
    const [cancel] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), plan.getByRole('button', { name: 'Cancelar la membresía' }).click()]);
    expect(cancel.status()).toBe(200);
    await expect(page.getByText(/^Cancelaste tu membresía Básica: conservas el acceso hasta el \d+ de \w+ de \d{4}\.$/)).toBeVisible();
    await expect(plan.getByText('Cancelada', { exact: true })).toBeVisible();
    await expect(plan.getByRole('button', { name: 'Cancelar la membresía' })).toHaveCount(0);
    // Someone else's membership (or none) is not found, in words.
    const foreign = await page.request.post('/_actions/commerce.cancelMembership', { form: { membership: '999999', lang: 'en' }, headers: { origin: new URL(page.url()).origin } });
    expect(foreign.status()).toBe(404);
    expect(await foreign.text()).toContain('We could not find that membership among yours.');
  });
});

test('checkout and order pages fit a 360 px screen @mobile', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 780 });
  await newBuyer(page, 'movil');
  const fits = async () => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  // The cart page, in both languages (the English one once scrolled sideways).
  for (const cart of ['/purchase', '/en/purchase']) {
    await page.goto(cart);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await fits();
  }
  await page.goto('/en/purchase-detail?coupon=AGOTADO');
  await expect(page.getByText('The coupon AGOTADO has reached its maximum number of uses.')).toBeVisible();
  await fits();
  // On a phone the summary, with the coupon's message, comes before the payment form.
  const summaryTop = (await page.getByRole('heading', { name: 'Order summary' }).boundingBox())!.y;
  const couponTop = (await page.getByText('The coupon AGOTADO has reached its maximum number of uses.').boundingBox())!.y;
  const paymentTop = (await page.getByRole('heading', { name: 'Payment details' }).boundingBox())!.y;
  expect(summaryTop).toBeLessThan(paymentTop);
  expect(couponTop).toBeLessThan(paymentTop);
  await expect(page.locator('form[data-enhanced="true"]')).toBeVisible();
  await fillPayment(page, 'en', '4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Pay $19.99' }).click();
  await page.waitForURL(/\/en\/myshopping-detail\/\d+\?paid=1$/);
  await fits();
  await page.goto('/en/myshopping');
  await fits();
});
