/**
 * Backup and restore of either database with the certificate signing key. The embedded database: a
 * backup of a stopped one restored into a new DATA_DIR gives the same rows and key, and a credential
 * signed before verifies after; a backup taken from the running process while it writes (through
 * `npm run backup`) opens, passes the migrations and holds whole transactions only; a restore over a
 * database is refused unless forced, and a damaged archive changes nothing. PostgreSQL (skipped, saying
 * so, without it or its client tools): the same round trip with pg_dump and pg_restore into a fresh
 * database, and a forced restore that fails half-way leaves the database as it was.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { readConfig } from '../config/config';
import { openDatabase, queryRows, type Db, type DbHandle } from '../db/client';
import { migrate } from '../db/migrate';
import { createPostgresDatabase, postgresAvailable, preparedDataFolder } from '../db/testing';
import { certificates } from '../db/schema';
import { certificateCredential } from '../certificates/certificates.server';
import { checkCertificateCredential, signCertificate } from '../certificates/credentials.server';
import { jwks, loadOrCreateSigningKey, type SigningKey } from '../certificates/signing.server';
import { signingKeyFile } from '../runtime/runtime.server';
import { photoFolder, savePhoto } from '../identity/photo.server';
import sharp from 'sharp';
import { createStorage } from '../storage/create.server';
import { childArgs } from '../testing/children';
import { restoreBackup, takeBackup } from './backup.server';

const folders: string[] = [];
const folder = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), `academy-${prefix}-`));
  folders.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

const TABLES = ['users', 'contacts', 'courses', 'certificates', 'tracking', 'orders', 'memberships'];
/** Every row of the tables a backup must keep, as JSON. */
async function rowsOf(db: Db): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const t of TABLES) out[t] = JSON.stringify(await queryRows(db, sql.raw(`select * from ${t} order by 1`)));
  return out;
}

const COURSE = { nameEs: 'Curso', nameEn: 'Course', descriptionEs: '', descriptionEn: '', durationSeconds: 3600 };
/** The first seeded certificate with its signed credential kept in the database. */
async function signFirstCertificate(db: Db, key: SigningKey) {
  const [certificate] = await db.select().from(certificates).orderBy(certificates.id).limit(1);
  const jwt = await certificateCredential(db, certificate!, () => signCertificate(certificate!, { signingKey: key, origin: 'https://academia.example', locale: 'es', course: COURSE, issuerName: 'Academia' }));
  return { certificate: { ...certificate!, credential: jwt }, jwt };
}

/** A seeded embedded database in a new DATA_DIR (left closed), from the test run's seeded copy. */
const seededDataDir = (): Promise<string> => preparedDataFolder(folder('data'));

/** Runs npm with `env` added and resolves with its exit code and output. */
function npm(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn('npm', args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

const keyIn = (dataDir: string) => readFileSync(signingKeyFile(dataDir)!, 'utf8');
const pgliteConfig = (dataDir: string) => readConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });

