import type { Page } from '@playwright/test';

/**
 * A complete payment form as the checkout page posts it: the sandbox's approving test card, an expiry
 * two years ahead, and an idempotency key the server never issued (so it is refused before any order)
 * unless `over` gives a real one. Journeys, fuzz targets, the authorization matrix and the checkout
 * benchmark start from it and change what they test.
 */
export const FORGED_CHECKOUT_KEY = '6f1c2b1e-3c1a-4b7e-9d2f-1a2b3c4d5e6f';

export function paymentForm(over: Record<string, string> = {}): Record<string, string> {
  return {
    cardholderName: 'Ana Pérez',
    cardNumber: '4242 4242 4242 4242',
    expiryMonth: '12',
    expiryYear: String(new Date().getUTCFullYear() + 2),
    cvv: '123',
    birthYear: '1990',
    identificationType: '1',
    identificationNumber: 'AB123',
    country: 'US',
    acceptsTerms: 'on',
    idempotencyKey: FORGED_CHECKOUT_KEY,
    lang: 'en',
    ...over,
  };
}

/** The payment form's labels in each language. */
const PAYMENT_LABELS = {
  es: { name: 'Nombre del titular', number: 'Número de tarjeta', month: 'Mes de vencimiento', year: 'Año de vencimiento', cvv: 'CVV', birth: 'Año de nacimiento', country: 'País', idType: 'Tipo de identificación', idNumber: 'Número de identificación', terms: 'Acepto los términos' },
  en: { name: 'Cardholder name', number: 'Card number', month: 'Expiry month', year: 'Expiry year', cvv: 'CVV', birth: 'Birth year', country: 'Country', idType: 'Identification type', idNumber: 'Identification number', terms: 'I accept the terms' },
};

/** Fills the checkout page's payment form (in the page's language) with `card`, expiring next year, as a buyer types it. */
export async function fillPayment(page: Page, lang: 'es' | 'en', card: string): Promise<void> {
  const t = PAYMENT_LABELS[lang];
  await page.getByLabel(t.name).fill('Ana Pérez');
  await page.getByLabel(t.number).fill(card);
  await page.getByLabel(t.month).selectOption('12');
  await page.getByLabel(t.year).selectOption(String(new Date().getUTCFullYear() + 1));
  await page.getByLabel(t.cvv, { exact: true }).fill('123');
  await page.getByLabel(t.birth).selectOption('1990');
  await page.getByLabel(t.country).selectOption('US');
  await page.getByLabel(t.idType).selectOption('1');
  await page.getByLabel(t.idNumber).fill('AB123');
  await page.getByLabel(t.terms).check();
}
