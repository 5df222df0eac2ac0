/**
 * `astro dev`'s runtime: when it cannot start on the first request (the embedded database still held by
 * the dev server being restarted), the request gets the error and the next request tries again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { holdDataFolder } from '../lib/db/data-folder';
import type { Runtime } from '../lib/runtime/runtime.server';
import { realtimeDev } from './realtime';

const dataDir = mkdtempSync(join(tmpdir(), 'academy-dev-'));
const saved = { DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL, LOG_LEVEL: process.env.LOG_LEVEL };
afterAll(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

it('tries again on the next request after the runtime failed to start', async () => {
  Object.assign(process.env, { DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' });
  type Middleware = (req: object, res: object, next: (err?: unknown) => void) => void;
  let middleware: Middleware | null = null;
  const setup = realtimeDev().hooks['astro:server:setup'] as unknown as (o: { server: unknown }) => void;
  setup({ server: { middlewares: { use: (m: Middleware) => (middleware = m) }, httpServer: null } });
  const request = () => {
    const req = {};
    return new Promise<{ err: unknown; runtime: Runtime | undefined }>((resolve) =>
      middleware!(req, {}, (err) => resolve({ err, runtime: (Reflect.get(req, Symbol.for('astro.locals')) as { runtime?: Runtime } | undefined)?.runtime })),
    );
  };

  const held = await holdDataFolder(dataDir, { snapshot: null });
  const first = await request();
  expect(String(first.err)).toMatch(/is open in another process/);
  await held.release();
  const second = await request();
  expect(second.err).toBeUndefined();
  expect(second.runtime?.database.kind).toBe('pglite');
  await second.runtime!.close();
}, 180_000);
