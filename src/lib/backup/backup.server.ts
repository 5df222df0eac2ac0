/**
 * `npm run backup` and `npm run restore`: one archive (see `backup.ts`) with the database and the
 * certificate signing key, for either database.
 *
 * - Embedded database: a consistent copy of its folder, from the process that has it open (the running
 *   server answers on `<DATA_DIR>/pglite.sock`, `data-folder.ts`) or, when none has, by opening the
 *   folder itself (which keeps a server from opening it meanwhile).
 * - PostgreSQL: `pg_dump --format=custom` (a consistent snapshot while the servers run), restored with
 *   `pg_restore` into one transaction: the whole backup or, on any error, nothing.
 *
 * A restore refuses a database or a signing key already there unless forced; forced, it replaces them
 * as one step and keeps what it replaced beside it (the embedded database's folder, the key file).
 *
 * Stored files (lesson media, uploads) go in the archive when they live in the local folder; a bucket's
 * objects are backed up by the object store's own means (the report says so). A restore puts the
 * archive's files into the configured storage, whichever it is.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { chmod, copyFile, mkdir, mkdtemp, readdir, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import pg from 'pg';
import { childEnvironment, ConfigError, type AppConfig } from '../config/config';
import { openDatabase, queryRows } from '../db/client';
import { holdDataFolder, snapshotFromOwner } from '../db/data-folder';
import { loadOrCreateSigningKey } from '../certificates/signing.server';
import { signingKeyFile } from '../runtime/runtime.server';
import { photoFolder } from '../identity/photo.server';
import { createStorage, storagePlace } from '../storage/create.server';
import { storedFilesIn, storedFilesOut } from './files.server';
import { sql } from 'drizzle-orm';
import { archiveName, asideStamp, BACKUP_FORMAT, BACKUP_VERSION, MEMBERS, parseManifest, sameSigningKey, type Manifest } from './backup';

/** What a backup or a restore did, in lines for the person running it. */
export interface Report {
  /** The archive written or read. */
  file: string;
  database: Manifest['database'];
  lines: string[];
}

/* ───────────── backup ───────────── */

