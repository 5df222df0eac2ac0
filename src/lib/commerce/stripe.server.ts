/**
 * The Stripe payment gateway, through the official `stripe` package: PaymentIntents created and
 * confirmed in one call with an idempotency key, refunds, and the verification of Stripe's webhooks.
 * Chosen by `paymentGateway` when `STRIPE_SECRET_KEY` is set; the embedded sandbox otherwise.
 *
 * Card data and Stripe. Stripe does not let a server send raw card numbers (that would put the whole
 * server in PCI scope): in a real deployment the browser tokenizes the card with Stripe.js (the Payment
 * Element) and the form posts only the resulting PaymentMethod id (`pm_…`), which `fromPaymentMethod`
 * reads. `tokenize`, the interface's raw-card entry, therefore never sends a card anywhere:
 *  - with a test key (`sk_test_…`) it maps the academy's test cards onto Stripe's ready-made test
 *    PaymentMethods (`4242 4242 4242 4242` → `pm_card_visa`, `4000 0000 0000 0002` →
 *    `pm_card_chargeDeclined`, …), so the sandbox's checkout form and journeys run against a real
 *    Stripe test account unchanged;
 *  - with a live key it refuses (`RawCardRefusedError`): a live checkout must post a PaymentMethod id.
 * Either way the number and CVV stay in this function: only brand, last 4 and expiry come out.
 *
 * A charge's `chargeId` is the PaymentIntent's id (`pi_…`): refunds are made by it, and the webhook's
 * `payment_intent.succeeded` / `payment_intent.payment_failed` events name it, so an order holding the
 * `chargeId` of its payment attempt finds the events about it.
 */
import Stripe from 'stripe';
import type { Logger } from '../http/log.server';
import type { StripeSettings } from '../config/config';
import {
  IdempotencyConflictError,
  readCard,
  type CardDetails,
  type ChargeLookup,
  type ChargeRequest,
  type ChargeResult,
  type LookupRequest,
  type PaymentGateway,
  type RefundRequest,
  type RefundResult,
  type TokenizeResult,
} from './gateway';
import { SandboxGateway } from './sandbox';
import { PAYMENT_CONSTANTS } from './payload';
import { CARD_BRANDS, isExpired, type CardBrand, type StoredCard } from './payment';

/** The test PaymentMethods Stripe provides in test mode, by the academy's test card numbers (README). */
export const STRIPE_TEST_PAYMENT_METHODS: Readonly<Record<string, string>> = {
  '4242424242424242': 'pm_card_visa',
  '4000000000000002': 'pm_card_chargeDeclined',
  '4000000000009995': 'pm_card_chargeDeclinedInsufficientFunds',
  '4000000000000119': 'pm_card_chargeDeclinedProcessingError',
};

/** Any other valid test card: Stripe's approving test PaymentMethod of its brand. */
const TEST_PAYMENT_METHOD_BY_BRAND: Readonly<Record<CardBrand, string>> = {
  visa: 'pm_card_visa',
  mastercard: 'pm_card_mastercard',
  amex: 'pm_card_amex',
  discover: 'pm_card_discover',
  diners: 'pm_card_diners',
  jcb: 'pm_card_jcb',
  unknown: 'pm_card_visa',
};

/** A PaymentMethod id as Stripe.js hands it to the browser. */
const PAYMENT_METHOD_ID = /^pm_[A-Za-z0-9_]{1,250}$/;

/** A raw card given to the Stripe gateway with a live key: the checkout must send a Stripe.js PaymentMethod id instead. */
export class RawCardRefusedError extends Error {
  constructor() {
    super('A live Stripe key takes no raw card numbers: tokenize the card in the browser with Stripe.js and pass its PaymentMethod id to fromPaymentMethod.');
    this.name = 'RawCardRefusedError';
  }
}

export interface StripeGatewayOptions {
  /** `STRIPE_SECRET_KEY`. */
  secretKey: string;
  /** Stripe's own client options (tests: `httpClient`, `host`, `port`, `protocol`; retries). */
  client?: Stripe.StripeConfig;
  /** The clock that decides whether a card has expired. */
  now?: () => Date;
}

