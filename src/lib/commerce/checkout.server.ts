/**
 * Checkout: placing an order from the server-priced cart, charging it through the runtime's payment
 * gateway, and what a paid order grants (in the same transaction that marks it paid). Reading a
 * person's orders is in `orders.server.ts`, the checkout keys in `checkout-keys.server.ts`.
 *
 * One order per checkout, however many times its form is posted: the form carries an idempotency key
 * the server issued to this person for this checkout view (`CheckoutKeys`), unique per person in the
 * database. Concurrent repeats in one process share one flight; across processes the unique key
 * decides who creates the order, and the one `started` payment attempt allowed per order decides who
 * charges it; the others wait for the answer. The gateway is also given one idempotency key per
 * attempt, so even a crashed process's retry is never charged twice.
 *
 * The card number and CVV reach only `gateway.tokenize`; what is stored and logged holds the brand,
 * last 4 and expiry, and the payment payload with the gateway's token.
 */
import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { couponRedemptions, coupons, orderItems, orders, paymentAttempts, purchaseAccess, users, type Order } from '../db/schema';
import type { Locale } from '~/i18n/locales';
import type { CatalogSnapshot } from '../catalog/catalog';
import { loadViewer } from '../access/access.server';
import type { CheckoutForm, StoredCard } from './payment';
import type { ChargeResult, PaymentGateway, TokenizeResult } from './gateway';
import { alreadyHeld, failOrder, grant, settleAttempt, type Settled } from './settle.server';
import { reconcileAttempt, RECONCILE_AFTER_MS } from './reconcile.server';
import type { Coupon } from './coupon';
import { buildPaymentPayload, PAYMENT_CONSTANTS, type PaymentPayload } from './payload';
import { checkoutLines, couponRefusal, orderAmounts, type CheckoutLine, type CheckoutRefusal, type OrderAmounts, type PaymentFailure } from './checkout';
import type { CheckoutKeys } from './checkout-keys.server';
import { readCoupon, referringIbo } from './orders.server';

/** What a checkout needs besides the form: the person, the catalogue and their cart cookie. */
export interface CheckoutRequest {
  userId: number;
  contactId: number | null;
  catalog: CatalogSnapshot;
  /** The `cart` cookie's raw value. */
  cartCookie: string | undefined;
  /** The checked payment form (card number and CVV included: they go to the gateway only). */
  form: CheckoutForm;
  /** The coupon code typed in the summary (normalized), or null. */
  couponCode: string | null;
  locale: Locale;
  /** The `ref` cookie (affiliate visits of this browser), for the referring IBO. */
  referralVisitorId?: string | undefined;
}

/** How a checkout ended. `settledHere`: this call finished the payment (it, and only it, sends the receipt). */
export type CheckoutOutcome =
  | { kind: 'paid'; order: Order; settledHere: boolean }
  | { kind: 'failed'; order: Order; reason: Exclude<PaymentFailure, 'processing-error'> }
  /** The processor failed: the order stays pending, and posting the same form again retries it. */
  | { kind: 'retry'; order: Order }
  /** The gateway could not take the card at all (unreachable, or a live Stripe key given a raw card): nothing was ordered. */
  | { kind: 'unavailable' }
  | { kind: 'refused'; reason: CheckoutRefusal; order?: Order };

