/**
 * What a backup archive holds and how it is named. An archive is a gzipped tar of three files:
 * `manifest.json` (below), the database (`pglite.tar`, a copy of the embedded database's folder, or
 * `database.pgdump`, PostgreSQL's `pg_dump` custom format) and `certificate-signing-key.json` (the key
 * certificates are signed with, unless it lived in CERTIFICATE_SIGNING_KEY when the backup was taken),
 * the folder `photos/` (the profile photos of DATA_DIR, when there are any), and the folder `files/` (the
 * stored files of the local storage, `STORAGE_DIR`, under their keys; a bucket's objects are backed up
 * by the object store's own means).
 */

/** The manifest's `format`: what says a file is one of these archives. */
export const BACKUP_FORMAT = 'academy-backup';
export const BACKUP_VERSION = 1;

/** The archive's members. */
export const MEMBERS = { manifest: 'manifest.json', pglite: 'pglite.tar', postgres: 'database.pgdump', key: 'certificate-signing-key.json', photos: 'photos', files: 'files' } as const;

/** Where the certificate signing key of a backup is. */
export type KeySource =
  /** In the archive (`certificate-signing-key.json`). */
  | 'included'
  /** In CERTIFICATE_SIGNING_KEY when the backup was taken: that value must be kept with the backup. */
  | 'environment'
  /** Nowhere: DATA_DIR had no key yet. */
  | 'none';

export interface Manifest {
  format: typeof BACKUP_FORMAT;
  version: number;
  database: 'pglite' | 'postgres';
  /** ISO time the backup was taken. */
  createdAt: string;
  signingKey: KeySource;
  /** The public key's thumbprint (`kid`), when known: says which key old credentials name. */
  signingKeyId: string | null;
}

/** The manifest in `text`, or `null` when it is not one this version reads. */
export function parseManifest(text: string): Manifest | null {
  let m: unknown;
  try {
    m = JSON.parse(text);
  } catch {
    return null;
  }
  const r = (typeof m === 'object' && m !== null ? m : {}) as Record<string, unknown>;
  if (r.format !== BACKUP_FORMAT || r.version !== BACKUP_VERSION) return null;
  if (r.database !== 'pglite' && r.database !== 'postgres') return null;
  if (r.signingKey !== 'included' && r.signingKey !== 'environment' && r.signingKey !== 'none') return null;
  if (typeof r.createdAt !== 'string' || !Number.isFinite(Date.parse(r.createdAt))) return null;
  const kid = typeof r.signingKeyId === 'string' ? r.signingKeyId : null;
  return { format: BACKUP_FORMAT, version: BACKUP_VERSION, database: r.database, createdAt: r.createdAt, signingKey: r.signingKey, signingKeyId: kid };
}

/** The file name of a backup taken at `at` into a folder: `academy-pglite-20261126-154500.tar.gz` (UTC). */
export function archiveName(database: Manifest['database'], at: Date): string {
  const stamp = at.toISOString().replace(/\.\d+Z$/, '').replace(/[-:]/g, '').replace('T', '-');
  return `academy-${database}-${stamp}.tar.gz`;
}

/** A time stamp for the names of the files a restore puts aside (`pglite.replaced-20261126-154500`). */
export function asideStamp(at: Date): string {
  return archiveName('pglite', at).slice('academy-pglite-'.length, -'.tar.gz'.length);
}

/** True when two private JWKs (JSON) are the same Ed25519 key; false when they differ or one is not a key. */
export function sameSigningKey(a: string, b: string): boolean {
  const parse = (text: string): { d?: unknown; x?: unknown } | null => {
    try {
      const v: unknown = JSON.parse(text);
      return typeof v === 'object' && v !== null ? (v as { d?: unknown; x?: unknown }) : null;
    } catch {
      return null;
    }
  };
  const ka = parse(a);
  const kb = parse(b);
  return ka !== null && kb !== null && typeof ka.d === 'string' && ka.d === kb.d && ka.x === kb.x;
}