/** The metadata field every PaymentIntent carries its payment attempt's idempotency key in. */
export const ATTEMPT_KEY_METADATA = 'academy_attempt';

/** How long after a charge Stripe's search may still not show its PaymentIntent. */
export const STRIPE_SEARCH_LAG_MS = 10 * 60_000;

/** A PaymentIntent's state as a charge's answer. */
function resultOf(intent: Stripe.PaymentIntent): ChargeResult {
  switch (intent.status) {
    case 'succeeded':
      return { status: 'approved', chargeId: intent.id, amountCents: intent.amount_received || intent.amount };
    case 'requires_payment_method':
      return { status: intent.last_payment_error?.decline_code === 'insufficient_funds' ? 'insufficient-funds' : 'declined', chargeId: intent.id };
    default:
      // `requires_action` (3-D Secure) needs the buyer's browser, which this server-side charge does not
      // involve, and `processing` has no answer yet: the charge is declined here; a later success
      // still arrives as the webhook's `payment_intent.succeeded`, by this same PaymentIntent id.
      return { status: 'declined', chargeId: intent.id };
  }
}

/** Whether a Stripe error is worth another try (with a new idempotency key): the network, Stripe's side, its rate limit. */
function retryableFailure(err: unknown): boolean {
  return (
    err instanceof Stripe.errors.StripeAPIError ||
    err instanceof Stripe.errors.StripeConnectionError ||
    err instanceof Stripe.errors.StripeRateLimitError ||
    (err instanceof Stripe.errors.StripeCardError && err.code === 'processing_error')
  );
}

/** Stripe's card brand name as ours. */
function brandOf(name: string | null | undefined): CardBrand {
  return (CARD_BRANDS as readonly string[]).includes(name ?? '') ? (name as CardBrand) : 'unknown';
}

/** A payment gateway backed by a Stripe account. */
export class StripeGateway implements PaymentGateway {
  readonly name = 'stripe' as const;
  /** Test mode (`sk_test_`/`rk_test_`): raw test cards map onto Stripe's test PaymentMethods. */
  readonly testMode: boolean;
  private readonly stripe: Stripe;
  private readonly now: () => Date;

  constructor(options: StripeGatewayOptions) {
    this.testMode = /^(sk|rk)_test_/.test(options.secretKey);
    // One automatic retry of network failures, always with the same idempotency key (the SDK's own).
    this.stripe = new Stripe(options.secretKey, { maxNetworkRetries: 1, timeout: 20_000, ...options.client });
    this.now = options.now ?? (() => new Date());
  }

  /** See the module's comment: test cards in test mode only; the number and CVV never leave this function. */
  tokenize(card: CardDetails): Promise<TokenizeResult> {
    if (!this.testMode) return Promise.reject(new RawCardRefusedError());
    const read = readCard(card, this.now());
    if (!read.ok) return Promise.resolve(read);
    const token = STRIPE_TEST_PAYMENT_METHODS[read.digits] ?? TEST_PAYMENT_METHOD_BY_BRAND[read.card.brand];
    return Promise.resolve({ ok: true, token, card: read.card });
  }

  /**
   * The browser's tokenized card (a Stripe.js PaymentMethod id) as a token to charge, with what may be
   * shown and stored about the card, read from Stripe. An unknown or malformed id is an invalid card.
   */
  async fromPaymentMethod(paymentMethodId: string): Promise<TokenizeResult> {
    if (!PAYMENT_METHOD_ID.test(paymentMethodId)) return { ok: false, reason: 'invalid-card' };
    let pm: Stripe.PaymentMethod;
    try {
      pm = await this.stripe.paymentMethods.retrieve(paymentMethodId);
    } catch (err) {
      if (err instanceof Stripe.errors.StripeInvalidRequestError) return { ok: false, reason: 'invalid-card' };
      throw err;
    }
    if (pm.type !== 'card' || !pm.card) return { ok: false, reason: 'invalid-card' };
    const card: StoredCard = { brand: brandOf(pm.card.brand), last4: pm.card.last4, expiryMonth: pm.card.exp_month, expiryYear: pm.card.exp_year };
    if (isExpired(card.expiryMonth, card.expiryYear, this.now())) return { ok: false, reason: 'expired-card' };
    return { ok: true, token: pm.id, card };
  }

