/**
 * The header's mini cart: it follows the buy buttons, lists what the server prices, removes through the
 * cart action, opens and closes from the keyboard, fits a 360 px screen, and is a plain link without
 * JavaScript.
 */
import { expect, test, type Page } from './fixtures';

/** Adds course `id` from its card's add-to-cart button on the courses page. */
async function addFromCard(page: Page, id: number, label: RegExp) {
  await page.locator(`article.course-card[data-course-id="${id}"]`).getByRole('button', { name: label }).click();
}

test('a buy button updates the badge and the panel; the panel removes a product and checks out', async ({ page }) => {
  await page.goto('/courses');
  await addFromCard(page, 8, /^Agregar al carrito/);
  const cart = page.getByRole('button', { name: 'Carrito: 1 producto' });
  await expect(cart).toHaveAttribute('aria-expanded', 'false');
  await expect(cart.locator('[data-cart-count]')).toHaveText('1');

  await cart.click();
  await expect(cart).toHaveAttribute('aria-expanded', 'true');
  const panel = page.getByRole('region', { name: 'Tu carrito' });
  await expect(panel.getByRole('listitem')).toHaveCount(1);
  await expect(panel).toContainText('Redes sociales para vendedores de viajes');
  await expect(panel.locator('[data-mini-cart-total]')).toHaveText('$29.99');

  // The button closes it; a second product from the page, and opened again it lists both.
  await cart.click();
  await expect(panel).toBeHidden();
  await addFromCard(page, 6, /^Agregar al carrito/);
  await page.getByRole('button', { name: 'Carrito: 2 productos' }).click();
  await expect(panel.getByRole('listitem')).toHaveCount(2);
  await expect(panel.locator('[data-mini-cart-total]')).toHaveText('$49.98');

  await panel.getByRole('button', { name: 'Quitar: Redes sociales para vendedores de viajes' }).click();
  await expect(panel.getByRole('listitem')).toHaveCount(1);
  await expect(panel.locator('[data-mini-cart-total]')).toHaveText('$19.99');
  await expect(page.locator('[data-cart-count]')).toHaveText('1');
  // The removal went through the server: the cart page agrees.
  await panel.getByRole('link', { name: 'Ir a pagar' }).click();
  await expect(page).toHaveURL(/\/purchase$/);
  await expect(page.locator('[data-cart-total]')).toHaveText('$19.99');
  // The currency is named where the total is.
  await expect(page.getByRole('rowheader', { name: 'Total (USD)' })).toBeVisible();
});

test('keyboard: Enter opens, Tab reaches the panel, Escape closes and gives focus back (en)', async ({ page }) => {
  await page.goto('/en/courses');
  await addFromCard(page, 6, /^Add to cart/);
  const cart = page.getByRole('button', { name: 'Cart: 1 product' });
  await cart.focus();
  await page.keyboard.press('Enter');
  await expect(cart).toHaveAttribute('aria-expanded', 'true');
  const panel = page.getByRole('region', { name: 'Your cart' });
  await expect(panel.getByRole('link', { name: 'Checkout' })).toHaveAttribute('href', '/en/purchase');
  // The lines show once the server has priced them (the checkout link is there before): Tab after they show.
  const remove = panel.getByRole('button', { name: 'Remove: Personal finance essentials' });
  await expect(remove).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(remove).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(cart).toHaveAttribute('aria-expanded', 'false');
  await expect(cart).toBeFocused();
});

test('at 360 px the cart stays in the bar and its panel fits the screen @mobile', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/courses');
  await addFromCard(page, 6, /^Agregar al carrito/);
  const cart = page.getByRole('button', { name: 'Carrito: 1 producto' });
  await expect(cart).toBeVisible();
  await cart.click();
  const panel = page.getByRole('region', { name: 'Tu carrito' });
  await expect(panel.getByRole('listitem')).toHaveCount(1);
  const box = (await panel.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(360);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the badge is a link to the cart page', async ({ page }) => {
    await page.goto('/en/courses');
    const link = page.getByRole('link', { name: 'Cart', exact: true });
    await expect(link).toHaveAttribute('href', '/en/purchase');
    await link.click();
    await expect(page).toHaveURL(/\/en\/purchase$/);
  });
});
