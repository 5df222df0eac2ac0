/**
 * Certificates as signed credentials: an Open Badges 3.0 credential signed as a VC-JWT with the
 * academy's Ed25519 key (`signing.server.ts`), and checking one against the published key set alone.
 */
import { createLocalJWKSet, decodeJwt, jwtVerify, SignJWT, type JSONWebKeySet, type JWTPayload } from 'jose';
import type { Certificate } from '../db/schema';
import { certificateFacts, credentialDescribes, credentialOptions, openBadgeCredential, OB3_CONTEXT, VC_CONTEXT_V2, type OpenBadgeCredential } from './certificates';
import type { IssueContext } from './mail.server';
import type { SigningKey } from './signing.server';
import { statusEntry } from './status-list';

/** The JOSE header `typ` of a signed credential. */
export const VC_JWT_TYPE = 'vc+jwt';

/**
 * The credential signed as a compact VC-JWT: header `alg: 'EdDSA'`, `typ: 'vc+jwt'` and the key's `kid`;
 * payload the credential itself plus `iss` (issuer id), `jti` (credential id), and `nbf` and `iat`
 * (from `validFrom`, and `exp` from `validUntil` when present).
 */
export async function signCredential(credential: OpenBadgeCredential, key: SigningKey): Promise<string> {
  const validFrom = Date.parse(credential.validFrom);
  if (!Number.isFinite(validFrom)) throw new TypeError('The credential has no valid validFrom date.');
  const seconds = Math.floor(validFrom / 1000);
  const jwt = new SignJWT(structuredClone(credential) as unknown as JWTPayload)
    .setProtectedHeader({ alg: 'EdDSA', typ: VC_JWT_TYPE, kid: key.kid })
    .setIssuer(credential.issuer.id)
    .setJti(credential.id)
    .setNotBefore(seconds)
    .setIssuedAt(seconds);
  const validUntil = (credential as { validUntil?: unknown }).validUntil;
  if (typeof validUntil === 'string' && Number.isFinite(Date.parse(validUntil))) jwt.setExpirationTime(Math.floor(Date.parse(validUntil) / 1000));
  return jwt.sign(key.privateKey);
}

/** Why a signed credential was not accepted. */
export type CredentialRejection =
  /** Not a compact JWS, or its parts do not decode. */
  | 'malformed'
  /** Signed with something other than EdDSA (including `alg: none`). */
  | 'unsupported-algorithm'
  /** No published key matches its `kid` and algorithm. */
  | 'unknown-key'
  /** The signature does not match the content. */
  | 'bad-signature'
  /** Its `nbf`/`iat` lies in the future. */
  | 'not-yet-valid'
  | 'expired'
  /** Validly signed, but not an Open Badges credential consistent with its claims (or the wrong `typ`). */
  | 'not-a-credential';

/** The outcome of {@link verifyCredential}. */
export type CredentialCheck = { ok: true; credential: OpenBadgeCredential; kid: string } | { ok: false; reason: CredentialRejection };

/** Longest token {@link verifyCredential} looks at. */
const MAX_JWT_LENGTH = 100_000;

function rejection(err: unknown): CredentialRejection {
  const code = (err as { code?: unknown })?.code;
  switch (code) {
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
    case 'ERR_JOSE_NOT_SUPPORTED':
      return 'unsupported-algorithm';
    case 'ERR_JWKS_NO_MATCHING_KEY':
    case 'ERR_JWKS_MULTIPLE_MATCHING_KEYS':
      return 'unknown-key';
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return 'bad-signature';
    case 'ERR_JWT_EXPIRED':
      return 'expired';
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED': {
      const claim = (err as { claim?: unknown }).claim;
      return claim === 'nbf' || claim === 'iat' ? 'not-yet-valid' : 'not-a-credential';
    }
    default:
      return 'malformed';
  }
}

