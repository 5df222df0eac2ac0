/**
 * The purchase payload: `details` (productCode and price of each course,
 * book and membership) and `payment` (amount, currencyCode, countryCode, language, paymentType,
 * wayToPayId, token and further fields), under the business constants, which are defined here and
 * nowhere else. Pure.
 *
 * Amounts: everything before this module is integer cents. The payload's amounts are US dollars with
 * two decimals (the original sent the course's `value`, e.g. 49.9); the payload writes them as
 * decimal strings with exactly two decimals ("49.90"), made from the cents by integer arithmetic, so
 * no float ever rounds a price on its way to the processor.
 */
import type { Locale } from '~/i18n';
import { centsToDecimal, MAX_PRICE_CENTS, sumCents } from './money';
import type { CartItem } from './cart';

/** The business constants for payments, in one place. */
export const PAYMENT_CONSTANTS = {
  applicationId: 10,
  entityId: 3,
  productId: 78,
  paymentProductId: 36,
  supplierId: 11,
  currencyCode: 'USD',
  countryCode: 'USA',
} as const;

/**
 * How the form pays: by card, through the payment product. The payload has `paymentType` and
 * `wayToPayId` fields but no fixed values for them; the card is the only way offered, and its way to
 * pay is the payment product (36).
 */
export const CARD_PAYMENT = { paymentType: 'card', wayToPayId: PAYMENT_CONSTANTS.paymentProductId } as const;

/** An order line as the payload needs it: what it is, its product code and its price in cents. */
export interface PayloadLine {
  kind: CartItem['kind'];
  productCode: string;
  cents: number;
}

/** One entry of `details`. */
export interface PayloadDetail {
  productCode: string;
  /** "course", "book" or "membership". */
  productType: 'course' | 'book' | 'membership';
  /** Dollars with two decimals ("49.90"). */
  price: string;
}

/** The purchase payload. */
export interface PaymentPayload {
  applicationId: typeof PAYMENT_CONSTANTS.applicationId;
  entityId: typeof PAYMENT_CONSTANTS.entityId;
  productId: typeof PAYMENT_CONSTANTS.productId;
  supplierId: typeof PAYMENT_CONSTANTS.supplierId;
  details: PayloadDetail[];
  payment: {
    /** What is charged: the details' sum less the discount, dollars with two decimals. */
    amount: string;
    currencyCode: typeof PAYMENT_CONSTANTS.currencyCode;
    countryCode: typeof PAYMENT_CONSTANTS.countryCode;
    language: Locale;
    paymentType: typeof CARD_PAYMENT.paymentType;
    wayToPayId: typeof CARD_PAYMENT.wayToPayId;
    paymentProductId: typeof PAYMENT_CONSTANTS.paymentProductId;
    /** The gateway's card token (never the card number). */
    token: string;
    /** The coupon's discount, dollars with two decimals ("0.00" without one). */
    discount: string;
    couponCode: string | null;
  };
}

/** What the payload is built from. */
export interface PayloadInput {
  lines: readonly PayloadLine[];
  language: Locale;
  token: string;
  /** The coupon's discount in cents (see `applyCoupon`). */
  discountCents?: number;
  couponCode?: string | null;
}

const PRODUCT_TYPE = { course: 'course', book: 'book', plan: 'membership' } as const;

/**
 * The purchase payload of an order. Throws a RangeError for what no order can be: no lines, a line
 * without a product code or with a price that is not positive whole cents, a discount outside
 * 0…total, a total above what a price can hold, nothing left to charge (a fully discounted order is not sent to be paid), or no token.
 */
export function buildPaymentPayload(input: PayloadInput): PaymentPayload {
  const { lines, language, token, discountCents = 0, couponCode = null } = input;
  if (lines.length === 0) throw new RangeError('An order needs at least one line');
  for (const l of lines) {
    if (l.productCode.trim() === '') throw new RangeError('A line needs a product code');
    if (!Number.isSafeInteger(l.cents) || l.cents <= 0) throw new RangeError(`A line's price must be positive cents, not ${String(l.cents)}`);
  }
  const totalCents = sumCents(lines.map((l) => l.cents));
  // An order's total is stored like a price (numeric(10,2)).
  if (totalCents > MAX_PRICE_CENTS) throw new RangeError(`Order total out of range: ${String(totalCents)}`);
  if (!Number.isSafeInteger(discountCents) || discountCents < 0 || discountCents > totalCents) throw new RangeError(`Discount out of range: ${String(discountCents)}`);
  const amountCents = totalCents - discountCents;
  if (amountCents === 0) throw new RangeError('Nothing to charge');
  if (token === '') throw new RangeError('A payment needs a token');
  return {
    applicationId: PAYMENT_CONSTANTS.applicationId,
    entityId: PAYMENT_CONSTANTS.entityId,
    productId: PAYMENT_CONSTANTS.productId,
    supplierId: PAYMENT_CONSTANTS.supplierId,
    details: lines.map((l) => ({ productCode: l.productCode, productType: PRODUCT_TYPE[l.kind], price: centsToDecimal(l.cents) })),
    payment: {
      amount: centsToDecimal(amountCents),
      currencyCode: PAYMENT_CONSTANTS.currencyCode,
      countryCode: PAYMENT_CONSTANTS.countryCode,
      language,
      paymentType: CARD_PAYMENT.paymentType,
      wayToPayId: CARD_PAYMENT.wayToPayId,
      paymentProductId: PAYMENT_CONSTANTS.paymentProductId,
      token,
      discount: centsToDecimal(discountCents),
      couponCode,
    },
  };
}
