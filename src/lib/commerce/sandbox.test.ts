import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { IdempotencyConflictError, type CardDetails } from './gateway';
import { MemorySandboxLedger, SandboxGateway, SANDBOX_TEST_CARDS } from './sandbox';

const NOW = new Date('2026-11-25T12:00:00Z');
const card = (number: string, extra: Partial<CardDetails> = {}): CardDetails => ({ number, expiryMonth: 12, expiryYear: 2030, cvv: '987', ...extra });

function sandbox(latencyMs = 0) {
  let n = 0;
  return new SandboxGateway({ now: () => NOW, newId: () => `id${++n}`, latencyMs });
}

async function tokenOf(gw: SandboxGateway, number: string): Promise<string> {
  const t = await gw.tokenize(card(number));
  if (!t.ok) throw new Error(`card refused: ${t.reason}`);
  return t.token;
}

describe('sandbox test cards', () => {
  it.each([
    ['4242 4242 4242 4242', 'approved'],
    ['4000 0000 0000 0002', 'declined'],
    ['4000 0000 0000 9995', 'insufficient-funds'],
    ['4000 0000 0000 0119', 'processing-error'],
  ] as const)('answers %s: %s', async (number, status) => {
    const gw = sandbox();
    const result = await gw.charge({ amountCents: 4990, currency: 'USD', token: await tokenOf(gw, number), idempotencyKey: 'k1' });
    expect(result.status).toBe(status);
    if (result.status === 'approved') expect(result.amountCents).toBe(4990);
    if (result.status === 'processing-error') expect(result.retryable).toBe(true);
    expect(gw.chargeCount).toBe(1);
  });

  it('lists the four test cards', () => {
    expect(Object.values(SANDBOX_TEST_CARDS).sort()).toEqual(['approved', 'declined', 'insufficient-funds', 'processing-error']);
  });

  it('approves other valid cards and gives brand, last 4 and expiry', async () => {
    const gw = sandbox();
    const t = await gw.tokenize(card('3782 822463 10005', { cvv: '1234' }));
    expect(t.ok && t.card).toEqual({ brand: 'amex', last4: '0005', expiryMonth: 12, expiryYear: 2030 });
    if (!t.ok) return;
    expect((await gw.charge({ amountCents: 100, currency: 'USD', token: t.token, idempotencyKey: 'a' })).status).toBe('approved');
  });

  it('refuses invalid and expired cards at tokenizing', async () => {
    const gw = sandbox();
    expect(await gw.tokenize(card('4242 4242 4242 4241'))).toEqual({ ok: false, reason: 'invalid-card' });
    expect(await gw.tokenize(card('4242 4242 4242 4242', { cvv: '12a' }))).toEqual({ ok: false, reason: 'invalid-card' });
    expect(await gw.tokenize(card('4242 4242 4242 4242', { expiryMonth: 13 }))).toEqual({ ok: false, reason: 'invalid-card' });
    expect(await gw.tokenize(card('4242 4242 4242 4242', { expiryMonth: 10, expiryYear: 2026 }))).toEqual({ ok: false, reason: 'expired-card' });
  });

  it('declines an unknown or forged token', async () => {
    const gw = sandbox();
    expect((await gw.charge({ amountCents: 100, currency: 'USD', token: 'tok_nothing', idempotencyKey: 'x' })).status).toBe('declined');
    expect((await gw.charge({ amountCents: 100, currency: 'USD', token: 'tok_sandbox_a_bogus_4242_122030_x', idempotencyKey: 'y' })).status).toBe('declined');
  });

  it('still charges a saved token after a restart (a new sandbox), and declines it once the card has expired', async () => {
    const token = await tokenOf(sandbox(), '4242424242424242');
    expect((await sandbox().charge({ amountCents: 100, currency: 'USD', token, idempotencyKey: 'renewal-1' })).status).toBe('approved');
    const later = new SandboxGateway({ now: () => new Date('2031-01-01T00:00:00Z') });
    expect((await later.charge({ amountCents: 100, currency: 'USD', token, idempotencyKey: 'renewal-2' })).status).toBe('declined');
  });

  it('refuses amounts that are not positive cents, and other currencies', async () => {
    const gw = sandbox();
    const token = await tokenOf(gw, '4242424242424242');
    await expect(gw.charge({ amountCents: 0, currency: 'USD', token, idempotencyKey: 'z' })).rejects.toThrow(RangeError);
    await expect(gw.charge({ amountCents: 49.9, currency: 'USD', token, idempotencyKey: 'z' })).rejects.toThrow(RangeError);
    await expect(gw.charge({ amountCents: 100, currency: 'EUR' as 'USD', token, idempotencyKey: 'z' })).rejects.toThrow(RangeError);
    expect(gw.chargeCount).toBe(0);
  });
});

