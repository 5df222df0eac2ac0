/**
 * Backup commands: `backup [file.tar.gz or folder]` writes one archive with the database and the
 * certificate signing key (into a folder, default `backups/`, a new file named by database and time);
 * `restore <file> [--force]` puts both back, refusing a database or a different key already there
 * unless `--force` (which keeps what it replaces beside it). The database is the configured one: the
 * embedded database in DATA_DIR, or DATABASE_URL's. `npm run build` compiles it to
 * `dist/runtime/backup.mjs` (`node dist/runtime/backup.mjs backup …` where only the build is installed, as
 * in the container image).
 */
import { ConfigError, readConfig } from '../src/lib/config/config';
import { restoreBackup, takeBackup } from '../src/lib/backup/backup.server';

/** One line for a problem a person can fix, and a non-zero exit (as the server's `fail`, which this
 * compiled command does not import: that would move the server's entry into a shared chunk). */
function fail(err: unknown): never {
  console.error(`academy: ${err instanceof ConfigError ? err.message : `unexpected error: ${(err as Error)?.message ?? String(err)}`}`);
  process.exit(1);
}

const [command, ...rest] = process.argv.slice(2);
const force = rest.includes('--force');
const paths = rest.filter((a) => a !== '--force');
const usage = 'usage: npm run backup -- [file.tar.gz or folder]  |  npm run restore -- <file.tar.gz> [--force]';

try {
  if ((command !== 'backup' && command !== 'restore') || paths.length > 1 || (command === 'restore' && paths.length !== 1) || (command === 'backup' && force)) {
    console.error(usage);
    process.exit(2);
  }
  const config = readConfig();
  const report = command === 'backup' ? await takeBackup(config, paths[0] ?? 'backups/') : await restoreBackup(config, paths[0]!, { force });
  for (const line of report.lines) console.log(`academy: ${line}`);
  console.log(command === 'backup' ? `academy: backup written to ${report.file}` : `academy: restored from ${report.file}`);
} catch (err) {
  fail(err);
}
