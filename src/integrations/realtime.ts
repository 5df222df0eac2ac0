/**
 * `astro dev` with the same runtime as production: one runtime is built from the environment on the
 * first request (so `astro build` and Vitest, which never serve, open nothing), handed to every request
 * as `locals.runtime` (Astro's dev server reads request locals from the `astro.locals` symbol), and the
 * realtime socket is attached to the dev server's own HTTP server.
 */
import type { AstroIntegration } from 'astro';
import type { Server as HttpServer } from 'node:http';
import { readConfig } from '../lib/config/config';
import { resolve } from 'node:path';
import { createRuntime, type Runtime } from '../lib/runtime/runtime.server';
import { stockMedia } from '../lib/media/stock.server';
import { movePhotosIntoStorage } from '../lib/identity/photo.server';
import { moveExportsIntoStorage } from '../lib/privacy/export.server';
import { attachRealtime } from '../lib/realtime/socket.server';

/** Where Astro's dev server looks for a request's locals. */
const ASTRO_LOCALS = Symbol.for('astro.locals');

export function realtimeDev(): AstroIntegration {
  let runtime: Promise<Runtime> | null = null;
  // A runtime that failed to start (the embedded database still held by the server being restarted) is tried again on the next request.
  const get = () =>
    (runtime ??= createRuntime(readConfig()).then(
      async (rt) => {
        // As the production start does: the lesson media of MEDIA_DIR reach the storage (a database
        // prepared by `npm run db:seed` may predate the storage's folder). A failure is said, not fatal.
        await stockMedia(rt.db, rt.storage, resolve(rt.config.mediaDir)).catch((err: unknown) => rt.logger.warn({ err }, 'lesson media not copied into the storage'));
        await movePhotosIntoStorage(rt.config.dataDir, rt.storage).catch((err: unknown) => rt.logger.warn({ err }, 'profile photos not moved into the storage'));
        await moveExportsIntoStorage(rt.config.dataDir, rt.storage).catch((err: unknown) => rt.logger.warn({ err }, '"My data" archives not moved into the storage'));
        return rt;
      },
      (err: unknown) => {
        runtime = null;
        throw err;
      },
    ));
  return {
    name: 'academy-runtime',
    hooks: {
      'astro:server:setup': ({ server }) => {
        server.middlewares.use((req, _res, next) => {
          get().then((rt) => {
            Reflect.set(req, ASTRO_LOCALS, { ...((Reflect.get(req, ASTRO_LOCALS) as object | undefined) ?? {}), runtime: rt });
            next();
          }, next);
        });
        // Null under Vitest and in middleware-only Vite servers: nothing to attach to.
        const http = server.httpServer as HttpServer | null;
        if (http) {
          void get().then((rt) => attachRealtime(http, rt));
          http.once('close', () => void runtime?.then((rt) => rt.close()));
        }
      },
    },
  };
}
