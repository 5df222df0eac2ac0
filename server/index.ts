/**
 * Production entry: validates the configuration, opens and migrates the database (seeding a new one),
 * loads the built site and serves it with socket.io on one port. SIGTERM/SIGINT stop it cleanly.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join, resolve } from 'node:path';
import { ConfigError, readConfig } from '../src/lib/config/config';
import { openDatabase } from '../src/lib/db/client';
import { migrate } from '../src/lib/db/migrate';
import { isEmpty, seed } from '../src/lib/db/seed/seed.server';
import { createRuntime } from '../src/lib/runtime/runtime.server';
import { createApp, type AstroHandler } from './app';
import { loadPagePolicies } from './static';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Prints one line for a problem a person can fix and exits non-zero; no stack trace. */
export function fail(err: unknown): never {
  const message = err instanceof ConfigError ? err.message : `unexpected error: ${(err as Error)?.message ?? String(err)}`;
  console.error(`academy: ${message}`);
  if (process.env.DEBUG && err instanceof Error) console.error(err.stack);
  process.exit(1);
}

/** Opens the configured database, brings it up to date, and seeds it when it is new. */
export async function prepareDatabase(config = readConfig()) {
  const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrate(handle);
    if (await isEmpty(handle.db)) {
      const s = await seed(handle.db, resolve(root, config.mediaDir));
      console.log(`academy: seeded the demo catalogue (${s.courses} courses, ${s.lessons} lessons, ${s.users} demo accounts)`);
    }
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw err;
  }
  return handle;
}

/** Starts the server and resolves once it listens. */
export async function main(): Promise<void> {
  const config = readConfig();
  // DIST_DIR lets a second build (e.g. a test build) be served beside the usual `dist/`.
  const dist = resolve(root, process.env.DIST_DIR ?? 'dist');
  const entry = join(dist, 'server/entry.mjs');
  if (!existsSync(entry)) throw new ConfigError('the site is not built: run `npm run build` (or `npm start`, which builds when needed).');
  const handle = await prepareDatabase(config);
  let runtime;
  try {
    // The scheduler starts once the port is ours, so a second copy on a taken port does no work.
    runtime = await createRuntime(config, { database: handle, schedule: false });
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw err;
  }
  const { handler } = (await import(pathToFileURL(entry).href)) as { handler: AstroHandler };
  const app = createApp({ runtime, astroHandler: handler, clientDir: join(dist, 'client'), policies: loadPagePolicies(dist) });

  await new Promise<void>((resolve, reject) => {
    app.server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') reject(new ConfigError(`port ${config.port} is already in use: stop the program using it or set PORT to a free port.`));
      else if (err.code === 'EACCES') reject(new ConfigError(`port ${config.port} needs more privileges: set PORT to a number above 1023.`));
      else reject(err);
    });
    app.server.listen(config.port, config.host, resolve);
  });
  runtime.scheduler.start();
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  console.log(`academy: ready at http://localhost:${port}/ in ${Math.round(process.uptime() * 1000)} ms (database: ${handle.kind} ${handle.where}; bus: ${runtime.bus.kind})`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`academy: ${signal} received, finishing open requests…`);
    // Stop taking sockets and requests, write every acknowledged progress event, then close the database.
    await app.close();
    await runtime.close();
    await handle.close();
    console.log('academy: stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch(fail);
}
