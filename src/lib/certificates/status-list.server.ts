/**
 * The published revocation lists: built from the revoked certificates, signed as a VC-JWT with the
 * academy's key, and kept a minute in each process, or until a revocation anywhere changes the
 * catalogue's version (the notice every revocation sends through the bus).
 */
import { and, gte, isNotNull, lt } from 'drizzle-orm';
import { SignJWT, type JWTPayload } from 'jose';
import type { Db } from '../db/client';
import { certificates } from '../db/schema';
import { VC_JWT_TYPE } from './credentials.server';
import type { SigningKey } from './signing.server';
import { STATUS_LIST_SIZE, STATUS_LIST_TTL_SECONDS, statusListCredential, type BitstringStatusListCredential } from './status-list';

/** The ids of the revoked certificates whose bits live in list `list`. */
export async function revokedIdsOf(db: Db, list: number): Promise<number[]> {
  const from = (list - 1) * STATUS_LIST_SIZE;
  const rows = await db
    .select({ id: certificates.id })
    .from(certificates)
    .where(and(isNotNull(certificates.revokedAt), gte(certificates.id, from), lt(certificates.id, from + STATUS_LIST_SIZE)));
  return rows.map((r) => r.id);
}

/** A list signed as a compact VC-JWT (EdDSA, `typ: 'vc+jwt'`, the key's `kid`; `iss`, `jti`, `iat`, `nbf` from the list). */
export function signStatusList(credential: BitstringStatusListCredential, key: SigningKey): Promise<string> {
  const seconds = Math.floor(Date.parse(credential.validFrom) / 1000);
  return new SignJWT(structuredClone(credential) as unknown as JWTPayload)
    .setProtectedHeader({ alg: 'EdDSA', typ: VC_JWT_TYPE, kid: key.kid })
    .setIssuer(credential.issuer)
    .setJti(credential.id)
    .setIssuedAt(seconds)
    .setNotBefore(seconds)
    .sign(key.privateKey);
}

/** What building a list needs. */
export interface StatusListContext {
  db: Db;
  signingKey: SigningKey;
  origin: string;
  /** The academy's issuer profile URL (`issuer.id` of every credential). */
  issuerId: string;
}

/** List `list`, built and signed now. */
export async function buildStatusList(ctx: StatusListContext, list: number, now: number): Promise<string> {
  const credential = statusListCredential(ctx.origin, ctx.issuerId, list, await revokedIdsOf(ctx.db, list), now);
  return signStatusList(credential, ctx.signingKey);
}

interface Kept {
  version: number;
  at: number;
  jwt: string;
}

/** Most lists kept at once (an academy has one list per 131,072 certificates). */
const MAX_KEPT = 32;

/**
 * Each process's signed lists, kept `STATUS_LIST_TTL_SECONDS` and only while the catalogue's version
 * (bumped by every revocation's notice, here or in another process) is the one they were built under.
 */
export class StatusListCache {
  readonly #kept = new Map<string, Kept>();

  /** The kept list `key` (origin and number) if still fresh, else the one `build` makes, kept. */
  async get(key: string, version: number, now: number, build: () => Promise<string>): Promise<string> {
    const kept = this.#kept.get(key);
    if (kept && kept.version === version && now - kept.at < STATUS_LIST_TTL_SECONDS * 1000) return kept.jwt;
    const jwt = await build();
    if (this.#kept.size >= MAX_KEPT) this.#kept.delete(this.#kept.keys().next().value!);
    this.#kept.set(key, { version, at: now, jwt });
    return jwt;
  }

  /** Forgets every list (tests). */
  clear(): void {
    this.#kept.clear();
  }
}
