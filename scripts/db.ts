/**
 * Database commands: `migrate`; `prepare` (migrate, and seed a new database); `seed` (idempotent);
 * `reset` (drop everything, migrate, seed). Each then copies the lesson media of `MEDIA_DIR` the database
 * names into the storage, when they are not there yet.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readConfig } from '../src/lib/config/config';
import { openDatabase } from '../src/lib/db/client';
import { migrate } from '../src/lib/db/migrate';
import { dropEverything, isEmpty, seed } from '../src/lib/db/seed/seed.server';
import { prepareStorage } from '../src/lib/runtime/prepare-storage.server';
import { fail } from '../server/index';

const root = fileURLToPath(new URL('..', import.meta.url));
const command = process.argv[2];
const commands = ['migrate', 'prepare', 'seed', 'reset'];

try {
  if (!command || !commands.includes(command)) {
    console.error(`usage: tsx scripts/db.ts ${commands.join('|')}`);
    process.exit(2);
  }
  const config = readConfig();
  const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    if (command === 'reset') await dropEverything(handle.db);
    await migrate(handle);
    if (command === 'seed' || command === 'reset' || (command === 'prepare' && (await isEmpty(handle.db)))) {
      const s = await seed(handle.db, resolve(root, config.mediaDir), config.passwordHashCost);
      console.log(`academy: seeded ${s.courses} courses, ${s.lessons} lessons, ${s.questions} questions, ${s.users} accounts, ${s.ibos} IBOs into ${handle.kind} ${handle.where}`);
    } else {
      console.log(`academy: ${handle.kind} ${handle.where} is up to date`);
    }
    // The lesson media the database names reach the storage (the local folder or the bucket).
    const stocked = await prepareStorage(handle.db, config, resolve(root, config.mediaDir));
    if (stocked) console.log(`academy: ${stocked}`);
  } finally {
    await handle.close();
  }
} catch (err) {
  fail(err);
}
