/**
 * Production entry: validates the configuration, opens and migrates the database (seeding a new one),
 * loads the built site and serves it with socket.io on one port. SIGTERM/SIGINT stop it cleanly.
 *
 * `npm run build` compiles this file to `dist/runtime/index.mjs`, which `npm start` and `npm run serve`
 * run with plain Node (no TypeScript loader). With `WEB_CONCURRENCY=N` (PostgreSQL required) the
 * process becomes a primary that prepares the database once and keeps N workers serving the port.
 */
import { spawnSync } from 'node:child_process';
import cluster, { type Worker } from 'node:cluster';
import { createServer as createNetServer, type Socket } from 'node:net';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join, resolve } from 'node:path';
import { childEnvironment, ConfigError, debugWanted, readConfig, type AppConfig } from '../src/lib/config/config';
import { describeFailure, storageError, storageFailure } from '../src/lib/config/error';
import { projectRoot } from '../src/lib/config/project-root.server';
import { openDatabase } from '../src/lib/db/client';
import { migrate, whilePreparing } from '../src/lib/db/migrate';
import { isEmpty, seed } from '../src/lib/db/seed/seed.server';
import { prepareStorage } from '../src/lib/runtime/prepare-storage.server';
import { createRuntime } from '../src/lib/runtime/runtime.server';
import { createApp, type AstroHandler } from './app';
import { startVideoWorker } from '../src/lib/videos/transcode.server';
import { acceptWaiting } from './drain';
import { loadPagePolicies } from './static';

const root = projectRoot();

/**
 * Prints one line for a problem a person can fix (a configuration error, a data folder on a full or
 * read-only disk) and exits non-zero; no stack trace. Anything else is named as an unexpected error,
 * in words even when what was thrown is no Error.
 */
export function fail(err: unknown): never {
  // A full disk is said as such wherever it was met (other storage codes, EACCES say, may be a port's).
  const full = ['ENOSPC', 'EDQUOT'].includes(storageFailure(err) ?? '');
  const message = err instanceof ConfigError ? err.message : full ? storageError(err)!.message : `unexpected error: ${describeFailure(err)}`;
  // A configuration error may name several variables, one sentence a line.
  for (const line of message.split('\n')) console.error(`academy: ${line}`);
  if (debugWanted() && err instanceof Error) console.error(err.stack);
  process.exit(1);
}

/**
 * Opens the configured database, brings it up to date, seeds it when it is new, and brings the lesson
 * media of `MEDIA_DIR` the database names into the storage (the local folder or the bucket) when they
 * are not there yet.
 */
export async function prepareDatabase(config = readConfig()) {
  if (!config.databaseUrl && config.dataDir !== 'memory://' && !config.preparing && !existsSync(join(resolve(config.dataDir), 'pglite', 'PG_VERSION'))) {
    // A new embedded database is created and seeded by a short-lived process of its own: the embedded
    // database's memory and the allocator's only grow, and seeding (bulk inserts, index builds) would
    // leave the serving process about 80 MB bigger for the rest of its life.
    const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], { env: childEnvironment({ ACADEMY_PREPARING: '1' }), stdio: 'inherit' });
    // The child has said what went wrong, in one line.
    if (child.status !== 0) process.exit(child.status ?? 1);
  }
  const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    // Replicas starting together on one PostgreSQL take turns: the first migrates and seeds.
    await whilePreparing(config.databaseUrl, async () => {
      await migrate(handle);
      if (await isEmpty(handle.db)) {
        const s = await seed(handle.db, resolve(root, config.mediaDir), config.passwordHashCost);
        console.log(`academy: seeded the demo catalogue (${s.courses} courses, ${s.lessons} lessons, ${s.users} demo accounts)`);
      }
      // Replicas take turns here too: the first copies, the others find the files stored.
      const stocked = await prepareStorage(handle.db, config, resolve(root, config.mediaDir));
      if (stocked) console.log(`academy: ${stocked}`);
    });
  } catch (err) {
    await handle.close().catch(() => undefined);
    // The disk filled up while the database was being created or brought up to date.
    throw (handle.kind === 'pglite' ? storageError(err, handle.where) : null) ?? err;
  }
  return handle;
}