  /**
   * Creates and confirms a PaymentIntent for the amount with the card's PaymentMethod (nothing that redirects).
   * The idempotency key goes to Stripe: the same key sent again gets the first answer, and the same key
   * with a different request is an `IdempotencyConflictError`, as in the sandbox.
   */
  async charge(request: ChargeRequest): Promise<ChargeResult> {
    const { amountCents, currency, token, idempotencyKey } = request;
    if (!Number.isSafeInteger(amountCents) || amountCents <= 0) throw new RangeError(`A charge takes a positive amount of cents, not ${String(amountCents)}`);
    if (currency !== PAYMENT_CONSTANTS.currencyCode) throw new RangeError(`Unsupported currency ${String(currency)}`);
    if (idempotencyKey === '') throw new RangeError('A charge needs an idempotency key');
    let intent: Stripe.PaymentIntent;
    try {
      intent = await this.stripe.paymentIntents.create(
        {
          amount: amountCents,
          currency: currency.toLowerCase(),
          payment_method: token,
          confirm: true,
          // The attempt's key, so the reconciler (and the webhook) can find this PaymentIntent after a crash.
          metadata: { [ATTEMPT_KEY_METADATA]: idempotencyKey },
          // Confirmed here, with no page to come back to: nothing that redirects the buyer.
          automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
        },
        { idempotencyKey },
      );
    } catch (err) {
      return this.chargeFailure(err, idempotencyKey);
    }
    return resultOf(intent);
  }

  /**
   * The PaymentIntent made with an attempt's key, found by its metadata (Stripe's search). Search sees a
   * new PaymentIntent within about a minute: until `STRIPE_SEARCH_LAG_MS` after the charge was sent,
   * finding none means `unknown`; after it, `none` (a PaymentIntent that still turns up later reaches
   * the webhook, which finds the attempt by the same key and gives the money back).
   */
  async lookup({ idempotencyKey, startedAt, now }: LookupRequest): Promise<ChargeLookup> {
    const query = `metadata['${ATTEMPT_KEY_METADATA}']:'${idempotencyKey.replace(/[^A-Za-z0-9_-]/g, '')}'`;
    let found: Stripe.ApiSearchResult<Stripe.PaymentIntent>;
    try {
      found = await this.stripe.paymentIntents.search({ query, limit: 1 });
    } catch (err) {
      if (retryableFailure(err)) return { status: 'unknown' };
      throw err;
    }
    const intent = found.data[0];
    if (!intent) return now.getTime() - startedAt.getTime() > STRIPE_SEARCH_LAG_MS ? { status: 'none' } : { status: 'unknown' };
    return intent.status === 'processing' ? { status: 'unknown' } : resultOf(intent);
  }

  /** Stripe's refusal of a charge as a `ChargeResult`, or the error itself when it is ours to fix. */
  private chargeFailure(err: unknown, idempotencyKey: string): ChargeResult {
    if (err instanceof Stripe.errors.StripeIdempotencyError) throw new IdempotencyConflictError(idempotencyKey);
    if (retryableFailure(err)) return { status: 'processing-error', retryable: true };
    if (err instanceof Stripe.errors.StripeCardError) {
      const chargeId = err.payment_intent?.id ?? err.charge ?? '';
      return { status: err.decline_code === 'insufficient_funds' || err.code === 'insufficient_funds' ? 'insufficient-funds' : 'declined', chargeId };
    }
    // A bad key, a malformed request, an unknown PaymentMethod: the caller's (or the configuration's) bug.
    throw err;
  }

