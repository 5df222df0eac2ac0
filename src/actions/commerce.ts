/**
 * The checkout action: the payment form of `/purchase-detail` posts here, with or without JavaScript.
 * A thin call into `lib/commerce`: the form is checked with the same schema the browser uses, the
 * order is placed and paid by the runtime's checkout (the cart priced by the server, one order per
 * idempotency key), and on payment the cart is emptied, the person's pages are told and the receipt is
 * e-mailed. Every refusal is a localized sentence with a 4xx: no order, no charge.
 */
import { ActionError, type ActionAPIContext } from 'astro:actions';
import { action, type Refusals } from './kit';
import { format, LOCALES, messages, type Locale } from '~/i18n';
import { personChange } from '~/lib/runtime/changes';
import { z } from '~/lib/zod';
import { CART_COOKIE, cartCookieOptions, couponCodeOf, parseCart, refusalStatus, serializeCart, validateCheckoutForm, withoutBought, type CheckoutRefusal } from '~/lib/commerce';
import { receiptFacts } from '~/lib/commerce/receipt';
import { buyerOf, ownOrder, readCoupon } from '~/lib/commerce/orders.server';
import { cancelMembership } from '~/lib/commerce/memberships.server';
import { identificationTypeExists } from '~/lib/commerce/pages.server';
import { REFERRAL_COOKIE } from '~/lib/identity/referral';
import { emailVerified } from '~/lib/identity';
import { mailLocale } from '~/lib/identity/account';
import { localePath, paths } from '~/lib/paths';
import { catalogContext } from '~/lib/app.server';
import { inputError } from './input-error';
import { limitedCheckout, lookUpCoupon } from '~/lib/commerce/limits.server';

/** A refusal as an HTTP error with its sentence (a coupon's names the code). */
function refusalError(reason: CheckoutRefusal, locale: Locale, couponCode: string | null): ActionError {
  const t = messages(locale).commerce;
  const message = reason.startsWith('coupon-') && couponCode ? format(t.coupon[reason as Exclude<keyof typeof t.coupon, 'coupon-limited'>], { code: couponCode }) : t.refusals[reason];
  return new ActionError({ code: refusalStatus(reason) === 409 ? 'CONFLICT' : 'BAD_REQUEST', message });
}

/** E-mails the receipt of a paid order; a failure is logged (the order stays paid, the receipt stays downloadable). */
async function mailReceipt(ctx: ActionAPIContext, orderId: number, userId: number, pageLocale: Locale): Promise<void> {
  const { runtime } = ctx.locals;
  try {
    const [order, buyer] = await Promise.all([ownOrder(runtime.db, userId, orderId), buyerOf(runtime.db, userId)]);
    if (!order || !buyer) return;
    // In the language the buyer chose in their profile, else the checkout page's.
    const locale = mailLocale(buyer.locale, pageLocale);
    const t = messages(locale);
    const facts = receiptFacts(order, buyer, locale, t.commerce, t.meta.siteName);
    // Loaded on first use: the PDF library is not needed by any other form.
    const { sendReceipt } = await import('~/lib/commerce/receipt.server');
    await sendReceipt((m) => runtime.mailer.send(m), facts, runtime.siteOrigin(ctx.url) + localePath(locale, paths.myShoppingDetail(orderId)));
  } catch (err) {
    runtime.logger.error({ err, orderId }, 'receipt e-mail not sent');
  }
}

/** Every checkout action's 401: "log in to pay". */
const refusals: Refusals = { unauthorized: (t) => t.commerce.payment.login };