describe('idempotency', () => {
  it('returns the first answer to the same key and charges once', async () => {
    const gw = sandbox();
    const token = await tokenOf(gw, '4242424242424242');
    const first = await gw.charge({ amountCents: 4990, currency: 'USD', token, idempotencyKey: 'order-1' });
    const again = await gw.charge({ amountCents: 4990, currency: 'USD', token, idempotencyKey: 'order-1' });
    expect(again).toEqual(first);
    expect(gw.chargeCount).toBe(1);
    expect((gw.ledger as MemorySandboxLedger).charges.size).toBe(1);
  });

  it('keeps a processing error under its key; a retry takes a new key', async () => {
    const gw = sandbox();
    const token = await tokenOf(gw, '4000000000000119');
    await gw.charge({ amountCents: 100, currency: 'USD', token, idempotencyKey: 'attempt-1' });
    expect((await gw.charge({ amountCents: 100, currency: 'USD', token, idempotencyKey: 'attempt-1' })).status).toBe('processing-error');
    expect(gw.chargeCount).toBe(1);
    await gw.charge({ amountCents: 100, currency: 'USD', token, idempotencyKey: 'attempt-2' });
    expect(gw.chargeCount).toBe(2);
  });

  it('refuses the same key for a different request', async () => {
    const gw = sandbox();
    const token = await tokenOf(gw, '4242424242424242');
    await gw.charge({ amountCents: 4990, currency: 'USD', token, idempotencyKey: 'order-1' });
    await expect(gw.charge({ amountCents: 1, currency: 'USD', token, idempotencyKey: 'order-1' })).rejects.toBeInstanceOf(IdempotencyConflictError);
    expect(gw.chargeCount).toBe(1);
  });

  it('1,000 concurrent charges with one key make one charge and give everyone the same answer', async () => {
    const gw = sandbox(5);
    const token = await tokenOf(gw, '4242424242424242');
    const results = await Promise.all(Array.from({ length: 1000 }, () => gw.charge({ amountCents: 4990, currency: 'USD', token, idempotencyKey: 'same-checkout' })));
    expect(gw.chargeCount).toBe(1);
    expect((gw.ledger as MemorySandboxLedger).charges.size).toBe(1);
    expect(new Set(results.map((r) => JSON.stringify(r))).size).toBe(1);
    expect(results[0]?.status).toBe('approved');
  });
});

describe('refunds', () => {
  it('refunds an approved charge once, by key', async () => {
    const gw = sandbox();
    const charged = await gw.charge({ amountCents: 4990, currency: 'USD', token: await tokenOf(gw, '4242424242424242'), idempotencyKey: 'k' });
    if (charged.status !== 'approved') throw new Error('not approved');
    const refund = await gw.refund({ chargeId: charged.chargeId, idempotencyKey: 'r1' });
    expect(refund).toMatchObject({ status: 'refunded', amountCents: 4990 });
    expect(await gw.refund({ chargeId: charged.chargeId, idempotencyKey: 'r1' })).toEqual(refund);
    expect(await gw.refund({ chargeId: charged.chargeId, idempotencyKey: 'r2' })).toEqual({ status: 'refused', reason: 'already-refunded' });
  });

  it('refuses unknown and declined charges', async () => {
    const gw = sandbox();
    expect(await gw.refund({ chargeId: 'ch_nope', idempotencyKey: 'r' })).toEqual({ status: 'refused', reason: 'unknown-charge' });
    const declined = await gw.charge({ amountCents: 100, currency: 'USD', token: await tokenOf(gw, '4000000000000002'), idempotencyKey: 'k' });
    if (declined.status !== 'declined') throw new Error('not declined');
    expect(await gw.refund({ chargeId: declined.chargeId, idempotencyKey: 'r2' })).toEqual({ status: 'refused', reason: 'not-approved' });
  });
});

describe('no card number or CVV is kept', () => {
  it('holds only tokens with brand and last 4, anywhere in the sandbox', async () => {
    const gw = sandbox();
    for (const number of Object.keys(SANDBOX_TEST_CARDS)) {
      const t = await gw.tokenize(card(number.replace(/(\d{4})/g, '$1 ').trim()));
      if (t.ok) await gw.charge({ amountCents: 100, currency: 'USD', token: t.token, idempotencyKey: number.slice(-4) });
    }
    const everything = inspect(gw, { depth: null, showHidden: true, maxArrayLength: null, maxStringLength: null });
    expect(everything).toContain('tok_sandbox_');
    for (const number of Object.keys(SANDBOX_TEST_CARDS)) {
      expect(everything).not.toContain(number);
      expect(everything).not.toContain(number.slice(0, 8));
    }
    expect(everything).not.toContain('987');
  });

  it('gives back no card number in what tokenize answers', async () => {
    const t = await sandbox().tokenize(card('4242424242424242'));
    expect(JSON.stringify(t)).not.toContain('42424242');
    expect(JSON.stringify(t)).not.toContain('987');
  });
});
