/**
 * The payment gateway: what checkout and renewals ask of whoever moves the money, and the embedded
 * sandbox that answers by test card, so a fresh install can sell without an account anywhere.
 *
 * The card number and CVV go into `tokenize` and never come out: everything after it holds a token
 * and the card's brand, last 4 and expiry. Amounts are integer cents.
 */
import { PAYMENT_CONSTANTS } from './payload';
import { CARD_BRANDS, cardBrand, cardNumberError, cvvError, isExpired, lastFour, normalizeCardNumber, type StoredCard } from './payment';

/** The currency every charge is made in (spec section 9). */
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

/** A refund request: the whole of an approved charge. */
export interface RefundRequest {
  chargeId: string;
  idempotencyKey: string;
}

export type RefundResult = { status: 'refunded'; refundId: string; amountCents: number } | { status: 'refused'; reason: 'unknown-charge' | 'not-approved' | 'already-refunded' };

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

/** Whoever moves the money: the embedded sandbox, or Stripe when it is configured. */
export interface PaymentGateway {
  readonly name: 'sandbox' | 'stripe';
  tokenize(card: CardDetails): Promise<TokenizeResult>;
  charge(request: ChargeRequest): Promise<ChargeResult>;
  refund(request: RefundRequest): Promise<RefundResult>;
}

/** An idempotency key sent again with a different request: a bug or a forged key, never a retry. */
export class IdempotencyConflictError extends Error {
  constructor(key: string) {
    super(`The idempotency key ${key} was already used for a different request.`);
    this.name = 'IdempotencyConflictError';
  }
}

/* ───────────── the sandbox ───────────── */

/** The sandbox's test cards and how it answers them; any other valid card is approved. */
export const SANDBOX_TEST_CARDS: Readonly<Record<string, ChargeStatus>> = {
  '4242424242424242': 'approved',
  '4000000000000002': 'declined',
  '4000000000009995': 'insufficient-funds',
  '4000000000000119': 'processing-error',
};

const OUTCOME_CODES: Record<ChargeStatus, string> = { approved: 'a', declined: 'd', 'insufficient-funds': 'i', 'processing-error': 'p' };
const TOKEN = /^tok_sandbox_([adip])_([a-z]+)_([0-9]{4})_([0-9]{2})([0-9]{4})_[A-Za-z0-9-]+$/;

/** What a sandbox token stands for. */
interface TokenFacts extends StoredCard {
  outcome: ChargeStatus;
}

/**
 * Reads a sandbox token. The token itself carries the outcome, brand, last 4 and expiry (never more),
 * so the sandbox keeps no card at all and a token saved for renewals still works after a restart.
 */
function readToken(token: string): TokenFacts | undefined {
  const m = TOKEN.exec(token);
  if (!m) return undefined;
  const outcome = (Object.keys(OUTCOME_CODES) as ChargeStatus[]).find((s) => OUTCOME_CODES[s] === m[1]);
  const brand = CARD_BRANDS.find((b) => b === m[2]);
  if (!outcome || !brand) return undefined;
  return { outcome, brand, last4: m[3] ?? '', expiryMonth: Number(m[4]), expiryYear: Number(m[5]) };
}

/** A charge the sandbox made (no card: only the token, which carries brand and last 4). */
export interface SandboxCharge {
  chargeId: string;
  amountCents: number;
  currency: Currency;
  token: string;
  status: Exclude<ChargeStatus, 'processing-error'>;
  refunded: boolean;
}

export interface SandboxOptions {
  /** The clock that decides whether a card has expired. */
  now?: () => Date;
  /** New ids (charges, refunds, token suffixes); random UUIDs unless a test wants them predictable. */
  newId?: () => string;
  /** Milliseconds each charge takes, as a network would (0: answer on the next tick). */
  latencyMs?: number;
}

/**
 * The embedded sandbox: in memory, deterministic by test card. Idempotency keys live as long as the
 * process (the order's unique key guards across processes). Never holds a card number or CVV.
 */
