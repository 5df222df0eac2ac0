/**
 * The Stripe gateway and webhook, offline: the SDK talks to a fake HTTP client that records each request
 * and answers as Stripe's API would; webhook signatures come from the SDK's own test-header helper.
 */
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../http/log.server';
import { POST as webhookPost } from '../../pages/api/stripe/webhook';
import { IdempotencyConflictError, type ChargeRequest } from './gateway';
import { SandboxGateway } from './sandbox';
import { handleStripeEvent, paymentGateway, RawCardRefusedError, StripeGateway, verifyStripeWebhook, type PaymentEvent } from './stripe.server';

/* ───────────── a fake Stripe API ───────────── */

interface SeenRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** The form body, decoded. */
  body: URLSearchParams;
}

type Reply = { status: number; body: unknown };

class FakeResponse extends Stripe.HttpClientResponse {
  constructor(
    status: number,
    private readonly body: unknown,
  ) {
    super(status, { 'request-id': 'req_fake' });
  }
  override getRawResponse(): unknown {
    return this.body;
  }
  override toJSON(): Promise<unknown> {
    return Promise.resolve(this.body);
  }
}

/** Records every request and answers with `reply(request)`. */
class FakeStripeHttp extends Stripe.HttpClient {
  readonly requests: SeenRequest[] = [];
  constructor(private readonly reply: (r: SeenRequest) => Reply) {
    super();
  }
  override getClientName(): string {
    return 'fake';
  }
  override makeRequest(_host: string, _port: string, path: string, method: string, headers: Record<string, unknown>, requestData: string): Promise<FakeResponse> {
    const seen: SeenRequest = {
      method,
      path,
      headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), String(v)])),
      body: new URLSearchParams(requestData ?? ''),
    };
    this.requests.push(seen);
    const { status, body } = this.reply(seen);
    return Promise.resolve(new FakeResponse(status, body));
  }
}

const intent = (over: Record<string, unknown> = {}) => ({
  id: 'pi_123',
  object: 'payment_intent',
  amount: 4998,
  amount_received: 4998,
  currency: 'usd',
  status: 'succeeded',
  last_payment_error: null,
  ...over,
});
const cardError = (code: string, declineCode?: string) => ({
  status: 402,
  body: {
    error: {
      type: 'card_error',
      code,
      ...(declineCode ? { decline_code: declineCode } : {}),
      message: 'Your card was declined.',
      charge: 'ch_9',
      payment_intent: intent({ id: 'pi_declined', status: 'requires_payment_method' }),
    },
  },
});

function gatewayWith(reply: (r: SeenRequest) => Reply, secretKey = 'sk_test_abcdefgh12345678') {
  const http = new FakeStripeHttp(reply);
  const gateway = new StripeGateway({ secretKey, client: { httpClient: http, maxNetworkRetries: 0 }, now: () => new Date('2026-06-01T00:00:00Z') });
  return { http, gateway };
}

const CHARGE: ChargeRequest = { amountCents: 4998, currency: 'USD', token: 'pm_card_visa', idempotencyKey: 'order-42-attempt-1' };

/* ───────────── looking a charge up after a crash ───────────── */

