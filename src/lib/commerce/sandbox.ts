/**
 * The embedded sandbox gateway: answers by test card, so a fresh install can sell without an account
 * anywhere. Its charges are kept in a ledger: memory here, the database in the running academy
 * (`sandbox-ledger.server.ts`). Stripe's gateway is in `stripe.server.ts`.
 */
import { PAYMENT_CONSTANTS } from './payload';
import { CARD_BRANDS, isExpired, type StoredCard } from './payment';
import { IdempotencyConflictError, readCard, type CardDetails, type ChargeLookup, type ChargeRequest, type ChargeResult, type ChargeStatus, type LookupRequest, type PaymentGateway, type RefundRequest, type RefundResult, type TokenizeResult } from './gateway';

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

/** What the sandbox keeps under one idempotency key: the charge it made (or refused), or `void` for a key closed unused. */
export interface SandboxEntry {
  idempotencyKey: string;
  /** The request's amount, currency and token: the same key with another request is a conflict. */
  fingerprint: string;
  status: ChargeStatus | 'void';
  /** Null for a processing error (nothing was charged) and a closed key. */
  chargeId: string | null;
  amountCents: number;
  currency: string;
  /** The token charged (it names brand, last 4 and expiry; never a card number). */
  token: string;
  /** The first refund's key and id. */
  refundKey: string | null;
  refundId: string | null;
  /** What was refunded of it so far (all its refunds). */
  refundedCents?: number;
}

/** A refund the sandbox made, by the key it was given. */
export interface SandboxRefund {
  idempotencyKey: string;
  chargeId: string;
  refundId: string;
  amountCents: number;
}

/** What the ledger did with a refund: made it now, found it made earlier under its key, or refused it. */
export type SandboxRefundAnswer = { refund: SandboxRefund } | { refused: 'unknown-charge' | 'not-approved' | 'already-refunded' | 'too-much' };

/**
 * The one rule of a sandbox refund, shared by both ledgers: a key seen before answers its refund; a
 * charge not approved or fully refunded refuses; `amountCents` (null: what is left) must fit what is left.
 */
export function sandboxRefundDecision(charge: SandboxEntry | undefined, earlier: SandboxRefund | undefined, amountCents: number | null): { answer: SandboxRefundAnswer } | { make: number } {
  if (earlier) return { answer: { refund: earlier } };
  if (!charge) return { answer: { refused: 'unknown-charge' } };
  if (charge.status !== 'approved') return { answer: { refused: 'not-approved' } };
  const left = charge.amountCents - (charge.refundedCents ?? 0);
  if (left <= 0) return { answer: { refused: 'already-refunded' } };
  const amount = amountCents ?? left;
  if (amount > left) return { answer: { refused: 'too-much' } };
  return { make: amount };
}

/**
 * Where the sandbox keeps its charges. In memory for unit tests; the runtime keeps them in the
 * database (`sandbox-ledger.server.ts`), so a process that restarts, or another process, finds the
 * charges a dead one made, and the reconciler can ask about them by idempotency key.
 */
export interface SandboxLedger {
  byKey(idempotencyKey: string): Promise<SandboxEntry | undefined>;
  byCharge(chargeId: string): Promise<SandboxEntry | undefined>;
  /** Stores `entry` unless its key is taken (atomically): what the key holds now, and whether it is `entry`. */
  put(entry: SandboxEntry): Promise<{ entry: SandboxEntry; stored: boolean }>;
  /** Refunds `amountCents` (null: what is left) of a charge under `refundKey`, atomically (see `sandboxRefundDecision`). */
  refund(chargeId: string, refundKey: string, amountCents: number | null, refundId: string): Promise<SandboxRefundAnswer>;
}

/** The sandbox's charges in this process's memory (gone with it). */
export class MemorySandboxLedger implements SandboxLedger {
  /** Every entry, by idempotency key. */
  readonly entries = new Map<string, SandboxEntry>();

  /** The charges made (entries with a charge id), by charge id. */
  get charges(): Map<string, SandboxEntry> {
    return new Map([...this.entries.values()].filter((e) => e.chargeId !== null).map((e) => [e.chargeId!, e]));
  }

  byKey(key: string): Promise<SandboxEntry | undefined> {
    return Promise.resolve(this.entries.get(key));
  }

  byCharge(chargeId: string): Promise<SandboxEntry | undefined> {
    return Promise.resolve([...this.entries.values()].find((e) => e.chargeId === chargeId));
  }

  put(entry: SandboxEntry): Promise<{ entry: SandboxEntry; stored: boolean }> {
    const held = this.entries.get(entry.idempotencyKey);
    if (held) return Promise.resolve({ entry: held, stored: false });
    this.entries.set(entry.idempotencyKey, { ...entry });
    return Promise.resolve({ entry, stored: true });
  }

  /** Every refund made, by key. */
  readonly refunds = new Map<string, SandboxRefund>();

  refund(chargeId: string, refundKey: string, amountCents: number | null, refundId: string): Promise<SandboxRefundAnswer> {
    const e = [...this.entries.values()].find((x) => x.chargeId === chargeId);
    const earlier = this.refunds.get(refundKey);
    const decided = sandboxRefundDecision(e, earlier?.chargeId === chargeId ? earlier : undefined, amountCents);
    if ('answer' in decided) return Promise.resolve(decided.answer);
    const made = { idempotencyKey: refundKey, chargeId, refundId, amountCents: decided.make };
    this.refunds.set(refundKey, made);
    Object.assign(e!, { refundedCents: (e!.refundedCents ?? 0) + decided.make, ...(e!.refundKey === null ? { refundKey, refundId } : {}) });
    return Promise.resolve({ refund: made });
  }
}

