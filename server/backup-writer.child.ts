/**
 * Test fixture (`src/lib/backup/backup.server.test.ts`): a process that holds the embedded database in
 * `DATA_DIR` open, as the server does, and writes to it without end: each transaction adds a user and
 * their contact, and waits a few milliseconds between the two, so that a copy asked for meanwhile almost
 * always finds a transaction open. (Written without pause, it took a core from the rest of the run for the
 * whole test: 54 s in a whole run.) It prints `committed <n>` after every tenth commit and stops cleanly
 * on SIGTERM, or when its standard input closes (the test that started it is gone: it never writes on alone).
 */
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/lib/db/client';

const handle = await openDatabase({ databaseUrl: null, dataDir: process.env.DATA_DIR! });
let stopping = false;
process.once('SIGTERM', () => (stopping = true));
process.stdin.on('end', () => (stopping = true));
process.stdin.on('close', () => (stopping = true));
process.stdin.resume();
let n = 0;
while (!stopping) {
  n++;
  await handle.db.transaction(async (tx) => {
    const email = `writer${n}@test.example`;
    await tx.execute(sql`insert into users (email, first_name, last_name) values (${email}, 'Writer', ${String(n)})`);
    // A moment inside the transaction: a copy asked for now finds it open.
    await new Promise((r) => setTimeout(r, 5));
    await tx.execute(sql`insert into contacts (user_id, first_name, last_name, email) select id, 'Writer', ${String(n)}, ${email} from users where email = ${email}`);
  });
  if (n % 10 === 0) console.log(`committed ${n}`);
}
await handle.close();
process.exit(0);
