/**
 * The key certificates are signed with (Ed25519, EdDSA): created once and kept in the data folder, or
 * given in the configuration, and its public half as a JWK set. Apart from the certificate module so
 * that the runtime, which loads the key at start, does not load the PDF and QR libraries with it.
 */
import { createHash, createPrivateKey, createPublicKey, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { exportJWK, generateKeyPair, importJWK, type CryptoKey } from 'jose';

/* ───────────── signing keys ───────────── */

/** A public Ed25519 signing key as published in the JWKS. */
export interface PublicJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  /** The RFC 7638 JWK thumbprint (SHA-256, base64url). */
  kid: string;
  alg: 'EdDSA';
  use: 'sig';
}

/** The key certificates are signed with. */
export interface SigningKey {
  /** Not extractable. */
  privateKey: CryptoKey;
  publicJwk: PublicJwk;
  /** The JWK thumbprint, also `publicJwk.kid` and the `kid` of every signature. */
  kid: string;
}

/** A base64url Ed25519 key component (32 bytes). */
const ED25519_PART = /^[A-Za-z0-9_-]{43}$/;

/** The RFC 7638 thumbprint of an Ed25519 public key. */
function thumbprint(x: string): string {
  return createHash('sha256').update(JSON.stringify({ crv: 'Ed25519', kty: 'OKP', x })).digest('base64url');
}

function publicJwkOf(x: string): PublicJwk {
  return { kty: 'OKP', crv: 'Ed25519', x, kid: thumbprint(x), alg: 'EdDSA', use: 'sig' };
}

/**
 * The signing key in a JSON private JWK, or a thrown Error saying `problem` (one sentence, never the
 * key itself): it must be an Ed25519 key whose `x` is the public half of its `d`.
 */
async function parsePrivateJwk(json: string, problem: string): Promise<SigningKey> {
  let d: string;
  let x: string;
  try {
    const jwk: unknown = JSON.parse(json);
    if (typeof jwk !== 'object' || jwk === null) throw new Error('not an object');
    const { kty, crv, d: dd, x: xx } = jwk as Record<string, unknown>;
    if (kty !== 'OKP' || crv !== 'Ed25519' || typeof dd !== 'string' || typeof xx !== 'string' || !ED25519_PART.test(dd) || !ED25519_PART.test(xx)) throw new Error('not Ed25519');
    const derived = createPublicKey(createPrivateKey({ key: { kty, crv, d: dd, x: xx }, format: 'jwk' })).export({ format: 'jwk' });
    if (derived.x !== xx) throw new Error('x does not match d');
    d = dd;
    x = xx;
  } catch {
    throw new Error(problem);
  }
  const privateKey = (await importJWK({ kty: 'OKP', crv: 'Ed25519', d, x }, 'EdDSA', { extractable: false })) as CryptoKey;
  const publicJwk = publicJwkOf(x);
  return { privateKey, publicJwk, kid: publicJwk.kid };
}

/** Writes `text` to `file` only if it does not exist yet (atomically, mode 0600); false when another writer got there first. */
async function createExclusively(file: string, text: string): Promise<boolean> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temp, text, { mode: 0o600, flag: 'wx' });
  try {
    // A hard link publishes the complete file at once and fails if the name is taken.
    await link(temp, file);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV' && code !== 'ENOSYS') throw err;
    // File systems without hard links: an exclusive create instead.
    try {
      await writeFile(file, text, { mode: 0o600, flag: 'wx' });
      return true;
    } catch (err2) {
      if ((err2 as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw err2;
    }
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

/**
 * The Ed25519 key certificates are signed with. `envJwk` (a private JWK in JSON, typically from an
 * environment variable) wins when given and not blank. Otherwise the key is read from `file`, or, when
 * the file does not exist, created and written there as a private JWK (mode 0600, folders created) so
 * later calls and restarts reuse it; with `file` `null` a fresh key lives only in memory (tests).
 * A malformed JWK, in the environment or the file, throws an Error with one sentence saying so.
 */
export async function loadOrCreateSigningKey(file: string | null, envJwk: string | undefined): Promise<SigningKey> {
  if (envJwk !== undefined && envJwk.trim() !== '') {
    return parsePrivateJwk(envJwk, 'The certificate signing key given in the environment is not a JSON Ed25519 private JWK ({"kty":"OKP","crv":"Ed25519","d":"…","x":"…"}).');
  }
  const fromFile = async (path: string) => parsePrivateJwk(await readFile(path, 'utf8'), `The certificate signing key file ${path} does not hold a JSON Ed25519 private JWK; fix or remove it.`);
  if (file !== null && existsSync(file)) return fromFile(file);

  const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const { kty, crv, d, x } = await exportJWK(privateKey);
  const json = JSON.stringify({ kty, crv, x, d, alg: 'EdDSA', use: 'sig', kid: thumbprint(x!) }, null, 2) + '\n';
  // Another process may have created the file meanwhile: then its key is the one to use.
  if (file !== null && !(await createExclusively(file, json))) return fromFile(file);
  return parsePrivateJwk(json, 'The generated certificate signing key is not usable.');
}

/**
 * The JSON Web Key Set to publish at `/.well-known/jwks.json`: each key reduced to its public members,
 * with `alg: 'EdDSA'`, `use: 'sig'` and its thumbprint as `kid` (computed when missing). Private members
 * given by mistake are dropped; a key that is not Ed25519 throws a TypeError.
 */
export function jwks(publicJwks: readonly { kty?: string; crv?: string; x?: string; kid?: string }[]): { keys: PublicJwk[] } {
  return {
    keys: publicJwks.map((k) => {
      if (k.kty !== 'OKP' || k.crv !== 'Ed25519' || typeof k.x !== 'string' || !ED25519_PART.test(k.x)) throw new TypeError('Only Ed25519 public keys can be published.');
      return { ...publicJwkOf(k.x), ...(k.kid ? { kid: k.kid } : {}) };
    }),
  };
}