describe('StripeGateway.lookup', () => {
  const sent = new Date('2026-06-01T00:00:00Z');
  const later = (ms: number) => new Date(sent.getTime() + ms);

  it('names the attempt in the PaymentIntent it creates, and finds it by that key', async () => {
    const { http, gateway } = gatewayWith((r) => (r.path.startsWith('/v1/payment_intents/search') ? { status: 200, body: { object: 'search_result', data: [intent()], has_more: false, url: '/v1/payment_intents/search' } } : { status: 200, body: intent() }));
    await gateway.charge(CHARGE);
    expect(http.requests[0]!.body.get('metadata[academy_attempt]')).toBe('order-42-attempt-1');
    expect(await gateway.lookup({ idempotencyKey: 'order-42-attempt-1', startedAt: sent, now: later(120_000) })).toEqual({ status: 'approved', chargeId: 'pi_123', amountCents: 4998 });
    const search = http.requests[1]!;
    expect(search.method).toBe('GET');
    expect(decodeURIComponent(search.path)).toContain("metadata['academy_attempt']:'order-42-attempt-1'");
  });

  it('answers a refused PaymentIntent as refused, and one still processing as not known yet', async () => {
    const declined = gatewayWith(() => ({ status: 200, body: { object: 'search_result', data: [intent({ status: 'requires_payment_method', last_payment_error: { decline_code: 'insufficient_funds' } })], has_more: false } }));
    expect(await declined.gateway.lookup({ idempotencyKey: 'k', startedAt: sent, now: later(120_000) })).toEqual({ status: 'insufficient-funds', chargeId: 'pi_123' });
    const processing = gatewayWith(() => ({ status: 200, body: { object: 'search_result', data: [intent({ status: 'processing' })], has_more: false } }));
    expect(await processing.gateway.lookup({ idempotencyKey: 'k', startedAt: sent, now: later(120_000) })).toEqual({ status: 'unknown' });
  });

  it('takes "none found" for "never charged" only once Stripe’s search has had time to see it', async () => {
    const { gateway } = gatewayWith(() => ({ status: 200, body: { object: 'search_result', data: [], has_more: false } }));
    expect(await gateway.lookup({ idempotencyKey: 'k', startedAt: sent, now: later(60_000) })).toEqual({ status: 'unknown' });
    expect(await gateway.lookup({ idempotencyKey: 'k', startedAt: sent, now: later(11 * 60_000) })).toEqual({ status: 'none' });
  });

  it('answers "not known yet" when Stripe cannot be asked', async () => {
    const { gateway } = gatewayWith(() => ({ status: 500, body: { error: { type: 'api_error', message: 'Something went wrong.' } } }));
    expect(await gateway.lookup({ idempotencyKey: 'k', startedAt: sent, now: later(11 * 60_000) })).toEqual({ status: 'unknown' });
  });
});

/* ───────────── charges ───────────── */

describe('StripeGateway.charge', () => {
  it('creates and confirms a PaymentIntent in integer cents USD, with the idempotency key as a header', async () => {
    const { http, gateway } = gatewayWith(() => ({ status: 200, body: intent() }));
    expect(await gateway.charge(CHARGE)).toEqual({ status: 'approved', chargeId: 'pi_123', amountCents: 4998 });
    expect(http.requests).toHaveLength(1);
    const [r] = http.requests;
    expect(r).toMatchObject({ method: 'POST', path: '/v1/payment_intents' });
    expect(r!.headers['idempotency-key']).toBe('order-42-attempt-1');
    expect(r!.body.get('amount')).toBe('4998');
    expect(r!.body.get('currency')).toBe('usd');
    expect(r!.body.get('payment_method')).toBe('pm_card_visa');
    expect(r!.body.get('confirm')).toBe('true');
    expect(r!.body.get('automatic_payment_methods[allow_redirects]')).toBe('never');
  });

  it.each([
    ['a generic decline', cardError('card_declined', 'generic_decline'), { status: 'declined', chargeId: 'pi_declined' }],
    ['insufficient funds', cardError('card_declined', 'insufficient_funds'), { status: 'insufficient-funds', chargeId: 'pi_declined' }],
    ['a processing error', cardError('processing_error'), { status: 'processing-error', retryable: true }],
    ["Stripe's own failure (500)", { status: 500, body: { error: { type: 'api_error', message: 'Something went wrong.' } } }, { status: 'processing-error', retryable: true }],
    [
      'its rate limit (429)',
      { status: 429, body: { error: { type: 'invalid_request_error', code: 'rate_limit', message: 'Too many requests.' } } },
      { status: 'processing-error', retryable: true },
    ],
    ['3-D Secure asked for', { status: 200, body: intent({ status: 'requires_action' }) }, { status: 'declined', chargeId: 'pi_123' }],
  ] as const)('maps %s', async (_label, reply, expected) => {
    const { gateway } = gatewayWith(() => reply);
    expect(await gateway.charge(CHARGE)).toEqual(expected);
  });

  it('reports a key reused for another request as an idempotency conflict, as the sandbox does', async () => {
    const { gateway } = gatewayWith(() => ({
      status: 400,
      body: { error: { type: 'idempotency_error', message: 'Keys for idempotent requests can only be used with the same parameters they were first used with.' } },
    }));
    await expect(gateway.charge(CHARGE)).rejects.toBeInstanceOf(IdempotencyConflictError);
  });

  it('lets a wrong key (401) surface as the configuration error it is', async () => {
    const { gateway } = gatewayWith(() => ({ status: 401, body: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } } }));
    await expect(gateway.charge(CHARGE)).rejects.toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
  });

  it.each([
    { ...CHARGE, amountCents: 0 },
    { ...CHARGE, amountCents: 49.98 },
    { ...CHARGE, currency: 'EUR' as never },
    { ...CHARGE, idempotencyKey: '' },
  ])('refuses a malformed request without calling Stripe (%o)', async (request) => {
    const { http, gateway } = gatewayWith(() => ({ status: 200, body: intent() }));
    await expect(gateway.charge(request)).rejects.toBeInstanceOf(RangeError);
    expect(http.requests).toHaveLength(0);
  });
});