  /**
   * Refunds `amountCents` of a succeeded PaymentIntent (`chargeId`), or all that is left of it when
   * omitted (Stripe's `amount`). The key goes to Stripe and into the refund's metadata, so the webhook's
   * refund events find the academy's refund by it. A refund Stripe has not finished is `pending`.
   */
  async refund(request: RefundRequest): Promise<RefundResult> {
    try {
      const refund = await this.stripe.refunds.create(
        { payment_intent: request.chargeId, ...(request.amountCents === undefined ? {} : { amount: request.amountCents }), metadata: { [REFUND_KEY_METADATA]: request.idempotencyKey } },
        { idempotencyKey: request.idempotencyKey },
      );
      if (refund.status === 'failed' || refund.status === 'canceled') return { status: 'refused', reason: 'not-approved' };
      return { status: refund.status === 'succeeded' ? 'refunded' : 'pending', refundId: refund.id, amountCents: refund.amount };
    } catch (err) {
      if (err instanceof Stripe.errors.StripeIdempotencyError) throw new IdempotencyConflictError(request.idempotencyKey);
      if (err instanceof Stripe.errors.StripeInvalidRequestError) {
        if (err.code === 'charge_already_refunded') return { status: 'refused', reason: 'already-refunded' };
        if (err.code === 'resource_missing') return { status: 'refused', reason: 'unknown-charge' };
        // More than what is left of the charge.
        if (err.code === 'amount_too_large') return { status: 'refused', reason: 'too-much' };
        // A PaymentIntent that never succeeded has nothing to refund.
        return { status: 'refused', reason: 'not-approved' };
      }
      throw err;
    }
  }
}

/** The metadata field every refund carries the academy's refund key in. */
export const REFUND_KEY_METADATA = 'academy_refund';

/** The process's payment gateway: Stripe when `STRIPE_SECRET_KEY` is set, the embedded sandbox otherwise. */
export function paymentGateway(settings: StripeSettings, client?: Stripe.StripeConfig): PaymentGateway {
  return settings.secretKey ? new StripeGateway({ secretKey: settings.secretKey, ...(client ? { client } : {}) }) : new SandboxGateway();
}

/* ───────────── webhooks ───────────── */

/** How old a signed event may be (seconds) before it counts as a replay: Stripe's own default. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** Why an event was refused: no signature header, or one that does not match (forged, tampered, wrong secret, too old). */
export type WebhookVerdict = { ok: true; event: Stripe.Event } | { ok: false; reason: 'unsigned' | 'invalid-signature' };

/**
 * Checks a webhook request: the raw body exactly as received, its `Stripe-Signature` header and the
 * endpoint's secret. An event signed more than `toleranceSeconds` before `now` is refused as a replay.
 */
export function verifyStripeWebhook(
  rawBody: string | Uint8Array,
  signatureHeader: string | null | undefined,
  secret: string,
  options: { toleranceSeconds?: number; now?: () => Date } = {},
): WebhookVerdict {
  if (!signatureHeader) return { ok: false, reason: 'unsigned' };
  // The SDK takes the clock in milliseconds, and a tolerance of 0 would turn the age check off: at least 1 s.
  const receivedAt = options.now ? options.now().getTime() : undefined;
  const tolerance = Math.max(1, Math.floor(options.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS));
  try {
    const event = Stripe.webhooks.constructEvent(rawBody, signatureHeader, secret, tolerance, undefined, receivedAt);
    return { ok: true, event };
  } catch {
    // The SDK says why (its message quotes no secret); the answer only needs that it failed.
    return { ok: false, reason: 'invalid-signature' };
  }
}

/** A payment's final word from Stripe, by PaymentIntent id (the `chargeId` of the charge that made it). */
export interface PaymentEvent {
  outcome: 'succeeded' | 'failed';
  paymentIntentId: string;
  amountCents: number;
  /** Stripe's event id: the same event may be delivered more than once, so whoever records it keys by this or by the PaymentIntent. */
  eventId: string;
  /** Stripe's reason for a failure (`card_declined`, `insufficient_funds` …), `null` for a success. */
  failureCode: string | null;
  /** The payment attempt's idempotency key the PaymentIntent was made with (its metadata), if any. */
  attemptKey: string | null;
}