export const commerce = {
  /** A new idempotency key for the person's checkout form (after a refusal used up the form's). 401 without a user's session. */
  newKey: action('commerce.newKey', {
    input: z.object({ lang: z.enum(LOCALES).default('es') }),
    refusals,
    handler: (_input, { person, runtime }) => ({ idempotencyKey: runtime.checkout.keys.issue(person.userId) }),
  }),
  /**
   * Pays the cart: `{ orderId, next }` (the order's page) once paid. 401 without a user's session;
   * 400 with field codes for a bad form; 400/409 with a sentence for a forged or reused key, a cart
   * that cannot be bought as it is (malformed, unknown, hidden or already bought products) or a coupon
   * that does not apply; 402 when the card is declined or lacks funds (the cart is kept); 429 (with
   * Retry-After) past the refused-payment or coupon-guess limits; 503 when the processor failed (the
   * order waits: posting the same form again retries it).
   */
  checkout: action('commerce.checkout', {
    accept: 'form',
    refusals,
    handler: async (form: FormData, { ctx, runtime, person, locale, t: messages, limits, tooMany }) => {
      const t = messages.commerce;
      const { userId, contactId } = person;

      // Only text fields are read: a price or anything else the browser adds is ignored.
      const fields: Record<string, string> = {};
      for (const [name, value] of form) if (typeof value === 'string' && !(name in fields)) fields[name] = value;
      const checked = validateCheckoutForm(fields, new Date());
      if (!checked.success) throw inputError(Object.entries(checked.errors).map(([field, code]) => ({ path: [field], message: code })));
      if (!(await identificationTypeExists(runtime.db, checked.data.identificationType))) throw inputError([{ path: ['identificationType'], message: 'invalidOption' }]);
      // Nothing is bought from an address its owner has not confirmed (the receipt and the access go there).
      if (!(await emailVerified(runtime.db, userId))) throw new ActionError({ code: 'FORBIDDEN', message: messages.security.verify.needed });
      const couponCode = couponCodeOf(fields.coupon);
      if (couponCode === undefined) throw refusalError('coupon-unknown', locale, null);

      if (couponCode !== null) {
        // A code that does not exist counts against the person's coupon guesses (one that exists does not).
        const found = await lookUpCoupon(limits.limiter, limits.keys('couponGuessesPerAccount', 'couponGuessesPerAddress'), () => readCoupon(runtime.db, couponCode));
        if (found.kind === 'limited') throw tooMany(found.retryAfterSeconds, t.coupon['coupon-limited']);
        if (found.kind === 'unknown') throw refusalError('coupon-unknown', locale, couponCode);
      }

      // Each payment takes an attempt from the refused-payment limits before its card goes anywhere, and
      // gives it back unless the card is refused: past the limits, no card reaches the gateway for a while.
      const { catalog } = await catalogContext(ctx.locals);
      const outcome = await limitedCheckout(limits.limiter, limits.keys('paymentFailuresPerAccount', 'paymentFailuresPerAddress'), () =>
        runtime.checkout.checkout({
          userId,
          contactId,
          catalog,
          cartCookie: ctx.cookies.get(CART_COOKIE)?.value,
          form: checked.data,
          couponCode,
          locale,
          referralVisitorId: ctx.cookies.get(REFERRAL_COOKIE)?.value,
        }),
      );
      if (outcome.kind === 'limited') throw tooMany(outcome.retryAfterSeconds, t.payment.tooMany);
      if (outcome.kind === 'refused') throw refusalError(outcome.reason, locale, couponCode);
      if (outcome.kind === 'failed') throw new ActionError({ code: 'PAYMENT_REQUIRED', message: t.payment[outcome.reason] });
      if (outcome.kind === 'retry' || outcome.kind === 'unavailable') throw new ActionError({ code: 'SERVICE_UNAVAILABLE', message: t.payment['processing-error'] });

      // Paid (here, or earlier when a paid form is posted again): the cart loses what the order bought,
      // and every process forgets what this person could see.
      const orderId = outcome.order.id;
      const bought = (await ownOrder(runtime.db, userId, orderId))?.items.map((i) => ({ kind: i.productKind, id: i.productId })) ?? [];
      ctx.cookies.set(CART_COOKIE, serializeCart(withoutBought(parseCart(ctx.cookies.get(CART_COOKIE)?.value), bought)), cartCookieOptions(ctx.locals.runtime.config.production && ctx.url.protocol === 'https:'));
      // The receipt goes out in the background: the buyer does not wait for the PDF and the mail server.
      if (outcome.settledHere) void mailReceipt(ctx, orderId, userId, locale);
      return { orderId, next: localePath(locale, paths.myShoppingDetail(orderId, true)), changed: outcome.settledHere ? [personChange({ userId, contactId })] : [] };
    },
  }),
  /**
   * Cancels one of the person's memberships (from *my shopping*, with or without JavaScript): no more
   * renewals, access until the period ends; cancelling again changes nothing. 401 without a user's
   * session; 404 for a membership that is not the person's.
   */
  cancelMembership: action('commerce.cancelMembership', {
    accept: 'form',
    input: z.object({ membership: z.coerce.number().int().positive().max(2_147_483_647), lang: z.enum(LOCALES).default('es') }),
    refusals,
    handler: async ({ membership }, { person, runtime, t }) => {
      const { userId } = person;
      const cancelled = await cancelMembership(runtime.db, userId, membership, new Date());
      if (!cancelled) throw new ActionError({ code: 'NOT_FOUND', message: t.commerce.memberships.notFound });
      return { membership: cancelled.id, endsAt: cancelled.endsAt.toISOString(), changed: [personChange({ userId })] };
    },
  }),
};