/** Where log lines go (the runtime's pino logger). */
interface LogSink {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface CheckoutServiceOptions {
  db: Db;
  gateway: PaymentGateway;
  keys: CheckoutKeys;
  logger?: LogSink;
  now?: () => Date;
  /** How long a repeat waits for another process's charge to be answered (ms). */
  waitMs?: number;
  /** A pending order younger than this blocks another order of the same products (ms). */
  inFlightMs?: number;
}

const SILENT: LogSink = { info: () => undefined, warn: () => undefined };

/** A failure the database reports for a unique index. */
export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/** Thrown inside a transaction when another request created this checkout's order first. */
class AlreadyPlaced extends Error {
  constructor(readonly order: Order) {
    super('already placed');
  }
}

/** Thrown inside a transaction to roll it back with a refusal. */
class Refused extends Error {
  constructor(readonly reason: CheckoutRefusal) {
    super(reason);
  }
}

/** The gateway key of an order's attempt: stable, so a retry of the same attempt is never a second charge. */
export function attemptKey(orderId: number, attemptNumber: number): string {
  return `order-${orderId}-attempt-${attemptNumber}`;
}

/**
 * Checkout: one per runtime (process). `checkout` places the order and pays it; repeats of the same
 * checkout (same person and key) in this process share one flight.
 */
export class CheckoutService {
  readonly #flights = new Map<string, Promise<CheckoutOutcome>>();
  readonly #db: Db;
  readonly #gateway: PaymentGateway;
  readonly keys: CheckoutKeys;
  readonly #log: LogSink;
  readonly #now: () => Date;
  readonly #waitMs: number;
  readonly #inFlightMs: number;

  constructor(opts: CheckoutServiceOptions) {
    this.#db = opts.db;
    this.#gateway = opts.gateway;
    this.keys = opts.keys;
    this.#log = opts.logger ?? SILENT;
    this.#now = opts.now ?? (() => new Date());
    this.#waitMs = opts.waitMs ?? 30_000;
    this.#inFlightMs = opts.inFlightMs ?? 10 * 60_000;
  }

  /** The gateway's name (`sandbox`, `stripe`). */
  get gatewayName(): string {
    return this.#gateway.name;
  }

  /** Places and pays the order of one checkout form (see the module's comment). */
  checkout(req: CheckoutRequest): Promise<CheckoutOutcome> {
    const key = req.form.idempotencyKey;
    const state = this.keys.check(req.userId, key);
    if (state === 'forged') return Promise.resolve({ kind: 'refused', reason: 'forged-key' });
    const flightKey = `${req.userId}:${key}`;
    let flight = this.#flights.get(flightKey);
    if (!flight) {
      flight = this.#run(req, state === 'expired').finally(() => this.#flights.delete(flightKey));
      this.#flights.set(flightKey, flight);
    }
    return flight;
  }

  async #run(req: CheckoutRequest, expiredKey = false): Promise<CheckoutOutcome> {
    const existing = await this.#orderByKey(req.userId, req.form.idempotencyKey);
    if (existing) return this.#again(existing, req);
    // A key over a day old still answers for the order it placed, but places none.
    if (expiredKey) return { kind: 'refused', reason: 'expired-key' };