describe('backup and restore of the embedded database', () => {
  it('a stopped database comes back in a new DATA_DIR with the same rows and key; a credential signed before verifies after', async () => {
    const source = await seededDataDir();
    const key = await loadOrCreateSigningKey(signingKeyFile(source), undefined);
    const before = await openDatabase({ databaseUrl: null, dataDir: source });
    const { jwt } = await signFirstCertificate(before.db, key);
    // A profile photo in DATA_DIR (the server's own re-encoded file) travels with the database.
    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#0a7' } }).png().toBuffer();
    // The stored files of the local storage (<DATA_DIR>/files: photos, media) travel too, under their keys.
    // The prepared folder's own stored files (lesson media, the demo clips' HLS) travel as well.
    const prepared = readdirSync(join(source, 'files'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
    const stored = await createStorage(pgliteConfig(source).storage);
    const saved = await savePhoto(before.db, stored, 1, { size: png.length, bytes: png });
    expect(saved.status).toBe('ok');
    const photo = `files/photos/${saved.status === 'ok' ? saved.imageUrl.split('/').pop() : ''}`;
    await stored.put('videos/7/720p/seg-001.ts', Buffer.from('a segment'));
    // A photo still in the folder where photos were kept before the storage is kept too.
    mkdirSync(photoFolder(source));
    writeFileSync(join(photoFolder(source), '1-0123456789abcdef0123.webp'), 'older photo');
    const rows = await rowsOf(before.db);
    await before.close();

    const report = await takeBackup(pgliteConfig(source), `${folder('backups')}/`);
    expect(report.file).toMatch(/academy-pglite-\d{8}-\d{6}\.tar\.gz$/);
    expect(report.lines.join('\n')).toContain(`certificate signing key included (kid ${key.kid})`);
    expect(report.lines.join('\n')).toContain('1 profile photo included');
    expect(report.lines.join('\n')).toContain(`${prepared + 2} stored files of the folder ${join(source, 'files')} included`);

    const target = join(folder('restored'), 'data');
    const restored = await restoreBackup(pgliteConfig(target), report.file);
    expect(restored.lines.join('\n')).toContain('embedded database restored into');
    expect(keyIn(target)).toBe(keyIn(source));
    expect(readFileSync(join(target, photo))).toEqual(readFileSync(join(source, photo)));
    expect(readFileSync(join(photoFolder(target), '1-0123456789abcdef0123.webp'), 'utf8')).toBe('older photo');
    expect(readFileSync(join(target, 'files/videos/7/720p/seg-001.ts'), 'utf8')).toBe('a segment');
    const after = await openDatabase({ databaseUrl: null, dataDir: target });
    try {
      expect(await rowsOf(after.db)).toEqual(rows);
      const [certificate] = await after.db.select().from(certificates).orderBy(certificates.id).limit(1);
      expect(certificate!.credential).toBe(jwt);
      const restoredKey = await loadOrCreateSigningKey(signingKeyFile(target), undefined);
      expect(await checkCertificateCredential(jwt, certificate!, jwks([restoredKey.publicJwk]))).toBe(true);
      // A new key (what a restore without the key gave) does not verify it.
      const other = await loadOrCreateSigningKey(null, undefined);
      expect(await checkCertificateCredential(jwt, certificate!, jwks([other.publicJwk]))).toBe(false);
    } finally {
      await after.close();
    }

    // Over a database: refused, in one sentence, and nothing changes.
    await expect(restoreBackup(pgliteConfig(target), report.file)).rejects.toThrow(/already holds a database: restore into an empty DATA_DIR, or add --force/);
    // Forced: replaced, the previous folder kept beside it.
    const forced = await restoreBackup(pgliteConfig(target), report.file, { force: true });
    expect(forced.lines.join('\n')).toMatch(/the previous one is kept as .*pglite\.replaced-/);
    expect(readdirSync(target).filter((n) => n.startsWith('pglite.replaced-'))).toHaveLength(1);
  }, 240_000);

  it('a damaged archive restored with --force over a database changes nothing', async () => {
    const source = await seededDataDir();
    await loadOrCreateSigningKey(signingKeyFile(source), undefined);
    const good = await takeBackup(pgliteConfig(source), join(folder('backups'), 'good.tar.gz'));
    // The same archive with its database copy cut short.
    const work = folder('damaged');
    spawnSync('tar', ['-xzf', good.file, '-C', work]);
    const copy = readFileSync(join(work, 'pglite.tar'));
    writeFileSync(join(work, 'pglite.tar'), copy.subarray(0, copy.length / 3));
    const damaged = join(work, 'damaged.tar.gz');
    spawnSync('tar', ['-czf', damaged, '-C', work, 'manifest.json', 'pglite.tar', 'certificate-signing-key.json']);

    const target = folder('target');
    await restoreBackup(pgliteConfig(target), good.file);
    const handle = await openDatabase({ databaseUrl: null, dataDir: target });
    await handle.db.execute(sql`update users set first_name = 'Kept' where id = 1`);
    const rows = await rowsOf(handle.db);
    await handle.close();

    await expect(restoreBackup(pgliteConfig(target), damaged, { force: true })).rejects.toThrow(/does not open .*nothing was changed/);
    // The stored files are the good archive's; no half-restored folder is left beside them.
    expect(readdirSync(target).filter((n) => n !== 'pglite' && n !== 'certificate-signing-key.json' && n !== 'files')).toEqual([]);
    const again = await openDatabase({ databaseUrl: null, dataDir: target });
    try {
      expect(await rowsOf(again.db)).toEqual(rows);
    } finally {
      await again.close();
    }
    await expect(restoreBackup(pgliteConfig(target), '/etc/hostname')).rejects.toThrow(/is not a backup archive \(not a gzipped tar\)\.$/);
  }, 240_000);

  describe('while the process holding it writes', () => {
    let writer: ChildProcess | null = null;
    afterEach(() => writer?.kill('SIGKILL'));

    it('`npm run backup` gets a copy from that process that opens, passes the migrations and holds whole transactions', async () => {
      const source = await seededDataDir();
      await loadOrCreateSigningKey(signingKeyFile(source), undefined);
      // Node itself (no tsx process in between that a kill would leave its child behind), its standard
      // input held open: the writer stops when this test process goes away.
      const child = spawn(process.execPath, childArgs('backup-writer'), { env: { ...process.env, DATA_DIR: source }, stdio: ['pipe', 'pipe', 'pipe'] });
      writer = child;
      let committed = 0;
      let errors = '';
      child.stdout!.on('data', (d: Buffer) => {
        const m = /committed (\d+)\s*$/.exec(d.toString());
        if (m) committed = Number(m[1]);
      });
      child.stderr!.on('data', (d: Buffer) => (errors += d));
      await expect.poll(() => committed, { timeout: 90_000 }).toBeGreaterThanOrEqual(50);
      const before = committed;

      const file = join(folder('backups'), 'running.tar.gz');
      const cli = await npm(['run', 'backup', '--silent', '--', file], { DATA_DIR: source, DATABASE_URL: '' });
      expect(cli.stderr.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('npm warn'))).toEqual([]);
      expect(cli.code).toBe(0);
      expect(cli.stdout).toMatch(/^academy: embedded database copied from the running server \(pid \d+\)$/m);
      expect(cli.stdout).toContain(`academy: backup written to ${file}`);
      // The writer went on writing meanwhile, and its folder stayed its own.
      await expect.poll(() => committed, { timeout: 60_000 }).toBeGreaterThan(before + 10);
      expect(errors).toBe('');

      const target = folder('restored');
      await restoreBackup(pgliteConfig(target), file);
      const handle = await openDatabase({ databaseUrl: null, dataDir: target });
      try {
        await migrate(handle);
        const [{ users, contacts }] = (await queryRows<{ users: number; contacts: number }>(
          handle.db,
          sql`select (select count(*)::int from users where email like 'writer%') as users, (select count(*)::int from contacts where email like 'writer%') as contacts`,
        )) as [{ users: number; contacts: number }];
        // Everything committed before the backup was asked for, and no transaction cut in half.
        expect(users).toBeGreaterThanOrEqual(before);
        expect(contacts).toBe(users);
      } finally {
        await handle.close();
      }
    }, 300_000);
  });
});

const pgUp = await postgresAvailable();
const pgTools = spawnSync('pg_dump', ['--version']).status === 0 && spawnSync('pg_restore', ['--version']).status === 0 && spawnSync('psql', ['--version']).status === 0;
if (!pgUp) console.warn('PostgreSQL not reachable: the PostgreSQL backup and restore tests are skipped.');
else if (!pgTools) console.warn('pg_dump, pg_restore or psql not installed: the PostgreSQL backup and restore tests are skipped.');

describe.skipIf(!pgUp || !pgTools)('backup and restore of PostgreSQL with pg_dump and pg_restore', () => {
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const drop of drops) await drop().catch(() => undefined);
  });
  /** A new database: empty, or a copy of the run's migrated (and seeded) template. */
  const database = async (from?: 'migrated' | 'seeded') => {
    const made = await createPostgresDatabase({ prefix: 'academy_backup', ...(from ? { from } : {}) });
    drops.push(made.drop);
    return made.url;
  };
  const pgConfig = (url: string, dataDir: string) => readConfig({ DATABASE_URL: url, DATA_DIR: dataDir, LOG_LEVEL: 'silent' });

  it('comes back in a fresh database and a new DATA_DIR with the same rows and key; a credential signed before verifies after', async () => {
    const sourceUrl = await database('seeded');
    const sourceDir = folder('pg-data');
    const key = await loadOrCreateSigningKey(signingKeyFile(sourceDir), undefined);
    let handle: DbHandle = await openDatabase({ databaseUrl: sourceUrl, dataDir: sourceDir });
    const { jwt } = await signFirstCertificate(handle.db, key);
    const rows = await rowsOf(handle.db);
    await handle.close();

    const report = await takeBackup(pgConfig(sourceUrl, sourceDir), join(folder('backups'), 'pg.tar.gz'));
    expect(report.lines.join('\n')).toContain('dumped with pg_dump');

    const targetUrl = await database();
    const targetDir = folder('pg-restored');
    const restored = await restoreBackup(pgConfig(targetUrl, targetDir), report.file);
    expect(restored.lines.join('\n')).toContain('restored into');
    expect(keyIn(targetDir)).toBe(keyIn(sourceDir));
    handle = await openDatabase({ databaseUrl: targetUrl, dataDir: targetDir });
    try {
      await migrate(handle);
      expect(await rowsOf(handle.db)).toEqual(rows);
      const [certificate] = await handle.db.select().from(certificates).orderBy(certificates.id).limit(1);
      const restoredKey = await loadOrCreateSigningKey(signingKeyFile(targetDir), undefined);
      expect(await checkCertificateCredential(jwt, certificate!, jwks([restoredKey.publicJwk]))).toBe(true);
    } finally {
      await handle.close();
    }
    await expect(restoreBackup(pgConfig(targetUrl, targetDir), report.file)).rejects.toThrow(/already holds \d+ tables: restore into an empty database, or add --force/);
  }, 240_000);

  it('a forced restore that fails half-way leaves the database as it was', async () => {
    // A backup whose last statements cannot run here: a policy for a role that is gone by the restore.
    const role = `academy_backup_gone_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const sourceUrl = await database();
    const admin = async (url: string, statement: string) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(statement).finally(() => client.end());
    };
    await admin(sourceUrl, `create role ${role}; create table notes (id int); create policy only_them on notes to ${role} using (true)`);
    const report = await takeBackup(pgConfig(sourceUrl, folder('pg-data')), join(folder('backups'), 'bad.tar.gz'));
    await admin(sourceUrl, `drop policy only_them on notes; drop role ${role}`);

    const targetUrl = await database('migrated');
    const handle = await openDatabase({ databaseUrl: targetUrl, dataDir: 'unused' });
    try {
      await handle.db.execute(sql`insert into users (email, first_name, last_name) values ('kept@test.example', 'Kept', 'Here')`);
      const rows = await rowsOf(handle.db);
      await expect(restoreBackup(pgConfig(targetUrl, folder('pg-restored')), report.file, { force: true })).rejects.toThrow(/^psql failed: .*role .* does not exist/);
      expect(await rowsOf(handle.db)).toEqual(rows);
    } finally {
      await handle.close();
    }
  }, 240_000);
});

it('the restore of a PostgreSQL backup needs DATABASE_URL', async () => {
  // The manifest names the database it holds: a PostgreSQL archive is not loaded into DATA_DIR.
  const work = folder('manifest');
  writeFileSync(join(work, 'manifest.json'), JSON.stringify({ format: 'academy-backup', version: 1, database: 'postgres', createdAt: new Date().toISOString(), signingKey: 'none', signingKeyId: null }));
  writeFileSync(join(work, 'database.pgdump'), 'x');
  const file = join(work, 'pg.tar.gz');
  spawnSync('tar', ['-czf', file, '-C', work, 'manifest.json', 'database.pgdump']);
  const target = folder('target');
  await expect(restoreBackup(pgliteConfig(target), file)).rejects.toThrow(/holds a PostgreSQL database: set DATABASE_URL/);
  expect(existsSync(join(target, 'pglite'))).toBe(false);
});