export class SandboxGateway implements PaymentGateway {
  readonly name = 'sandbox' as const;
  /** Charges made, by id. */
  readonly charges = new Map<string, SandboxCharge>();
  /** Each idempotency key's request and its one answer. */
  readonly chargeKeys = new Map<string, { request: string; result: Promise<ChargeResult> }>();
  readonly refundKeys = new Map<string, { chargeId: string; result: RefundResult }>();
  /** How many charges were actually attempted (idempotent repeats not counted). */
  chargeCount = 0;

  private readonly now: () => Date;
  private readonly newId: () => string;
  private readonly latencyMs: number;

  constructor(options: SandboxOptions = {}) {
    this.now = options.now ?? (() => new Date());
    this.newId = options.newId ?? (() => globalThis.crypto.randomUUID());
    this.latencyMs = options.latencyMs ?? 0;
  }

  tokenize(card: CardDetails): Promise<TokenizeResult> {
    const read = readCard(card, this.now());
    if (!read.ok) return Promise.resolve(read);
    const { digits, card: stored } = read;
    const outcome = SANDBOX_TEST_CARDS[digits] ?? 'approved';
    const token = `tok_sandbox_${OUTCOME_CODES[outcome]}_${stored.brand}_${stored.last4}_${String(stored.expiryMonth).padStart(2, '0')}${stored.expiryYear}_${this.newId()}`;
    return Promise.resolve({ ok: true, token, card: stored });
  }

  charge(request: ChargeRequest): Promise<ChargeResult> {
    const { amountCents, currency, token, idempotencyKey } = request;
    if (!Number.isSafeInteger(amountCents) || amountCents <= 0) return Promise.reject(new RangeError(`A charge takes a positive amount of cents, not ${String(amountCents)}`));
    if (currency !== PAYMENT_CONSTANTS.currencyCode) return Promise.reject(new RangeError(`Unsupported currency ${String(currency)}`));
    if (idempotencyKey === '') return Promise.reject(new RangeError('A charge needs an idempotency key'));
    const fingerprint = JSON.stringify([amountCents, currency, token]);
    const seen = this.chargeKeys.get(idempotencyKey);
    if (seen) return seen.request === fingerprint ? seen.result : Promise.reject(new IdempotencyConflictError(idempotencyKey));
    // Registered before anything is awaited: a concurrent repeat finds this very promise.
    const result = this.execute(amountCents, currency, token);
    this.chargeKeys.set(idempotencyKey, { request: fingerprint, result });
    return result;
  }

  private async execute(amountCents: number, currency: Currency, token: string): Promise<ChargeResult> {
    this.chargeCount++;
    await (this.latencyMs > 0 ? new Promise((r) => setTimeout(r, this.latencyMs)) : Promise.resolve());
    const facts = readToken(token);
    const outcome = facts === undefined || isExpired(facts.expiryMonth, facts.expiryYear, this.now()) ? 'declined' : facts.outcome;
    if (outcome === 'processing-error') return { status: 'processing-error', retryable: true };
    const chargeId = `ch_sandbox_${this.newId()}`;
    this.charges.set(chargeId, { chargeId, amountCents, currency, token, status: outcome, refunded: false });
    return outcome === 'approved' ? { status: 'approved', chargeId, amountCents } : { status: outcome, chargeId };
  }

  refund(request: RefundRequest): Promise<RefundResult> {
    const seen = this.refundKeys.get(request.idempotencyKey);
    if (seen) return seen.chargeId === request.chargeId ? Promise.resolve(seen.result) : Promise.reject(new IdempotencyConflictError(request.idempotencyKey));
    const charge = this.charges.get(request.chargeId);
    let result: RefundResult;
    if (!charge) result = { status: 'refused', reason: 'unknown-charge' };
    else if (charge.status !== 'approved') result = { status: 'refused', reason: 'not-approved' };
    else if (charge.refunded) result = { status: 'refused', reason: 'already-refunded' };
    else {
      charge.refunded = true;
      result = { status: 'refunded', refundId: `re_sandbox_${this.newId()}`, amountCents: charge.amountCents };
    }
    this.refundKeys.set(request.idempotencyKey, { chargeId: request.chargeId, result });
    return Promise.resolve(result);
  }
}
