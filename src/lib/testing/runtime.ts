/**
 * A runtime for tests: over a database the test opened, with a silent logger (unless given), mail to a
 * throwaway outbox, this process's bus and no scheduler timer (tests run jobs with `scheduler.runDue`).
 */
import { mkdtempSync } from 'node:fs';
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

export async function testRuntime(database: DbHandle, opts: TestRuntimeOptions = {}): Promise<Runtime> {
  const dataDir = mkdtempSync(join(tmpdir(), 'academy-runtime-'));
  const config: AppConfig = { ...readConfig({ DATA_DIR: dataDir, PASSWORD_HASH_COST: process.env.PASSWORD_HASH_COST, ...opts.env }), ...opts.config };
  return createRuntime(config, { logger: createLogger('silent'), schedule: false, ...opts, database });
}