/* ───────────── refunds ───────────── */

describe('StripeGateway.refund', () => {
  it('refunds a PaymentIntent with the idempotency key', async () => {
    const { http, gateway } = gatewayWith(() => ({ status: 200, body: { id: 're_1', object: 'refund', amount: 4998, status: 'succeeded', payment_intent: 'pi_123' } }));
    expect(await gateway.refund({ chargeId: 'pi_123', idempotencyKey: 'refund-42' })).toEqual({ status: 'refunded', refundId: 're_1', amountCents: 4998 });
    expect(http.requests[0]).toMatchObject({ method: 'POST', path: '/v1/refunds' });
    expect(http.requests[0]!.body.get('payment_intent')).toBe('pi_123');
    expect(http.requests[0]!.headers['idempotency-key']).toBe('refund-42');
  });

  it.each([
    ['charge_already_refunded', 400, 'already-refunded'],
    ['resource_missing', 404, 'unknown-charge'],
    ['payment_intent_unexpected_state', 400, 'not-approved'],
  ] as const)('answers %s as refused (%s)', async (code, status, reason) => {
    const { gateway } = gatewayWith(() => ({ status, body: { error: { type: 'invalid_request_error', code, message: 'No.' } } }));
    expect(await gateway.refund({ chargeId: 'pi_x', idempotencyKey: 'k' })).toEqual({ status: 'refused', reason });
  });
});

/* ───────────── cards ───────────── */

describe('cards and the Stripe gateway', () => {
  const card = (number: string, over: object = {}) => ({ number, expiryMonth: 12, expiryYear: 2030, cvv: '123', ...over });

  it.each([
    ['4242 4242 4242 4242', 'pm_card_visa'],
    ['4000 0000 0000 0002', 'pm_card_chargeDeclined'],
    ['4000000000009995', 'pm_card_chargeDeclinedInsufficientFunds'],
    ['4000000000000119', 'pm_card_chargeDeclinedProcessingError'],
    ['5555 5555 5555 4444', 'pm_card_mastercard'],
  ])('in test mode maps the test card %s onto %s, sending nothing to Stripe', async (number, token) => {
    const { http, gateway } = gatewayWith(() => ({ status: 500, body: {} }));
    const result = await gateway.tokenize(card(number));
    expect(result).toMatchObject({ ok: true, token });
    if (result.ok)
      expect(result.card).toEqual({ brand: token === 'pm_card_mastercard' ? 'mastercard' : 'visa', last4: number.replace(/\s/g, '').slice(-4), expiryMonth: 12, expiryYear: 2030 });
    expect(http.requests).toHaveLength(0);
  });

  it('refuses a card failing Luhn, letters in the CVV and an expired card', async () => {
    const { gateway } = gatewayWith(() => ({ status: 500, body: {} }));
    expect(await gateway.tokenize(card('4242 4242 4242 4241'))).toEqual({ ok: false, reason: 'invalid-card' });
    expect(await gateway.tokenize(card('4242424242424242', { cvv: '12a' }))).toEqual({ ok: false, reason: 'invalid-card' });
    expect(await gateway.tokenize(card('4242424242424242', { expiryMonth: 1, expiryYear: 2026 }))).toEqual({ ok: false, reason: 'expired-card' });
  });

  it('with a live key takes no raw card at all', async () => {
    const { http, gateway } = gatewayWith(() => ({ status: 500, body: {} }), 'sk_live_abcdefgh12345678');
    await expect(gateway.tokenize(card('4242424242424242'))).rejects.toBeInstanceOf(RawCardRefusedError);
    expect(http.requests).toHaveLength(0);
  });

  it("reads a browser's PaymentMethod id (Stripe.js) into brand, last 4 and expiry", async () => {
    const { http, gateway } = gatewayWith(() => ({
      status: 200,
      body: { id: 'pm_1Abc', object: 'payment_method', type: 'card', card: { brand: 'amex', last4: '0005', exp_month: 3, exp_year: 2031 } },
    }));
    expect(await gateway.fromPaymentMethod('pm_1Abc')).toEqual({ ok: true, token: 'pm_1Abc', card: { brand: 'amex', last4: '0005', expiryMonth: 3, expiryYear: 2031 } });
    expect(http.requests[0]).toMatchObject({ method: 'GET', path: '/v1/payment_methods/pm_1Abc' });
    expect(await gateway.fromPaymentMethod('tok_visa; DROP')).toEqual({ ok: false, reason: 'invalid-card' });
    expect(http.requests).toHaveLength(1);
  });

  it('is the gateway only when a secret key is configured', () => {
    expect(paymentGateway({ secretKey: 'sk_test_abcdefgh12345678', webhookSecret: null })).toBeInstanceOf(StripeGateway);
    expect(paymentGateway({ secretKey: null, webhookSecret: null })).toBeInstanceOf(SandboxGateway);
  });
});