/** Who hears of payment outcomes: the orders module settles its order by `paymentIntentId` (it must be idempotent). */
export type PaymentEventListener = (event: PaymentEvent) => Promise<void>;

/** A refund's state reported by Stripe (`refund.created`, `refund.updated`, `refund.failed`, `charge.refund.updated`, and each refund of `charge.refunded`). */
export interface RefundEvent {
  refundId: string;
  status: 'succeeded' | 'pending' | 'failed';
  /** The academy's refund key (the refund's metadata), if it was made by the academy. */
  refundKey: string | null;
  amountCents: number;
  eventId: string;
}

/** Who hears of refunds' states: the back office's refunds finish or fail theirs (it must be idempotent). */
export type RefundEventListener = (event: RefundEvent) => Promise<void>;

const REFUND_EVENTS = new Set(['refund.created', 'refund.updated', 'refund.failed', 'charge.refund.updated']);

/** The refund events a Stripe event carries (none for any other event). */
export function refundEventsOf(event: Stripe.Event): RefundEvent[] {
  const of = (r: Stripe.Refund): RefundEvent => ({
    refundId: r.id,
    status: r.status === 'succeeded' ? 'succeeded' : r.status === 'failed' || r.status === 'canceled' ? 'failed' : 'pending',
    refundKey: typeof r.metadata?.[REFUND_KEY_METADATA] === 'string' ? r.metadata[REFUND_KEY_METADATA] : null,
    amountCents: r.amount,
    eventId: event.id,
  });
  if (REFUND_EVENTS.has(event.type)) return [of(event.data.object as Stripe.Refund)];
  if (event.type === 'charge.refunded') return (event.data.object.refunds?.data ?? []).map(of);
  return [];
}

/**
 * Handles a verified Stripe event: a PaymentIntent's success or failure is logged and handed to
 * `onPaymentEvent` (the orders module plugs in here: the endpoint passes its settle function), a
 * refund's state to `onRefundEvent`; any other event type is acknowledged and ignored. Returns the
 * payment event, if the event was one.
 */
export async function handleStripeEvent(runtime: { logger: Logger }, event: Stripe.Event, onPaymentEvent?: PaymentEventListener, onRefundEvent?: RefundEventListener): Promise<PaymentEvent | null> {
  const refunds = refundEventsOf(event);
  if (refunds.length > 0) {
    for (const r of refunds) {
      runtime.logger.info({ stripeEvent: r.eventId, refund: r.refundId, status: r.status, amountCents: r.amountCents }, 'stripe refund event');
      await onRefundEvent?.(r);
    }
    return null;
  }
  if (event.type !== 'payment_intent.succeeded' && event.type !== 'payment_intent.payment_failed') {
    runtime.logger.debug({ stripeEvent: event.id, type: event.type }, 'stripe event ignored');
    return null;
  }
  const intent = event.data.object;
  const payment: PaymentEvent = {
    outcome: event.type === 'payment_intent.succeeded' ? 'succeeded' : 'failed',
    paymentIntentId: intent.id,
    amountCents: event.type === 'payment_intent.succeeded' ? intent.amount_received || intent.amount : intent.amount,
    eventId: event.id,
    failureCode: event.type === 'payment_intent.payment_failed' ? (intent.last_payment_error?.decline_code ?? intent.last_payment_error?.code ?? 'unknown') : null,
    attemptKey: typeof intent.metadata?.[ATTEMPT_KEY_METADATA] === 'string' ? intent.metadata[ATTEMPT_KEY_METADATA] : null,
  };
  runtime.logger.info(
    { stripeEvent: payment.eventId, paymentIntent: payment.paymentIntentId, outcome: payment.outcome, amountCents: payment.amountCents, failureCode: payment.failureCode },
    'stripe payment event',
  );
  await onPaymentEvent?.(payment);
  return payment;
}
