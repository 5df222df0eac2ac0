/**
 * Checkout keys expire: a key carries the minute it was issued (and stays bound to its person by the
 * HMAC); a day later it places no order, answering a sentence and leaving nothing written, while the
 * order it already placed keeps answering to it. Clocks are injected.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { testDatabases } from '../db/testing';
import type { DbHandle } from '../db/client';
import * as s from '../db/schema';
import { loadCatalog, type CatalogSnapshot } from '../catalog';
import { MemorySandboxLedger, SandboxGateway } from './sandbox';
import { validateCheckoutForm } from './payment';
import { CHECKOUT_KEY_TTL_MS, CheckoutKeys } from './checkout-keys.server';
import { CheckoutService } from './checkout.server';
import { refusalStatus } from './checkout';
import { messages } from '~/i18n';

const SECRET = new Uint8Array(32).fill(5);
const T0 = Date.parse('2026-11-25T12:00:00Z');
const MINUTE = 60_000;

/** Keys on a clock the test moves. */
function clocked(start = T0) {
  const clock = { now: start };
  return { clock, keys: new CheckoutKeys(SECRET, { now: () => clock.now }) };
}

describe('checkout keys', () => {
  it('stay UUID-shaped (version 4, RFC 9562 variant), different each time, and bound to their person', () => {
    const { keys } = clocked();
    const a = keys.issue(7);
    const b = keys.issue(7);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a).not.toBe(b);
    expect(keys.check(7, a)).toBe('valid');
    expect(keys.check(8, a)).toBe('forged');
    expect(new CheckoutKeys(new Uint8Array(32).fill(6), { now: () => T0 }).check(7, a)).toBe('forged');
    // Changing the stamped minute breaks the HMAC: a key cannot be made younger.
    const younger = (parseInt(a.slice(0, 8), 16) + 1).toString(16).padStart(8, '0') + a.slice(8);
    expect(keys.check(7, younger)).toBe('forged');
    for (const bad of ['', 'not-a-key', a.toUpperCase(), `${a}0`]) expect(keys.check(7, bad), bad).toBe('forged');
  });

  it('are valid for a day after they were issued, then expired (verify says no)', () => {
    const { clock, keys } = clocked();
    const key = keys.issue(7);
    clock.now = T0 + CHECKOUT_KEY_TTL_MS - MINUTE;
    expect(keys.check(7, key)).toBe('valid');
    expect(keys.verify(7, key)).toBe(true);
    clock.now = T0 + CHECKOUT_KEY_TTL_MS + MINUTE;
    expect(keys.check(7, key)).toBe('expired');
    expect(keys.verify(7, key)).toBe(false);
    // Expired is only ever said of a key issued to this person.
    expect(keys.check(8, key)).toBe('forged');
  });

  it('read a key of the earlier layout (random half, HMAC half, no time) as expired, and still refuse it for anyone else', () => {
    const { keys } = clocked();
    const bytes = randomBytes(16);
    bytes[6] = (bytes[6]! & 0x0f) | 0x40;
    const mac = createHmac('sha256', Buffer.from(SECRET)).update(`7:${bytes.subarray(0, 8).toString('hex')}`).digest().subarray(0, 8);
    mac.copy(bytes, 8);
    bytes[8] = (bytes[8]! & 0x3f) | 0x80;
    const hex = bytes.toString('hex');
    const legacy = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    expect(keys.check(7, legacy)).toBe('expired');
    expect(keys.check(8, legacy)).toBe('forged');
  });

  it('an expired key is refused with 400 and a sentence in both languages saying a fresh form is given', () => {
    expect(refusalStatus('expired-key')).toBe(400);
    expect(messages('es').commerce.refusals['expired-key']).toMatch(/abierta demasiado tiempo.*formulario nuevo/);
    expect(messages('en').commerce.refusals['expired-key']).toMatch(/open too long.*fresh form/);
  });
});

describe.each(await testDatabases())('checkout with an expired key on $name', ({ create }) => {
  let handle: DbHandle;
  let catalog: CatalogSnapshot;

  beforeAll(async () => {
    handle = await create({ seed: true });
    catalog = await loadCatalog(handle.db);
  });
  afterAll(async () => handle?.close());

  const newPerson = async () => {
    const email = `keys.${Math.random().toString(36).slice(2)}@example.com`;
    const [u] = await handle.db.insert(s.users).values({ email, firstName: 'Clave', lastName: 'Vencida' }).returning();
    const [c] = await handle.db.insert(s.contacts).values({ userId: u!.id, firstName: 'Clave', lastName: 'Vencida', email }).returning();
    return { userId: u!.id, contactId: c!.id };
  };
  const request = (who: { userId: number; contactId: number }, idempotencyKey: string) => {
    const form = validateCheckoutForm(
      { cardholderName: 'Ana Pérez', cardNumber: '4242 4242 4242 4242', expiryMonth: '12', expiryYear: '2030', cvv: '123', birthYear: '1990', identificationType: '1', identificationNumber: 'AB123', country: 'US', acceptsTerms: 'on', idempotencyKey },
      new Date(T0),
    );
    if (!form.success) throw new Error(JSON.stringify(form.errors));
    return { userId: who.userId, contactId: who.contactId, catalog, cartCookie: JSON.stringify([{ kind: 'course', id: 6 }]), form: form.data, couponCode: null, locale: 'es' as const };
  };

  it('a key issued over a day ago places no order and charges nothing; a fresh key then pays', async () => {
    const { clock, keys } = clocked();
    const gateway = new SandboxGateway({ now: () => new Date(clock.now), latencyMs: 1 });
    const svc = new CheckoutService({ db: handle.db, gateway, keys, now: () => new Date(clock.now) });
    const me = await newPerson();
    const stale = keys.issue(me.userId);
    clock.now = T0 + CHECKOUT_KEY_TTL_MS + MINUTE;
    expect(await svc.checkout(request(me, stale))).toEqual({ kind: 'refused', reason: 'expired-key' });
    expect(await handle.db.select().from(s.orders).where(eq(s.orders.userId, me.userId))).toEqual([]);
    expect((gateway.ledger as MemorySandboxLedger).charges.size).toBe(0);
    expect((await svc.checkout(request(me, keys.issue(me.userId)))).kind).toBe('paid');
  });

  it('the order a key placed still answers to it after a day (its page is found, nothing is charged again)', async () => {
    const { clock, keys } = clocked();
    const gateway = new SandboxGateway({ now: () => new Date(clock.now), latencyMs: 1 });
    const svc = new CheckoutService({ db: handle.db, gateway, keys, now: () => new Date(clock.now) });
    const me = await newPerson();
    const key = keys.issue(me.userId);
    const paid = await svc.checkout(request(me, key));
    expect(paid.kind).toBe('paid');
    clock.now = T0 + 2 * CHECKOUT_KEY_TTL_MS;
    const again = await svc.checkout(request(me, key));
    expect(again).toMatchObject({ kind: 'paid', settledHere: false, order: { id: (paid as { order: { id: number } }).order.id } });
    expect((gateway.ledger as MemorySandboxLedger).charges.size).toBe(1);
  });
});