/** Takes a backup of the configured database and signing key into `out` (a `.tar.gz` file, or a folder to name one in). */
export async function takeBackup(config: AppConfig, out: string, now = new Date()): Promise<Report> {
  const database: Manifest['database'] = config.databaseUrl ? 'postgres' : 'pglite';
  if (!config.databaseUrl && config.dataDir === 'memory://') throw new ConfigError('DATA_DIR=memory:// keeps no database to back up: set DATA_DIR to the data folder.');
  // A name ending in .tar.gz (or .tgz) is the archive's; anything else is a folder to name it in.
  const isFolder = !/\.(tar\.gz|tgz)$/.test(out) || (existsSync(out) && statSync(out).isDirectory());
  const file = resolve(isFolder ? join(out, archiveName(database, now)) : out);
  if (existsSync(file)) throw new ConfigError(`${file} already exists: give a new file name, or a folder.`);
  await mkdir(dirname(file), { recursive: true });
  const key = await keyToKeep(config);
  const lines: string[] = [];
  // The members are gathered beside the archive (the same disk, which has room for it).
  const staging = await mkdtemp(join(dirname(file), '.academy-backup-'));
  try {
    if (config.databaseUrl) {
      await postgresDump(config.databaseUrl, join(staging, MEMBERS.postgres));
      lines.push(`PostgreSQL database dumped with pg_dump (a consistent snapshot)`);
    } else {
      const copy = await pgliteCopy(config.dataDir);
      await writeFile(join(staging, MEMBERS.pglite), copy.tar, { mode: 0o600 });
      lines.push(`embedded database copied ${copy.from}`);
    }
    const manifest: Manifest = { format: BACKUP_FORMAT, version: BACKUP_VERSION, database, createdAt: now.toISOString(), signingKey: key.source, signingKeyId: key.kid };
    await writeFile(join(staging, MEMBERS.manifest), JSON.stringify(manifest, null, 2) + '\n', { mode: 0o600 });
    if (key.json !== null) await writeFile(join(staging, MEMBERS.key), key.json, { mode: 0o600 });
    lines.push(key.line);
    // The profile photos live in DATA_DIR whichever the database: they go in the archive too.
    const photos = await copyPhotos(photoFolder(config.dataDir), join(staging, MEMBERS.photos));
    if (photos > 0) lines.push(`${photos} profile photo${photos === 1 ? '' : 's'} included`);
    const files = await backUpStoredFiles(config, join(staging, MEMBERS.files));
    lines.push(files.line);
    const members = [
      MEMBERS.manifest,
      database === 'pglite' ? MEMBERS.pglite : MEMBERS.postgres,
      ...(key.json !== null ? [MEMBERS.key] : []),
      ...(photos > 0 ? [MEMBERS.photos] : []),
      ...(files.count > 0 ? [MEMBERS.files] : []),
    ];
    const partial = `${file}.partial-${randomBytes(4).toString('hex')}`;
    try {
      await run('tar', ['-czf', partial, '-C', staging, ...members]);
      // It holds the signing key and every account's data: readable by its owner only.
      await chmod(partial, 0o600);
      await rename(partial, file);
    } finally {
      await rm(partial, { force: true });
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return { file, database, lines };
}

/** Copies the local storage's files into `to`; a bucket's are left to the object store (the line says so). */
async function backUpStoredFiles(config: AppConfig, to: string): Promise<{ count: number; line: string }> {
  const place = storagePlace(config.storage);
  if (config.storage.kind === 's3') {
    return { count: 0, line: `stored files are in ${place}, not in this archive: back them up with the object store's own means (versioning, replication, or a copy such as mc mirror or aws s3 sync)` };
  }
  const storage = await createStorage(config.storage);
  const count = await storedFilesOut(storage, to);
  return { count, line: count > 0 ? `${count} stored file${count === 1 ? '' : 's'} of ${place} included` : `no stored files in ${place}` };
}

/** The key to keep with a backup, and the line saying where it is. */
async function keyToKeep(config: AppConfig): Promise<{ source: Manifest['signingKey']; json: string | null; kid: string | null; line: string }> {
  if (config.certificateSigningKey) {
    const { kid } = await loadOrCreateSigningKey(null, config.certificateSigningKey);
    return { source: 'environment', json: null, kid, line: `the certificate signing key is in CERTIFICATE_SIGNING_KEY, not in this archive: keep that value with the backup` };
  }
  const file = signingKeyFile(config.dataDir)!;
  if (!existsSync(file)) {
    return { source: 'none', json: null, kid: null, line: `warning: no certificate signing key at ${resolve(file)} (DATA_DIR must be the server's for the backup to include it)` };
  }
  // A malformed key file stops the backup with the loader's sentence.
  const { kid } = await loadOrCreateSigningKey(file, undefined);
  return { source: 'included', json: await readFile(file, 'utf8'), kid, line: `certificate signing key included (kid ${kid})` };
}

/** A consistent copy of the embedded database: from the process that has it open, else from the folder itself. */
async function pgliteCopy(dataDir: string): Promise<{ tar: Uint8Array; from: string }> {
  for (let attempt = 0; ; attempt++) {
    const owner = await snapshotFromOwner(dataDir);
    if (owner) return { tar: owner.tar, from: `from the running server (pid ${owner.pid})` };
    if (!existsSync(join(dataDir, 'pglite', 'PG_VERSION'))) throw new ConfigError(`There is no embedded database in ${resolve(dataDir, 'pglite')}: set DATA_DIR to the server's data folder.`);
    try {
      const handle = await openDatabase({ databaseUrl: null, dataDir });
      try {
        return { tar: new Uint8Array(await (await handle.snapshot!()).arrayBuffer()), from: 'from its folder (no server had it open)' };
      } finally {
        await handle.close();
      }
    } catch (err) {
      // A server started in the meantime: ask it instead.
      if (attempt === 0 && err instanceof ConfigError && /open in another process/.test(err.message)) continue;
      throw err;
    }
  }
}

/* ───────────── restore ───────────── */

/** Restores the archive `file` into the configured database and DATA_DIR (`force`: replacing what is there). */
export async function restoreBackup(config: AppConfig, file: string, opts: { force?: boolean; now?: Date } = {}): Promise<Report> {
  const force = opts.force ?? false;
  const stamp = asideStamp(opts.now ?? new Date());
  const archive = resolve(file);
  if (!existsSync(archive)) throw new ConfigError(`${archive} does not exist: give the backup archive to restore.`);
  if (config.dataDir === 'memory://') throw new ConfigError('DATA_DIR=memory:// keeps nothing: set DATA_DIR to the folder to restore into.');
  const staging = await mkdtemp(join(tmpdir(), 'academy-restore-'));
  try {
    try {
      await run('tar', ['-xzf', archive, '-C', staging]);
    } catch {
      throw new ConfigError(`${archive} is not a backup archive (not a gzipped tar).`);
    }
    const manifest = existsSync(join(staging, MEMBERS.manifest)) ? parseManifest(await readFile(join(staging, MEMBERS.manifest), 'utf8')) : null;
    if (!manifest) throw new ConfigError(`${archive} is not a backup archive of this academy (no manifest.json of version ${BACKUP_VERSION}).`);
    const target: Manifest['database'] = config.databaseUrl ? 'postgres' : 'pglite';
    if (manifest.database !== target) {
      throw new ConfigError(
        manifest.database === 'pglite'
          ? `${archive} holds the embedded database: unset DATABASE_URL to restore it into DATA_DIR.`
          : `${archive} holds a PostgreSQL database: set DATABASE_URL to the (empty) database to restore it into.`,
      );
    }
    const key = await keyPlan(config, manifest, staging, force);
    const lines =
      manifest.database === 'pglite'
        ? await restorePglite(config.dataDir, join(staging, MEMBERS.pglite), force, stamp)
        : await restorePostgres(config.databaseUrl!, join(staging, MEMBERS.postgres), force, staging);
    lines.push(...(await key.apply(stamp)));
    const photos = await copyPhotos(join(staging, MEMBERS.photos), photoFolder(config.dataDir));
    if (photos > 0) lines.push(`${photos} profile photo${photos === 1 ? '' : 's'} restored to ${resolve(photoFolder(config.dataDir))}`);
    if (existsSync(join(staging, MEMBERS.files))) {
      const storage = await createStorage(config.storage);
      try {
        const files = await storedFilesIn(join(staging, MEMBERS.files), storage);
        lines.push(`${files} stored file${files === 1 ? '' : 's'} restored into ${storagePlace(config.storage)}`);
      } finally {
        await storage.close?.();
      }
    }
    return { file: archive, database: manifest.database, lines };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** What the restore does with the signing key; refuses (before anything changed) a different key already in DATA_DIR unless forced. */
async function keyPlan(config: AppConfig, manifest: Manifest, staging: string, force: boolean): Promise<{ apply(stamp: string): Promise<string[]> }> {
  const target = signingKeyFile(config.dataDir)!;
  if (manifest.signingKey !== 'included') {
    const line =
      manifest.signingKey === 'environment'
        ? `the backup's certificate signing key was in CERTIFICATE_SIGNING_KEY${manifest.signingKeyId ? ` (kid ${manifest.signingKeyId})` : ''}: set it to the value kept with the backup for earlier credentials to verify`
        : 'the backup holds no certificate signing key (there was none when it was taken)';
    return { apply: async () => [line] };
  }
  const json = await readFile(join(staging, MEMBERS.key), 'utf8').catch(() => null);
  if (json === null) throw new ConfigError('The backup archive lacks the certificate signing key its manifest names: it is damaged.');
  const { kid } = await loadOrCreateSigningKey(null, json);
  const existing = existsSync(target) ? await readFile(target, 'utf8') : null;
  const same = existing !== null && sameSigningKey(existing, json);
  if (existing !== null && !same && !force) {
    throw new ConfigError(`${resolve(target)} holds a different certificate signing key: restore into a new DATA_DIR, or add --force to replace it (the current one is kept beside it).`);
  }
  const envLine =
    config.certificateSigningKey && !sameSigningKey(config.certificateSigningKey, json)
      ? [`warning: CERTIFICATE_SIGNING_KEY is set to another key and wins over the restored file: unset it for earlier credentials (kid ${kid}) to verify`]
      : [];
  return {
    async apply(stamp) {
      if (same) return [`certificate signing key already in place (kid ${kid})`, ...envLine];
      await mkdir(dirname(target), { recursive: true });
      const temp = `${target}.${randomBytes(4).toString('hex')}.tmp`;
      await writeFile(temp, json, { mode: 0o600 });
      const aside = `${target}.replaced-${stamp}`;
      if (existing !== null) await rename(target, aside);
      await rename(temp, target);
      return [`certificate signing key restored to ${resolve(target)} (kid ${kid})${existing !== null ? `; the previous one is kept as ${resolve(aside)}` : ''}`, ...envLine];
    },
  };
}

/**
 * The embedded database: loaded into a new folder beside the current one, checked to open, then put in
 * place in one rename. The folder is held throughout, so no server opens it meanwhile.
 */
async function restorePglite(dataDir: string, tarFile: string, force: boolean, stamp: string): Promise<string[]> {
  if (!existsSync(tarFile)) throw new ConfigError('The backup archive lacks its database copy: it is damaged.');
  await mkdir(dataDir, { recursive: true });
  const held = await holdDataFolder(dataDir, { snapshot: null });
  const next = await mkdtemp(join(resolve(dataDir), '.restoring-'));
  try {
    const dir = join(resolve(dataDir), 'pglite');
    const present = existsSync(dir) && (await readdir(dir)).length > 0;
    if (present && !force) throw new ConfigError(`${dir} already holds a database: restore into an empty DATA_DIR, or add --force to replace it (the current one is kept beside it).`);
    const handle = await openDatabase({ databaseUrl: null, dataDir: next, snapshot: new Blob([await readFile(tarFile)]) }).catch((err: unknown) => {
      throw new ConfigError(`The backup's database copy does not open (${(err as Error).message}): it is damaged; nothing was changed.`);
    });
    let migrations: number;
    try {
      const rows = await queryRows<{ n: number }>(handle.db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`).catch((err: unknown) => {
        throw new ConfigError(`The backup's database copy is not an academy database (${(err as Error).message}); nothing was changed.`);
      });
      migrations = rows[0]?.n ?? 0;
    } finally {
      await handle.close();
    }
    const aside = `${dir}.replaced-${stamp}`;
    if (present) await rename(dir, aside);
    else if (existsSync(dir)) await rmdir(dir);
    try {
      await rename(join(next, 'pglite'), dir);
    } catch (err) {
      if (present) await rename(aside, dir);
      throw err;
    }
    return [`embedded database restored into ${dir} (${migrations} migrations applied)${present ? `; the previous one is kept as ${aside}` : ''}`];
  } finally {
    await rm(next, { recursive: true, force: true });
    await held.release();
  }
}

/** PostgreSQL: `pg_restore` into one transaction (after dropping the academy's schemas when forced). */
async function restorePostgres(databaseUrl: string, dumpFile: string, force: boolean, staging: string): Promise<string[]> {
  if (!existsSync(dumpFile)) throw new ConfigError('The backup archive lacks its database dump: it is damaged.');
  const tables = await tablesIn(databaseUrl);
  const where = describeUrl(databaseUrl);
  if (tables > 0 && !force) throw new ConfigError(`${where} already holds ${tables} tables: restore into an empty database, or add --force to replace its contents.`);
  // The dump as SQL first: if pg_restore fails half-way, nothing has been sent to the database.
  const script = join(staging, 'restore.sql');
  await run('pg_restore', ['--no-owner', '--no-privileges', `--file=${script}`, dumpFile]);
  const { url, env } = libpq(databaseUrl);
  const replace = force ? ['--command=DROP SCHEMA IF EXISTS public CASCADE; DROP SCHEMA IF EXISTS drizzle CASCADE; CREATE SCHEMA public;'] : [];
  // One transaction, stopping at the first error: the whole backup, or nothing.
  await run('psql', ['--no-psqlrc', '--quiet', '--single-transaction', '--set=ON_ERROR_STOP=1', `--dbname=${url}`, ...replace, `--file=${script}`], env);
  return [`PostgreSQL database restored into ${where} with pg_restore${tables > 0 ? ` (its ${tables} tables replaced)` : ''}`];
}

/** How many tables the database has outside PostgreSQL's own schemas. */
async function tablesIn(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const r = await client.query<{ n: number }>("select count(*)::int as n from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')");
    return r.rows[0]!.n;
  } catch (err) {
    throw new ConfigError(`Cannot connect to PostgreSQL at ${describeUrl(databaseUrl)} (${(err as Error).message}): start the server or fix DATABASE_URL.`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/* ───────────── tools ───────────── */

/** `pg_dump` of the database to `file` (custom format, uncompressed: the archive is gzipped). */
async function postgresDump(databaseUrl: string, file: string): Promise<void> {
  const { url, env } = libpq(databaseUrl);
  await run('pg_dump', ['--format=custom', '--compress=0', `--file=${file}`, `--dbname=${url}`], env);
}

/** The URL without its password (which goes in PGPASSWORD, out of the process list). */
function libpq(databaseUrl: string): { url: string; env: Record<string, string> } {
  const u = new URL(databaseUrl);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return { url: u.href, env: password ? { PGPASSWORD: password } : {} };
}

function describeUrl(databaseUrl: string): string {
  const u = new URL(databaseUrl);
  return `postgres://${u.hostname}:${u.port || 5432}${u.pathname}`;
}

const INSTALL: Record<string, string> = {
  pg_dump: "PostgreSQL's client tools (Debian/Ubuntu: apt-get install postgresql-client; the same major version as the server or newer)",
  pg_restore: "PostgreSQL's client tools (Debian/Ubuntu: apt-get install postgresql-client)",
  psql: "PostgreSQL's client tools (Debian/Ubuntu: apt-get install postgresql-client)",
  tar: 'tar',
};

/** Runs a tool; rejects with a ConfigError carrying its last line of errors (or saying it is not installed). */
function run(command: string, args: string[], env: Record<string, string> = {}): Promise<void> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, { env: childEnvironment(env), stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (d: Buffer) => (errors = (errors + d.toString('utf8')).slice(-4000)));
    child.on('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'ENOENT' ? new ConfigError(`${command} is not installed: install ${INSTALL[command] ?? command}.`) : err),
    );
    child.on('close', (code) => {
      if (code === 0) return resolveRun();
      const last = errors.trim().split('\n').filter(Boolean).pop() ?? `exit ${code}`;
      reject(new ConfigError(`${command} failed: ${last.replace(/^\S+:\s*/, '')}`));
    });
  });
}

/**
 * Copies the profile photos of folder `from` into `to` (each file written aside, then renamed in place);
 * returns how many. A missing `from` is no photo, not an error.
 */
async function copyPhotos(from: string, to: string): Promise<number> {
  const names = (await readdir(from).catch(() => [] as string[])).filter((n) => !n.startsWith('.'));
  if (names.length === 0) return 0;
  await mkdir(to, { recursive: true });
  for (const name of names) {
    const temp = join(to, `.${name}.${randomBytes(4).toString('hex')}.tmp`);
    await copyFile(join(from, name), temp);
    await rename(temp, join(to, name));
  }
  return names.length;
}
