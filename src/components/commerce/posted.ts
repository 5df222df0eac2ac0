/**
 * The outcome of a checkout posted without JavaScript, for the page to draw: each field's error or
 * the refusal's sentence, the response status it deserves (400, 402, 409, 503 …), the values it may
 * show again (never the card number or the CVV), and the form's key when a processing error left its
 * order waiting to be retried with the same form. Also the form posted to apply or remove a coupon
 * (nothing paid): the coupon asked for and everything typed, to draw the form again as it was.
 */
import type { AstroGlobal } from 'astro';
import { isInputError } from 'astro:actions';
import { checkoutErrorsFromFields, checkoutIntent, COUPON_FIELD, type CheckoutErrors } from '~/lib/commerce/payment';

/** Fields whose typed value the page may show again: never the card number nor the CVV. */
const ECHOED = ['coupon', 'cardholderName', 'expiryMonth', 'expiryYear', 'birthYear', 'identificationType', 'identificationNumber', 'country', 'acceptsTerms'] as const;
const ECHO_LIMIT = 100;
/**
 * Fields a coupon post draws again: all of them. Nothing was charged and the form is still being
 * filled in, so the card number and CVV come back too, in an answer no cache keeps (no-store).
 */
const KEPT_FOR_COUPON = [...ECHOED, 'cardNumber', 'cvv'] as const;

export interface PostedCheckout {
  errors: CheckoutErrors;
  message: string | null;
  values: Record<string, string>;
  /** The posted key, to keep (a processing error: posting the same form again retries its order). */
  retryKey: string | null;
}

export async function readPostedCheckout(
  Astro: AstroGlobal,
  result: { error?: { status: number; code: string; message: string } | undefined } | undefined,
): Promise<PostedCheckout> {
  const error = result?.error;
  if (!error) return { errors: {}, message: null, values: {}, retryKey: null };
  Astro.response.status = error.status;
  // A limit's refusal (429) says in its header too how long to wait.
  if (error.status === 429 && Astro.locals.retryAfterSeconds !== undefined) Astro.response.headers.set('Retry-After', String(Astro.locals.retryAfterSeconds));
  // Read a copy: the action read its own, and @astrojs/react reads the body again while rendering.
  const data = Astro.request.method === 'POST' ? await Astro.request.clone().formData().catch(() => null) : null;
  const values: Record<string, string> = {};
  for (const name of ECHOED) {
    const v = data?.get(name);
    if (typeof v === 'string') values[name] = v.slice(0, ECHO_LIMIT);
  }
  const key = data?.get('idempotencyKey');
  const retryKey = error.code === 'SERVICE_UNAVAILABLE' && typeof key === 'string' ? key : null;
  if (isInputError(error)) return { errors: checkoutErrorsFromFields(error.fields as Record<string, string[]>), message: null, values, retryKey: null };
  return { errors: {}, message: error.message, values, retryKey };
}

/** A checkout form posted to apply (or remove) a coupon: the coupon to price with, and everything typed. */
export interface CouponPost {
  coupon: string | null;
  values: Record<string, string>;
}

/**
 * Reads a checkout form posted without JavaScript by the coupon's Apply (or Remove) button: the page
 * is posted without an action, with `intent`. Null for anything else (a view, or a payment).
 */
export async function readCouponPost(Astro: AstroGlobal): Promise<CouponPost | null> {
  if (Astro.request.method !== 'POST') return null;
  const data = await Astro.request.clone().formData().catch(() => null);
  const intent = checkoutIntent(data?.get('intent'));
  if (!data || !intent) return null;
  const values: Record<string, string> = {};
  for (const name of KEPT_FOR_COUPON) {
    const v = data.get(name);
    if (typeof v === 'string') values[name] = v.slice(0, ECHO_LIMIT);
  }
  const typed = data.get(COUPON_FIELD);
  const coupon = intent === 'apply-coupon' && typeof typed === 'string' && typed.trim() !== '' ? typed.slice(0, ECHO_LIMIT) : null;
  return { coupon, values };
}
