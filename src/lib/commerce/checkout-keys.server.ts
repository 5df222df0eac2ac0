/**
 * The idempotency keys of checkout forms: issued by the server to one person for one checkout view,
 * verified when the form is posted (see `CheckoutKeys`).
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a checkout key may place an order after it was issued: a day. */
export const CHECKOUT_KEY_TTL_MS = 24 * 60 * 60_000;

/** What a checkout key is to its bearer: issued to them and fresh, issued to them over a day ago, or not issued to them. */
export type CheckoutKeyState = 'valid' | 'expired' | 'forged';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * The idempotency keys of checkout forms, UUID-shaped: the minute the key was issued (4 bytes), 6
 * random bytes (with the UUID's version and variant bits), and an HMAC of those 10 bytes and the
 * person's id (6 bytes). The server issues one per checkout view; a key nobody issued, or one issued
 * to someone else, is `forged` (so a forged key never reaches the database, and a key copied from
 * another person neither creates an order nor finds theirs). A key issued over a day ago is `expired`:
 * it still finds the order it placed, but places no new one. Keys of the earlier layout (random half,
 * HMAC half, no time) read as expired.
 */
export class CheckoutKeys {
  readonly #secret: Buffer;
  readonly #now: () => number;

  /** `now`: the clock keys are stamped and checked with (milliseconds; tests inject one). */
  constructor(secret: Uint8Array, opts: { now?: () => number } = {}) {
    if (secret.byteLength < 32) throw new RangeError('A checkout key secret needs at least 32 bytes');
    this.#secret = Buffer.from(secret);
    this.#now = opts.now ?? Date.now;
  }

  /**
   * Keys derived from the certificate signing key (Ed25519 signatures are deterministic): every
   * process sharing that key issues and accepts the same checkout keys, without another secret to keep.
   */
  static async fromSigningKey(privateKey: CryptoKey, opts: { now?: () => number } = {}): Promise<CheckoutKeys> {
    const signature = await globalThis.crypto.subtle.sign({ name: 'Ed25519' }, privateKey, new TextEncoder().encode('academy checkout idempotency keys v1'));
    return new CheckoutKeys(createHash('sha256').update(new Uint8Array(signature)).digest(), opts);
  }

  #mac(userId: number, head: Buffer, version: 'v1' | 'v2'): Buffer {
    const label = version === 'v1' ? '' : 'v2:';
    return createHmac('sha256', this.#secret).update(`${label}${userId}:${head.toString('hex')}`).digest();
  }

  /** A new key for `userId`'s checkout, stamped with the current minute. */
  issue(userId: number): string {
    const bytes = randomBytes(16);
    bytes.writeUInt32BE(Math.floor(this.#now() / 60_000), 0);
    bytes[6] = (bytes[6]! & 0x0f) | 0x40; // version 4
    bytes[8] = (bytes[8]! & 0x3f) | 0x80; // RFC 9562 variant
    this.#mac(userId, bytes.subarray(0, 10), 'v2').copy(bytes, 10, 0, 6);
    const hex = bytes.toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  /** Whether `key` was issued to `userId` by a process sharing this secret, and over a day ago or not. */
  check(userId: number, key: string): CheckoutKeyState {
    if (!UUID_V4.test(key)) return 'forged';
    const bytes = Buffer.from(key.replace(/-/g, ''), 'hex');
    if (timingSafeEqual(this.#mac(userId, bytes.subarray(0, 10), 'v2').subarray(0, 6), bytes.subarray(10, 16))) {
      const issuedAt = bytes.readUInt32BE(0) * 60_000;
      return this.#now() - issuedAt > CHECKOUT_KEY_TTL_MS ? 'expired' : 'valid';
    }
    // The earlier layout: 8 random bytes, then 8 bytes of HMAC (the variant bits over its first byte).
    const legacy = this.#mac(userId, bytes.subarray(0, 8), 'v1').subarray(0, 8);
    legacy[0] = (legacy[0]! & 0x3f) | 0x80;
    return timingSafeEqual(legacy, bytes.subarray(8, 16)) ? 'expired' : 'forged';
  }

  /** Whether `key` was issued to `userId` by a process sharing this secret less than a day ago. */
  verify(userId: number, key: string): boolean {
    return this.check(userId, key) === 'valid';
  }
}
