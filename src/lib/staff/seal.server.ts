/**
 * TOTP secrets are kept sealed (AES-256-GCM), so a copy of the database alone does not hand out staff
 * accounts' second factors. The key is derived from the academy's signing key (kept in `DATA_DIR` or
 * given as `CERTIFICATE_SIGNING_KEY`, and in every backup with the database), as the export links' key
 * is. A secret stored before sealing (plain base32) is still read, and sealed when the runtime starts
 * and when it is next used.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const PREFIX = 'v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A sealed value that does not open with this key (altered, or sealed with another key). */
export class UnreadableSecret extends Error {
  constructor() {
    super('a sealed second-factor secret does not open with this academy’s key');
    this.name = 'UnreadableSecret';
  }
}

export class SecretSeal {
  readonly #key: Buffer;

  private constructor(key: Buffer) {
    this.#key = key;
  }

  /** The seal of the academy's signing key. */
  static async fromSigningKey(privateKey: CryptoKey): Promise<SecretSeal> {
    const signature = await globalThis.crypto.subtle.sign({ name: 'Ed25519' }, privateKey, new TextEncoder().encode('academy staff second factor secrets v1'));
    return new SecretSeal(createHash('sha256').update(new Uint8Array(signature)).digest());
  }

  /** A seal from a fixed secret (tests). */
  static fromSecret(secret: string): SecretSeal {
    return new SecretSeal(createHash('sha256').update(`staff-secrets:${secret}`).digest());
  }

  /** Whether a stored value is sealed (else it is a plain secret from before sealing). */
  static isSealed(stored: string): boolean {
    return stored.startsWith(PREFIX);
  }

  /** `v1:` and the nonce, ciphertext and tag in base64url. */
  seal(secret: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
  }

  /** The secret of a stored value (a plain one as it is); throws `UnreadableSecret` when it does not open. */
  open(stored: string): string {
    if (!SecretSeal.isSealed(stored)) return stored;
    const raw = Buffer.from(stored.slice(PREFIX.length), 'base64url');
    if (raw.length < IV_BYTES + TAG_BYTES + 1) throw new UnreadableSecret();
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, raw.subarray(0, IV_BYTES));
      decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new UnreadableSecret();
    }
  }
}
