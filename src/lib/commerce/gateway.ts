/**
 * The payment gateway: what checkout and renewals ask of whoever moves the money. The embedded
 * sandbox that answers by test card is in `sandbox.ts`, Stripe's gateway in `stripe.server.ts`.
 *
 * The card number and CVV go into `tokenize` and never come out: everything after it holds a token
 * and the card's brand, last 4 and expiry. Amounts are integer cents.
 */
import { PAYMENT_CONSTANTS } from './payload';
import { cardBrand, cardNumberError, cvvError, isExpired, lastFour, normalizeCardNumber, type StoredCard } from './payment';

/** The currency every charge is made in. */
export type Currency = typeof PAYMENT_CONSTANTS.currencyCode;

/** A card as typed in the checkout form (only `tokenize` ever sees it). */
export interface CardDetails {
  number: string;
  expiryMonth: number;
  expiryYear: number;
  cvv: string;
}

/** A tokenized card: the token to charge, and what may be shown and stored about the card. */
export type TokenizeResult = { ok: true; token: string; card: StoredCard } | { ok: false; reason: 'invalid-card' | 'expired-card' };

/** How a charge ended. */
export const CHARGE_STATUSES = ['approved', 'declined', 'insufficient-funds', 'processing-error'] as const;
export type ChargeStatus = (typeof CHARGE_STATUSES)[number];

/** A charge request. The same `idempotencyKey` sent again gets the first answer and charges nothing more. */
export interface ChargeRequest {
  amountCents: number;
  currency: Currency;
  token: string;
  idempotencyKey: string;
}

/**
 * A charge's answer. A processing error is the gateway's failure, not the card's: it may be retried,
 * with a new idempotency key (the same key returns the same error).
 */
export type ChargeResult =
  | { status: 'approved'; chargeId: string; amountCents: number }
  | { status: 'declined' | 'insufficient-funds'; chargeId: string }
  | { status: 'processing-error'; retryable: true };

/**
 * A refund request: `amountCents` of an approved charge (a partial refund), or all that is left of it
 * when omitted. The same `idempotencyKey` sent again gets the first answer and refunds nothing more.
 */
export interface RefundRequest {
  chargeId: string;
  idempotencyKey: string;
  amountCents?: number;
}

/**
 * A refund's answer: made (`refunded`), accepted but not final yet (`pending`: Stripe tells the end by
 * its webhook), or refused — nothing left to refund, or more asked than is left (`too-much`).
 */
export type RefundResult =
  | { status: 'refunded' | 'pending'; refundId: string; amountCents: number }
  | { status: 'refused'; reason: 'unknown-charge' | 'not-approved' | 'already-refunded' | 'too-much' };

/**
 * What every gateway checks of a card before it tokenizes it: a valid number (Luhn, brand, length), a
 * real expiry month and year, a CVV of the brand's length, not expired at `now`. The digits are for the
 * gateway's own use; only the stored facts (brand, last 4, expiry) may leave it.
 */
export function readCard(card: CardDetails, now: Date): { ok: true; digits: string; card: StoredCard } | { ok: false; reason: 'invalid-card' | 'expired-card' } {
  const digits = normalizeCardNumber(card.number);
  if (digits === null || cardNumberError(digits) !== undefined) return { ok: false, reason: 'invalid-card' };
  const brand = cardBrand(digits);
  const month = card.expiryMonth;
  if (!Number.isInteger(month) || month < 1 || month > 12 || !Number.isInteger(card.expiryYear) || card.expiryYear > 9999 || cvvError(card.cvv, brand) !== undefined) {
    return { ok: false, reason: 'invalid-card' };
  }
  if (isExpired(month, card.expiryYear, now)) return { ok: false, reason: 'expired-card' };
  return { ok: true, digits, card: { brand, last4: lastFour(digits), expiryMonth: month, expiryYear: card.expiryYear } };
}

/** A question about a charge sent earlier, perhaps by a process that died before it heard the answer. */
export interface LookupRequest {
  idempotencyKey: string;
  /** When the charge was sent (the attempt was recorded just before). */
  startedAt: Date;
  /** The time of the question. */
  now: Date;
}

/**
 * What the gateway knows of the charge sent with a key: its answer; `none` when no charge was made under
 * it and none will be; `unknown` when it cannot tell yet (ask again later).
 */
export type ChargeLookup = ChargeResult | { status: 'none' } | { status: 'unknown' };

/** Whoever moves the money: the embedded sandbox, or Stripe when it is configured. */
export interface PaymentGateway {
  readonly name: 'sandbox' | 'stripe';
  tokenize(card: CardDetails): Promise<TokenizeResult>;
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /** Asks about a charge by its idempotency key (the reconciler's question after a crash). */
  lookup(request: LookupRequest): Promise<ChargeLookup>;
  refund(request: RefundRequest): Promise<RefundResult>;
}

/** An idempotency key sent again with a different request: a bug or a forged key, never a retry. */
export class IdempotencyConflictError extends Error {
  constructor(key: string) {
    super(`The idempotency key ${key} was already used for a different request.`);
    this.name = 'IdempotencyConflictError';
  }
}