    // Prices, visibility and what was bought are read fresh: never a cached viewer or a browser's price.
    const viewer = await loadViewer(this.#db, { kind: 'learner', userId: req.userId, contactId: req.contactId }, this.#now());
    const cart = checkoutLines(req.cartCookie, req.catalog, viewer);
    if (!cart.ok) {
      // A repeat arriving after this checkout was paid finds the courses bought: it is the same checkout.
      const placed = await this.#orderByKey(req.userId, req.form.idempotencyKey);
      return placed ? this.#again(placed, req) : { kind: 'refused', reason: cart.reason };
    }
    const coupon = req.couponCode === null ? null : await readCoupon(this.#db, req.couponCode);
    if (req.couponCode !== null && !coupon) return { kind: 'refused', reason: 'coupon-unknown' };
    const priced = orderAmounts(cart.lines, coupon, this.#now());
    if (!priced.ok) return { kind: 'refused', reason: couponRefusal(priced.reason) };

    // The card goes to the gateway here and nowhere else; from now on only its token and stored facts.
    const tokenized = await this.#tokenize(req.form);
    if (tokenized === 'unavailable') return { kind: 'unavailable' };
    if (!tokenized.ok) return { kind: 'refused', reason: tokenized.reason };

    // The payload (with the card's token) is stored with the attempt before the charge: whoever settles
    // it after a crash grants a plan's membership with the token its renewals charge.
    const payload = buildPaymentPayload({
      lines: cart.lines.map((l) => ({ kind: l.kind, productCode: l.productCode, cents: l.cents })),
      language: req.locale,
      token: tokenized.token,
      discountCents: priced.amounts.discountCents,
      couponCode: coupon?.coupon.code ?? null,
    });
    let created: { order: Order; attempt: number | null };
    try {
      created = await this.#create(req, cart.lines, priced.amounts, coupon?.coupon ?? null, tokenized.card, payload);
    } catch (err) {
      if (err instanceof Refused) return { kind: 'refused', reason: err.reason };
      if (err instanceof AlreadyPlaced) return this.#again(err.order, req);
      // Another process created this checkout's order first: it is the same checkout.
      if (isUniqueViolation(err)) {
        const placed = await this.#orderByKey(req.userId, req.form.idempotencyKey);
        if (placed) return this.#again(placed, req);
      }
      throw err;
    }
    if (created.attempt === null) return { kind: 'paid', order: created.order, settledHere: true };
    return this.#charge(created.order, created.attempt, tokenized.token, payload);
  }

  /** This checkout's order already exists: its outcome, after waiting for a charge in flight or retrying a processing error. */
  async #again(order: Order, req: CheckoutRequest): Promise<CheckoutOutcome> {
    const deadline = Date.now() + this.#waitMs;
    let current = order;
    // A form posted again once its order was paid answers that order (it never buys twice); once its
    // order failed, the form is used up. A repeat that arrived while the charge was in flight gets
    // that charge's answer.
    if (current.status === 'failed') return { kind: 'refused', reason: 'reused-key', order: current };
    for (;;) {
      if (current.status === 'paid' || current.status === 'refunded') return { kind: 'paid', order: current, settledHere: false };
      if (current.status === 'failed') return current.failureReason === 'already-bought' ? { kind: 'refused', reason: 'already-bought', order: current } : { kind: 'failed', order: current, reason: failureOf(current) };
      // Pending: a charge in flight (wait for it), or a processing error (this post retries it).
      const [started] = await this.#db
        .select()
        .from(paymentAttempts)
        .where(and(eq(paymentAttempts.orderId, current.id), eq(paymentAttempts.status, 'started')))
        .limit(1);
      if (!started) {
        const retried = await this.#retry(current, req);
        if (retried) return retried;
      } else if (this.#now().getTime() - started.createdAt.getTime() > RECONCILE_AFTER_MS) {
        // Started long ago and never answered: the process charging it died. Ask the gateway now rather
        // than make the buyer wait for the reconciler; nothing charged, this post retries it.
        await reconcileAttempt(this.#db, this.#gateway, started, this.#now()).catch((err: unknown) => this.#log.warn({ orderId: current.id, err: err instanceof Error ? err.message : String(err) }, 'attempt not reconciled'));
      }
      if (Date.now() > deadline) return { kind: 'retry', order: current };
      await new Promise((r) => setTimeout(r, 25));
      const [fresh] = await this.#db.select().from(orders).where(eq(orders.id, current.id));
      current = fresh!;
    }
  }

  /** The card to the gateway, and only there; 'unavailable' when the gateway fails (its message logged, never the card). */
  async #tokenize(form: CheckoutForm): Promise<TokenizeResult | 'unavailable'> {
    try {
      return await this.#gateway.tokenize({ number: form.cardNumber, expiryMonth: form.expiryMonth, expiryYear: form.expiryYear, cvv: form.cvv });
    } catch (err) {
      this.#log.warn({ gateway: this.#gateway.name, err: err instanceof Error ? err.name : 'error' }, 'card not tokenized');
      return 'unavailable';
    }
  }

  /** Claims a new attempt of a pending order whose last charge failed in processing, and charges it; null when another request claimed it. */
  async #retry(order: Order, req: CheckoutRequest): Promise<CheckoutOutcome | null> {
    const tokenized = await this.#tokenize(req.form);
    if (tokenized === 'unavailable') return { kind: 'unavailable' };
    if (!tokenized.ok) return { kind: 'refused', reason: tokenized.reason, order };
    const items = await this.#db.select().from(orderItems).where(eq(orderItems.orderId, order.id)).orderBy(orderItems.id);
    const payload = buildPaymentPayload({
      lines: items.map((i) => ({ kind: i.productKind, productCode: i.productCode, cents: i.priceCents })),
      language: req.locale,
      token: tokenized.token,
      discountCents: order.discountCents,
      couponCode: order.couponCode,
    });
    let attempt: number | null;
    try {
      attempt = await this.#db.transaction(async (tx) => {
        await tx.select({ id: users.id }).from(users).where(eq(users.id, order.userId)).for('update');
        const [locked] = await tx.select().from(orders).where(eq(orders.id, order.id)).for('update');
        if (!locked || locked.status !== 'pending') return null;
        // Bought meanwhile through another order: this one will never be charged.
        const courseIds = items.filter((i) => i.productKind === 'course').map((i) => i.productId);
        const bought = courseIds.length === 0 ? [] : await tx.select({ id: purchaseAccess.courseId }).from(purchaseAccess).where(and(eq(purchaseAccess.userId, order.userId), inArray(purchaseAccess.courseId, courseIds)));
        if (bought.length > 0) {
          await failOrder(tx, order.id, 'already-bought');
          return null;
        }
        const [last] = await tx.select({ n: sql<number>`coalesce(max(${paymentAttempts.attemptNumber}), 0)::int` }).from(paymentAttempts).where(eq(paymentAttempts.orderId, order.id));
        const n = (last?.n ?? 0) + 1;
        // The order and its receipt name the card this attempt charges (the buyer may have changed cards).
        const card = tokenized.card;
        await tx.update(orders).set({ cardBrand: card.brand, cardLast4: card.last4, cardExpiryMonth: card.expiryMonth, cardExpiryYear: card.expiryYear }).where(eq(orders.id, order.id));
        await tx.insert(paymentAttempts).values({ orderId: order.id, attemptNumber: n, gateway: this.#gateway.name, idempotencyKey: attemptKey(order.id, n), amountCents: order.totalCents, payload });
        return n;
      });
    } catch (err) {
      if (isUniqueViolation(err)) return null;
      throw err;
    }
    if (attempt === null) return null;
    return this.#charge(order, attempt, tokenized.token, payload);
  }