/* ───────────── webhooks ───────────── */

const SECRET = 'whsec_test_secret_0123456789';
const eventOf = (type: string, object: object, id = 'evt_1') =>
  JSON.stringify({ id, object: 'event', type, created: 1_780_000_000, data: { object }, livemode: false, api_version: Stripe.API_VERSION });
const signed = (payload: string, over: { secret?: string; timestamp?: number } = {}) =>
  Stripe.webhooks.generateTestHeaderString({ payload, secret: over.secret ?? SECRET, ...(over.timestamp !== undefined ? { timestamp: over.timestamp } : {}) });

describe('verifyStripeWebhook', () => {
  const payload = eventOf('payment_intent.succeeded', intent());

  it('accepts an event signed with the secret', () => {
    const v = verifyStripeWebhook(payload, signed(payload), SECRET);
    expect(v.ok && v.event.id).toBe('evt_1');
  });

  it('refuses a missing signature, a tampered body, another secret and an old signature (a replay)', () => {
    expect(verifyStripeWebhook(payload, null, SECRET)).toEqual({ ok: false, reason: 'unsigned' });
    expect(verifyStripeWebhook(payload.replace('4998', '1'), signed(payload), SECRET)).toEqual({ ok: false, reason: 'invalid-signature' });
    expect(verifyStripeWebhook(payload, signed(payload, { secret: 'whsec_another_secret_000' }), SECRET)).toEqual({ ok: false, reason: 'invalid-signature' });
    const tenMinutesAgo = Math.floor(Date.now() / 1000) - 600;
    expect(verifyStripeWebhook(payload, signed(payload, { timestamp: tenMinutesAgo }), SECRET)).toEqual({ ok: false, reason: 'invalid-signature' });
    expect(verifyStripeWebhook(payload, 't=1,v1=deadbeef', SECRET)).toEqual({ ok: false, reason: 'invalid-signature' });
  });

  it('judges the age against the given clock', () => {
    const at = 1_780_000_000;
    const header = signed(payload, { timestamp: at });
    expect(verifyStripeWebhook(payload, header, SECRET, { now: () => new Date((at + 60) * 1000) }).ok).toBe(true);
    expect(verifyStripeWebhook(payload, header, SECRET, { now: () => new Date((at + 301) * 1000) }).ok).toBe(false);
    // A tolerance of 0 does not turn the check off.
    expect(verifyStripeWebhook(payload, header, SECRET, { now: () => new Date((at + 10) * 1000), toleranceSeconds: 0 }).ok).toBe(false);
  });
});