/** True when the verified payload is an Open Badges credential whose JWT claims agree with it. */
function isConsistentCredential(p: JWTPayload): boolean {
  const r = p as Record<string, unknown>;
  const context = r['@context'];
  const type = r['type'];
  const issuer = r['issuer'] as { id?: unknown } | null | undefined;
  const subject = r['credentialSubject'] as { achievement?: unknown } | null | undefined;
  return (
    Array.isArray(context) &&
    context[0] === VC_CONTEXT_V2 &&
    context.includes(OB3_CONTEXT) &&
    Array.isArray(type) &&
    type.includes('VerifiableCredential') &&
    type.includes('OpenBadgeCredential') &&
    typeof issuer === 'object' &&
    issuer !== null &&
    issuer.id === p.iss &&
    typeof r['id'] === 'string' &&
    r['id'] === p.jti &&
    typeof r['validFrom'] === 'string' &&
    Math.floor(Date.parse(r['validFrom']) / 1000) === p.nbf &&
    typeof subject === 'object' &&
    subject !== null &&
    typeof subject.achievement === 'object' &&
    subject.achievement !== null
  );
}

/**
 * Checks a VC-JWT against the published key set only (never a key embedded in the token): EdDSA,
 * `typ: 'vc+jwt'`, a `kid` of the set, a valid signature, `nbf` not in the future (a minute of clock
 * skew allowed), and a payload that is an Open Badges credential agreeing with `iss`, `jti` and `nbf`.
 * Returns the credential (without the JWT claims) or why it was refused. A malformed key set throws.
 */
export async function verifyCredential(jwt: string, keySet: JSONWebKeySet): Promise<CredentialCheck> {
  const keys = createLocalJWKSet(keySet);
  if (typeof jwt !== 'string' || jwt.length > MAX_JWT_LENGTH) return { ok: false, reason: 'malformed' };
  try {
    const { payload, protectedHeader } = await jwtVerify(jwt.trim(), keys, { algorithms: ['EdDSA'], typ: VC_JWT_TYPE, clockTolerance: 60 });
    if (!isConsistentCredential(payload)) return { ok: false, reason: 'not-a-credential' };
    const { iss: _iss, jti: _jti, nbf: _nbf, iat: _iat, exp: _exp, ...credential } = payload;
    return { ok: true, credential: credential as unknown as OpenBadgeCredential, kid: protectedHeader.kid ?? '' };
  } catch (err) {
    return { ok: false, reason: rejection(err) };
  }
}

/**
 * Whether a certificate's kept credential is genuine: its signature verifies with the published key
 * set alone, and what it states is this certificate (code, holder, issue instant).
 */
export async function checkCertificateCredential(jwt: string, certificate: Certificate, keySet: JSONWebKeySet): Promise<boolean> {
  const check = await verifyCredential(jwt, keySet);
  return check.ok && credentialDescribes(check.credential, certificate);
}

/**
 * The signed credential of a certificate in `locale` (Open Badges 3.0, VC-JWT), with its status entry:
 * the bit of the published revocation list that says whether it was revoked.
 */
export function signCertificate(certificate: Certificate, ctx: Pick<IssueContext, 'signingKey' | 'origin' | 'locale' | 'course' | 'issuerName'>): Promise<string> {
  const facts = certificateFacts(certificate, ctx.course, ctx.locale, ctx.origin, ctx.issuerName);
  const credential = openBadgeCredential(facts, credentialOptions(certificate, ctx.course, ctx.locale, ctx.origin));
  return signCredential({ ...credential, credentialStatus: statusEntry(ctx.origin, certificate.id) }, ctx.signingKey);
}

/** Whether a kept credential names its status entry (those signed before the revocation lists do not). Reads without checking the signature. */
export function carriesStatus(jwt: string): boolean {
  try {
    const status = (decodeJwt(jwt) as { credentialStatus?: { type?: unknown } }).credentialStatus;
    return status?.type === 'BitstringStatusListEntry';
  } catch {
    return false;
  }
}
