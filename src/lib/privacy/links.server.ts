/**
 * The tokens of archive links. A token is derived from the certificate signing key and the archive's id
 * (Ed25519 signatures are deterministic, so every process sharing the key derives the same secret): the
 * database keeps only its SHA-256, yet a job that died before mailing the link can mail the same one.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export class ExportLinks {
  readonly #secret: Buffer;

  private constructor(secret: Buffer) {
    this.#secret = secret;
  }

  /** Links derived from the signing key. */
  static async fromSigningKey(privateKey: CryptoKey): Promise<ExportLinks> {
    const signature = await globalThis.crypto.subtle.sign({ name: 'Ed25519' }, privateKey, new TextEncoder().encode('academy data export links v1'));
    return new ExportLinks(createHash('sha256').update(new Uint8Array(signature)).digest());
  }

  /** Links from a fixed secret (tests). */
  static fromSecret(secret: string): ExportLinks {
    return new ExportLinks(createHash('sha256').update(secret).digest());
  }

  /** The token of archive `exportId`'s link. */
  token(exportId: number): string {
    return this.sign('data-export', exportId);
  }

  /** The token of a link for `purpose` about record `id` (the same in every process sharing the key). */
  sign(purpose: string, id: number): string {
    return createHmac('sha256', this.#secret).update(`${purpose}:${id}`).digest('base64url');
  }

  /** Whether `token` is the token of `purpose` about record `id` (compared in constant time). */
  verify(purpose: string, id: number, token: string): boolean {
    const expected = Buffer.from(this.sign(purpose, id));
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

/** What the database keeps of a token. */
export function linkTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
