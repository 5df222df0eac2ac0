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
