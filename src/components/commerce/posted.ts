/**
 * The outcome of a checkout posted without JavaScript, for the page to draw: each field's error or
 * the refusal's sentence, the response status it deserves (400, 402, 409, 503 …), the values it may
 * show again (never the card number or the CVV), and the form's key when a processing error left its
 * order waiting to be retried with the same form.
 */
import type { AstroGlobal } from 'astro';
import { isInputError } from 'astro:actions';
import { checkoutErrorsFromFields, type CheckoutErrors } from '~/lib/commerce/payment';

/** Fields whose typed value the page may show again: never the card number nor the CVV. */
const ECHOED = ['coupon', 'cardholderName', 'expiryMonth', 'expiryYear', 'birthYear', 'identificationType', 'identificationNumber', 'country', 'acceptsTerms'] as const;
const ECHO_LIMIT = 100;

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