describe('handleStripeEvent', () => {
  const runtime = { logger: createLogger('silent') };
  const parse = (p: string) => JSON.parse(p) as Stripe.Event;

  it('hands a PaymentIntent success or failure to the listener, by PaymentIntent id', async () => {
    const heard: PaymentEvent[] = [];
    const listen = (e: PaymentEvent) => {
      heard.push(e);
      return Promise.resolve();
    };
    await handleStripeEvent(runtime, parse(eventOf('payment_intent.succeeded', intent())), listen);
    await handleStripeEvent(
      runtime,
      parse(
        eventOf(
          'payment_intent.payment_failed',
          intent({ id: 'pi_9', status: 'requires_payment_method', amount_received: 0, last_payment_error: { code: 'card_declined', decline_code: 'insufficient_funds' } }),
          'evt_2',
        ),
      ),
      listen,
    );
    expect(heard).toEqual([
      { outcome: 'succeeded', paymentIntentId: 'pi_123', amountCents: 4998, eventId: 'evt_1', failureCode: null, attemptKey: null },
      { outcome: 'failed', paymentIntentId: 'pi_9', amountCents: 4998, eventId: 'evt_2', failureCode: 'insufficient_funds', attemptKey: null },
    ]);
  });

  it('acknowledges and ignores other events', async () => {
    let called = false;
    const result = await handleStripeEvent(runtime, parse(eventOf('customer.created', { id: 'cus_1', object: 'customer' })), () => {
      called = true;
      return Promise.resolve();
    });
    expect(result).toBeNull();
    expect(called).toBe(false);
  });
});

describe('POST /api/stripe/webhook', () => {
  const lines: string[] = [];
  const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
  /** What reached the checkout's reconciliation, and who was told their pages changed. */
  const reconciled: { chargeId: string; outcome: string }[] = [];
  const changed: unknown[] = [];
  const checkout = { reconcile: async (e: { chargeId: string; outcome: string }) => (reconciled.push(e), { done: 'paid', userId: 7 }) };
  const call = (body: string, headers: Record<string, string>, webhookSecret: string | null = SECRET) =>
    webhookPost({
      request: new Request('http://localhost/api/stripe/webhook', { method: 'POST', body, headers }),
      locals: { runtime: { config: { stripe: { secretKey: 'sk_test_x', webhookSecret } }, logger, checkout, personChanged: async (ref: unknown) => void changed.push(ref) } },
    } as never) as Promise<Response>;
  const payload = eventOf('payment_intent.succeeded', intent({ id: 'pi_logged' }), 'evt_logged');

  it('answers 200 for a signed event and records it by PaymentIntent id', async () => {
    const r = await call(payload, { 'stripe-signature': signed(payload), 'content-type': 'application/json' });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ received: true });
    expect(lines.some((l) => l.includes('"paymentIntent":"pi_logged"') && l.includes('"outcome":"succeeded"'))).toBe(true);
    // The order of that PaymentIntent is settled by the checkout, and its buyer's pages refreshed.
    expect(reconciled).toEqual([{ chargeId: 'pi_logged', outcome: 'succeeded', amountCents: 4998, attemptKey: null }]);
    expect(changed).toEqual([{ userId: 7 }]);
  });

  it('answers 400 for an unsigned, forged or replayed event, and handles none of them', async () => {
    const before = lines.length;
    expect((await call(payload, {})).status).toBe(400);
    expect((await call(payload, { 'stripe-signature': signed(payload, { secret: 'whsec_forged_secret_000' }) })).status).toBe(400);
    expect((await call(payload.replace('pi_logged', 'pi_other'), { 'stripe-signature': signed(payload) })).status).toBe(400);
    expect((await call(payload, { 'stripe-signature': signed(payload, { timestamp: Math.floor(Date.now() / 1000) - 3600 }) })).status).toBe(400);
    expect(lines.length).toBe(before);
    expect(reconciled).toHaveLength(1);
  });

  it('answers 413 past the size limit and 404 while no webhook secret is configured', async () => {
    const huge = 'x'.repeat(300 * 1024);
    expect((await call(huge, { 'stripe-signature': signed(huge) })).status).toBe(413);
    expect((await call(payload, { 'stripe-signature': signed(payload) }, null)).status).toBe(404);
  });
});