export interface SandboxOptions {
  /** The clock that decides whether a card has expired. */
  now?: () => Date;
  /** New ids (charges, refunds, token suffixes); random UUIDs unless a test wants them predictable. */
  newId?: () => string;
  /** Milliseconds each charge takes, as a network would (0: answer on the next tick). */
  latencyMs?: number;
  /** Where charges are kept (default: this process's memory). */
  ledger?: SandboxLedger;
}

/** An entry as the charge's answer (a closed key answers that nothing was charged). */
function answerOf(e: SandboxEntry): ChargeResult {
  if (e.status === 'approved') return { status: 'approved', chargeId: e.chargeId!, amountCents: e.amountCents };
  if (e.status === 'declined' || e.status === 'insufficient-funds') return { status: e.status, chargeId: e.chargeId! };
  return { status: 'processing-error', retryable: true };
}

/**
 * The embedded sandbox: deterministic by test card, its charges kept in a ledger (memory, or the
 * database in the running academy). Never holds a card number or CVV.
 */
export class SandboxGateway implements PaymentGateway {
  readonly name = 'sandbox' as const;
  readonly ledger: SandboxLedger;
  /** Charges of this process still waiting for their answer, by key: concurrent repeats share one. */
  readonly #inFlight = new Map<string, { request: string; result: Promise<ChargeResult> }>();
  /** How many charges this process actually attempted (idempotent repeats not counted). */
  chargeCount = 0;

  private readonly now: () => Date;
  private readonly newId: () => string;
  private readonly latencyMs: number;

  constructor(options: SandboxOptions = {}) {
    this.now = options.now ?? (() => new Date());
    this.newId = options.newId ?? (() => globalThis.crypto.randomUUID());
    this.latencyMs = options.latencyMs ?? 0;
    this.ledger = options.ledger ?? new MemorySandboxLedger();
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
    const flying = this.#inFlight.get(idempotencyKey);
    if (flying) return flying.request === fingerprint ? flying.result : Promise.reject(new IdempotencyConflictError(idempotencyKey));
    // Registered before anything is awaited: a concurrent repeat in this process finds this very promise.
    const result = this.execute(request, fingerprint).finally(() => this.#inFlight.delete(idempotencyKey));
    this.#inFlight.set(idempotencyKey, { request: fingerprint, result });
    return result;
  }

  private async execute({ amountCents, currency, token, idempotencyKey }: ChargeRequest, fingerprint: string): Promise<ChargeResult> {
    const seen = await this.ledger.byKey(idempotencyKey);
    if (seen) return this.repeat(seen, fingerprint);
    this.chargeCount++;
    await (this.latencyMs > 0 ? new Promise((r) => setTimeout(r, this.latencyMs)) : Promise.resolve());
    const facts = readToken(token);
    const outcome = facts === undefined || isExpired(facts.expiryMonth, facts.expiryYear, this.now()) ? 'declined' : facts.outcome;
    const chargeId = outcome === 'processing-error' ? null : `ch_sandbox_${this.newId()}`;
    // The charge is made when its entry is stored: a repeat racing from another process gets the first one.
    const put = await this.ledger.put({ idempotencyKey, fingerprint, status: outcome, chargeId, amountCents, currency, token, refundKey: null, refundId: null });
    return put.stored ? answerOf(put.entry) : this.repeat(put.entry, fingerprint);
  }

  /** The answer to a key already used: the first answer, a closed key's "nothing charged", or a conflict. */
  private repeat(seen: SandboxEntry, fingerprint: string): ChargeResult {
    if (seen.status === 'void') return { status: 'processing-error', retryable: true };
    if (seen.fingerprint !== fingerprint) throw new IdempotencyConflictError(seen.idempotencyKey);
    return answerOf(seen);
  }

  /**
   * What became of the charge sent with `idempotencyKey`: its answer, or — when no charge was made
   * under it — `none`, and the key is closed so a charge still on its way is never made.
   */
  async lookup({ idempotencyKey }: LookupRequest): Promise<ChargeLookup> {
    const put = await this.ledger.put({ idempotencyKey, fingerprint: 'void', status: 'void', chargeId: null, amountCents: 0, currency: PAYMENT_CONSTANTS.currencyCode, token: '', refundKey: null, refundId: null });
    return put.entry.status === 'void' ? { status: 'none' } : answerOf(put.entry);
  }

  /** Refunds `amountCents` of a charge (all that is left when omitted); the same key again answers the same refund. */
  async refund(request: RefundRequest): Promise<RefundResult> {
    const amount = request.amountCents ?? null;
    if (amount !== null && (!Number.isSafeInteger(amount) || amount <= 0)) throw new RangeError(`A refund takes a positive amount of cents, not ${String(amount)}`);
    if (request.idempotencyKey === '') throw new RangeError('A refund needs an idempotency key');
    const answer = await this.ledger.refund(request.chargeId, request.idempotencyKey, amount, `re_sandbox_${this.newId()}`);
    if ('refused' in answer) return { status: 'refused', reason: answer.refused };
    return { status: 'refunded', refundId: answer.refund.refundId, amountCents: answer.refund.amountCents };
  }
}
