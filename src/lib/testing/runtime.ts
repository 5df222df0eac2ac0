/**
 * A runtime for tests: over a database the test opened, with a silent logger (unless given), mail to a
 * throwaway outbox, this process's bus and no scheduler timer (tests run jobs with `scheduler.runDue`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readConfig, type AppConfig } from '../config/config';
import type { DbHandle } from '../db/client';
import { createLogger } from '../http/log.server';
import { createRuntime, type Runtime, type RuntimeParts } from '../runtime/runtime.server';

export interface TestRuntimeOptions extends Omit<RuntimeParts, 'database'> {
  /** Environment variables as the server would read them (validated like the server's). */
  env?: Record<string, string>;
  /** Settings to change after reading `env`. */
  config?: Partial<AppConfig>;
}

/** The data folders of this process's test runtimes not closed yet: removed when the process ends. */
const folders = new Set<string>();
process.once('exit', () => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** A test runtime in a data folder of its own (outbox, signing key, stored files), removed when it closes. */
export async function testRuntime(database: DbHandle, opts: TestRuntimeOptions = {}): Promise<Runtime> {
  const dataDir = mkdtempSync(join(tmpdir(), 'academy-runtime-'));
  folders.add(dataDir);
  const config: AppConfig = { ...readConfig({ DATA_DIR: dataDir, PASSWORD_HASH_COST: process.env.PASSWORD_HASH_COST, ...opts.env }), ...opts.config };
  const runtime = await createRuntime(config, { logger: createLogger('silent'), schedule: false, ...opts, database });
  const close = runtime.close;
  runtime.close = async () => {
    try {
      await close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      folders.delete(dataDir);
    }
  };
  return runtime;
}