/** Starts the server (or, with `WEB_CONCURRENCY` above 1, its workers) and resolves once it listens. */
export async function main(): Promise<void> {
  const config = readConfig();
  if (config.preparing) {
    // The short-lived process that prepares a new embedded database (`prepareDatabase`).
    const handle = await prepareDatabase(config);
    await handle.close();
    return;
  }
  if (config.webConcurrency > 1) {
    if (!config.databaseUrl) {
      throw new ConfigError(
        `WEB_CONCURRENCY=${config.webConcurrency} needs PostgreSQL: the embedded database serves one process. Set DATABASE_URL to a PostgreSQL database, or unset WEB_CONCURRENCY.`,
      );
    }
    if (cluster.isPrimary) return primary(config);
  }
  return serve(config);
}

/**
 * The primary of `WEB_CONCURRENCY` workers: prepares the database once, forks, restarts a worker that
 * dies, and stops them all on a signal. The primary itself listens and hands each connection to a
 * worker in turn: on a signal it takes the connections already waiting, lets the port go, and only once
 * every connection is in a worker's hands tells the workers to finish their requests and stop. (Node's
 * own distribution would reset the connections still queued for a worker when the last one stops.)
 */
async function primary(config: AppConfig): Promise<void> {
  siteEntry(config);
  await portFree(config.port, config.host);
  const handle = await prepareDatabase(config);
  await handle.close();
  const { setupPrimary } = await import('@socket.io/cluster-adapter');
  setupPrimary();
  const n = config.webConcurrency;
  let ready = 0;
  let stopping = false;
  /** The workers that serve, in turn; connections wait here while none does (all restarting). */
  const serving: Worker[] = [];
  const waiting: Socket[] = [];
  let next = 0;
  let handing = 0;
  let accepted = 0;
  let handed: (() => void) | null = null;
  const handOff = (socket: Socket) => {
    accepted += 1;
    const worker = serving[next++ % Math.max(serving.length, 1)];
    if (!worker) {
      waiting.push(socket);
      return;
    }
    handing += 1;
    worker.send({ academy: 'connection' }, socket, (err) => {
      if (err) socket.destroy();
      if (--handing === 0) handed?.();
    });
  };
  const fork = () => cluster.fork();
  await new Promise<void>((resolve, reject) => {
    cluster.on('message', (worker, message: unknown) => {
      if ((message as { academy?: string })?.academy !== 'ready') return;
      serving.push(worker);
      for (const socket of waiting.splice(0)) handOff(socket);
      if (++ready === n) resolve();
    });
    cluster.on('exit', (worker, code, signal) => {
      if (serving.includes(worker)) serving.splice(serving.indexOf(worker), 1);
      if (stopping) return;
      // A worker that fails before all are up (bad settings) stops the whole start.
      if (ready < n) return reject(new ConfigError(`a worker stopped while starting (exit ${code ?? signal}); see its message above.`));
      console.error(`academy: worker ${worker.process.pid} stopped (exit ${code ?? signal}); starting another`);
      setTimeout(fork, 1000).unref();
    });
    for (let i = 0; i < n; i++) fork();
  }).catch((err) => {
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.kill('SIGTERM');
    throw err;
  });
  const listener = createNetServer({ pauseOnConnect: true }, handOff);
  await new Promise<void>((resolve, reject) => {
    listener.once('error', (err: NodeJS.ErrnoException) => reject(listenError(err, config.port)));
    listener.listen(config.port, config.host, resolve);
  }).catch((err) => {
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.kill('SIGTERM');
    throw err;
  });
  console.log(`academy: ${n} workers ready at http://localhost:${config.port}/ in ${Math.round(process.uptime() * 1000)} ms (database: PostgreSQL; bus: ${config.redisUrl ? 'redis' : 'postgres'})`);
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`academy: ${signal} received, finishing open requests on ${n} workers…`);
    // The connections waiting in the system's queue are taken and handed on, then the port is let go.
    await acceptWaiting(() => accepted);
    listener.close();
    if (handing > 0) await new Promise<void>((resolve) => (handed = resolve));
    const workers = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);
    let left = workers.length;
    if (left === 0) process.exit(0);
    for (const w of workers) {
      w.once('exit', () => {
        if (--left === 0) {
          console.log('academy: stopped');
          process.exit(0);
        }
      });
      // After the connections handed to it (messages arrive in order): it finishes their requests and
      // stops. A worker still starting (a replacement) has none and would miss the message: stopped now.
      if (serving.includes(w)) w.send({ academy: 'stop' });
      else w.process.kill('SIGTERM');
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

/** The built site's server entry (DIST_DIR lets a second build, e.g. a test build, be served beside `dist/`). */
function siteEntry(config: AppConfig): { dist: string; entry: string } {
  const dist = resolve(root, config.distDir);
  const entry = join(dist, 'server/entry.mjs');
  if (!existsSync(entry)) throw new ConfigError('the site is not built: run `npm run build` (or `npm start`, which builds when needed).');
  return { dist, entry };
}

/** The sentence for a port that cannot be listened on, or the error itself. */
function listenError(err: NodeJS.ErrnoException, port: number, variable = 'PORT'): Error {
  if (err.code === 'EADDRINUSE') return new ConfigError(`port ${port} is already in use: stop the program using it or set ${variable} to a free port.`);
  if (err.code === 'EACCES') return new ConfigError(`port ${port} needs more privileges: set ${variable} to a number above 1023.`);
  return err;
}

/** Resolves when `port` can be listened on now (a short probe), else rejects with the sentence saying why. */
function portFree(port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', (err: NodeJS.ErrnoException) => reject(listenError(err, port)));
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}

/** Serves the site in this process: one server, or one worker of several. */
async function serve(config: AppConfig): Promise<void> {
  const { dist, entry } = siteEntry(config);
  const worker = cluster.isWorker;
  // A port already taken is said at once, before the database is opened (or a new one seeded for nothing).
  if (!worker) await portFree(config.port, config.host);
  // Workers find the database prepared by their primary.
  const handle = worker ? await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }) : await prepareDatabase(config);
  let runtime: Awaited<ReturnType<typeof createRuntime>>;
  try {
    // The scheduler starts once the port is ours, so a second copy on a taken port does no work.
    runtime = await createRuntime(config, { database: handle, schedule: false });
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw err;
  }
  // The catalogue is loaded before the first request: every page's menus need it, and once loaded it is
  // what pages are served with while the database is out of reach (CatalogStore keeps the last one).
  await runtime.catalog.get();
  const { handler } = (await import(pathToFileURL(entry).href)) as { handler: AstroHandler };
  let videoWorker: ReturnType<typeof startVideoWorker> | null = null;
  const app = createApp({ runtime, astroHandler: handler, clientDir: join(dist, 'client'), policies: loadPagePolicies(dist), videoQueued: () => videoWorker?.poke() });

  if (worker) {
    // The primary listens and hands this worker its connections (see `primary`).
    process.on('message', (message: unknown, socket?: Socket) => {
      const m = message as { academy?: string } | null;
      if (m?.academy === 'connection' && socket) app.server.emit('connection', socket);
      else if (m?.academy === 'stop') void stop('stop');
    });
  } else {
    await new Promise<void>((resolve, reject) => {
      app.server.once('error', (err: NodeJS.ErrnoException) => reject(listenError(err, config.port)));
      app.server.listen(config.port, config.host, resolve);
    });
  }
  const { metricsServer } = app;
  if (metricsServer && config.metrics.port !== null) {
    const metricsPort = config.metrics.port;
    // Workers share the port through the cluster's primary, as each process keeps its own metrics.
    await new Promise<void>((resolve, reject) => {
      metricsServer.once('error', (err: NodeJS.ErrnoException) => reject(listenError(err, metricsPort, 'METRICS_PORT')));
      metricsServer.listen(metricsPort, config.metrics.host, resolve);
    });
  }
  runtime.scheduler.start();
  // Uploaded videos are converted by ffmpeg child processes, one at a time per process (VIDEO_WORKER=0: elsewhere).
  if (config.video.worker) videoWorker = startVideoWorker({ db: runtime.db, storage: runtime.storage, dataDir: config.dataDir, workerId: runtime.workerId, logger: runtime.logger.child({ part: 'videos' }), outage: runtime.outage, lessonsChanged: () => runtime.catalogChanged() });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  if (worker) process.send?.({ academy: 'ready' });
  else console.log(`academy: ready at http://localhost:${port}/ in ${Math.round(process.uptime() * 1000)} ms (database: ${handle.kind} ${handle.where}; bus: ${runtime.bus.kind})`);

  let stopping = false;
  async function stop(signal: string) {
    if (stopping) return;
    stopping = true;
    if (!worker) console.log(`academy: ${signal} received, finishing open requests…`);
    // Stop taking connections, answer every request received (up to the grace period), write every
    // acknowledged progress event, then close the database.
    await app.close();
    await videoWorker?.stop();
    await runtime.close();
    await handle.close();
    if (!worker) console.log('academy: stopped');
    process.exit(0);
  }
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch(fail);
}