  /** Creates the order, its items, the coupon's use and its first payment attempt, in one transaction. */
  async #create(req: CheckoutRequest, lines: CheckoutLine[], amounts: OrderAmounts, coupon: Coupon | null, card: StoredCard, payload: PaymentPayload): Promise<{ order: Order; attempt: number | null }> {
    const now = this.#now();
    const referringIboId = await referringIbo(this.#db, req.referralVisitorId, req.userId);
    return this.#db.transaction(async (tx) => {
      // One person's orders are created one at a time, so two checkouts cannot both take a course.
      await tx.select({ id: users.id }).from(users).where(eq(users.id, req.userId)).for('update');
      const [placed] = await tx.select().from(orders).where(and(eq(orders.userId, req.userId), eq(orders.idempotencyKey, req.form.idempotencyKey))).limit(1);
      if (placed) throw new AlreadyPlaced(placed);
      if (await alreadyHeld(tx, req.userId, lines.map((l) => ({ kind: l.kind, id: l.id, cents: l.cents })), null)) throw new Refused('already-bought');
      const busy = await tx
        .select({ id: orders.id })
        .from(orders)
        .innerJoin(orderItems, eq(orderItems.orderId, orders.id))
        .where(
          and(
            eq(orders.userId, req.userId),
            eq(orders.status, 'pending'),
            gt(orders.createdAt, new Date(now.getTime() - this.#inFlightMs)),
            sql`(${orderItems.productKind}, ${orderItems.productId}) in (${sql.join(
              lines.map((l) => sql`(${l.kind}, ${l.id})`),
              sql`, `,
            )})`,
          ),
        )
        .limit(1);
      if (busy.length > 0) throw new Refused('in-progress');

      const free = amounts.totalCents === 0;
      const [order] = await tx
        .insert(orders)
        .values({
          userId: req.userId,
          status: free ? 'paid' : 'pending',
          subtotalCents: amounts.subtotalCents,
          discountCents: amounts.discountCents,
          totalCents: amounts.totalCents,
          currencyCode: PAYMENT_CONSTANTS.currencyCode,
          countryCode: PAYMENT_CONSTANTS.countryCode,
          couponCode: coupon?.code ?? null,
          referringIboId,
          language: req.locale,
          idempotencyKey: req.form.idempotencyKey,
          cardBrand: card.brand,
          cardLast4: card.last4,
          cardExpiryMonth: card.expiryMonth,
          cardExpiryYear: card.expiryYear,
          createdAt: now,
          paidAt: free ? now : null,
        })
        .returning();
      await tx.insert(orderItems).values(lines.map((l) => ({ orderId: order!.id, productKind: l.kind, productId: l.id, productCode: l.productCode, titleEs: l.titleEs, titleEn: l.titleEn, priceCents: l.cents })));
      if (coupon) {
        // Counted in the statement that checks the limit and the expiry: two orders never take the last use.
        const taken = await tx
          .update(coupons)
          .set({ uses: sql`${coupons.uses} + 1` })
          .where(
            and(
              eq(coupons.code, coupon.code),
              sql`(${coupons.maxUses} is null or ${coupons.uses} < ${coupons.maxUses})`,
              sql`(${coupons.startsAt} is null or ${coupons.startsAt} <= ${now})`,
              sql`(${coupons.expiresAt} is null or ${coupons.expiresAt} > ${now})`,
            ),
          )
          .returning({ id: coupons.id });
        if (taken.length === 0) {
          // Read again in the transaction: the coupon may have been edited or expired since the amounts were worked out.
          const [row] = await tx.select({ startsAt: coupons.startsAt, expiresAt: coupons.expiresAt }).from(coupons).where(eq(coupons.code, coupon.code));
          throw new Refused(!row ? 'coupon-unknown' : row.startsAt && row.startsAt > now ? 'coupon-not-yet' : row.expiresAt && row.expiresAt <= now ? 'coupon-expired' : 'coupon-spent');
        }
        await tx.insert(couponRedemptions).values({ orderId: order!.id, couponId: taken[0]!.id, userId: req.userId, discountCents: amounts.discountCents, createdAt: now });
      }
      if (free) {
        // Nothing charged (a coupon paid it all): a plan's renewal has no card to charge and ends after its grace.
        await grant(tx, order!, lines, now, { gateway: this.#gateway.name, token: '' });
        return { order: order!, attempt: null };
      }
      await tx.insert(paymentAttempts).values({ orderId: order!.id, attemptNumber: 1, gateway: this.#gateway.name, idempotencyKey: attemptKey(order!.id, 1), amountCents: amounts.totalCents, payload, createdAt: now });
      return { order: order!, attempt: 1 };
    });
  }

  /** Charges a claimed attempt and settles the order with the answer. */
  async #charge(order: Order, attempt: number, token: string, payload: PaymentPayload): Promise<CheckoutOutcome> {
    const key = attemptKey(order.id, attempt);
    this.#log.info({ orderId: order.id, attempt, gateway: this.#gateway.name, payload: loggablePayload(payload) }, 'charging order');
    let result: ChargeResult;
    try {
      result = await this.#gateway.charge({ amountCents: order.totalCents, currency: PAYMENT_CONSTANTS.currencyCode, token, idempotencyKey: key });
    } catch (err) {
      // The gateway could not be reached or refused the request: a processing error, retried by posting again.
      this.#log.warn({ orderId: order.id, attempt, err: err instanceof Error ? err.message : String(err) }, 'charge failed');
      result = { status: 'processing-error', retryable: true };
    }
    const settled = await settleAttempt(this.#db, this.#gateway, { orderId: order.id, attempt, answer: result, now: this.#now() });
    this.#log.info({ orderId: order.id, attempt, status: result.status, orderStatus: settled.order.status }, 'charge answered');
    return outcomeOf(settled, true);
  }

  /**
   * A payment's outcome reported later by the gateway (Stripe's webhook), by charge id or by the
   * attempt's idempotency key (a charge whose process died before it recorded the charge id): the
   * answer the checkout got first normally stands, but a charge that succeeded after the checkout was
   * told otherwise is settled here — a pending order is paid (and grants its access), an order already
   * failed has its money refunded (the learner chose another card or gave up); a failure of a pending
   * order fails it. Repeated deliveries change nothing. Returns what was done.
   */
  async reconcile(event: { chargeId: string; outcome: 'succeeded' | 'failed'; attemptKey?: string | null; amountCents?: number }): Promise<{ done: 'unknown' | 'unchanged' | 'paid' | 'failed' | 'refunded'; userId: number | null }> {
    const [byCharge] = await this.#db.select().from(paymentAttempts).where(eq(paymentAttempts.chargeId, event.chargeId)).limit(1);
    const [byKey] = byCharge || !event.attemptKey ? [] : await this.#db.select().from(paymentAttempts).where(eq(paymentAttempts.idempotencyKey, event.attemptKey)).limit(1);
    const attempt = byCharge ?? byKey;
    if (!attempt) return { done: 'unknown', userId: null };
    const answer: ChargeResult =
      event.outcome === 'succeeded' ? { status: 'approved', chargeId: event.chargeId, amountCents: event.amountCents ?? attempt.amountCents } : { status: 'declined', chargeId: event.chargeId };
    const settled = await settleAttempt(this.#db, this.#gateway, { orderId: attempt.orderId, attempt: attempt.attemptNumber, answer, now: this.#now() });
    const done = settled.decision === 'pay' ? 'paid' : settled.decision === 'fail' ? 'failed' : settled.decision === 'refund' ? 'refunded' : 'unchanged';
    return { done, userId: settled.order.userId };
  }

  /** The order of a person's checkout key, if any. */
  async #orderByKey(userId: number, key: string): Promise<Order | undefined> {
    const [row] = await this.#db
      .select()
      .from(orders)
      .where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, key)))
      .limit(1);
    return row;
  }
}

/** A settled attempt as the checkout's outcome (`settledHere`: this call finished the payment). */
function outcomeOf(settled: Settled, settledHere: boolean): CheckoutOutcome {
  const order = settled.order;
  if (order.status === 'paid' || order.status === 'refunded') return { kind: 'paid', order, settledHere: settledHere && settled.decision === 'pay' };
  if (order.status === 'failed') return order.failureReason === 'already-bought' ? { kind: 'refused', reason: 'already-bought', order } : { kind: 'failed', order, reason: failureOf(order) };
  return { kind: 'retry', order };
}

function failureOf(order: Order): Exclude<PaymentFailure, 'processing-error'> {
  return order.failureReason === 'insufficient-funds' ? 'insufficient-funds' : 'declined';
}

/** The payload as logged: everything, its token shortened to what names the card (no card number is in it anyway). */
function loggablePayload(payload: PaymentPayload): PaymentPayload {
  return { ...payload, payment: { ...payload.payment, token: `${payload.payment.token.slice(0, 24)}…` } };
}
