/**
 * The Playwright `test` every journey uses: the same as Playwright's, except that the welcome modal is
 * dismissed for the tab up front (journeys about the modal itself use `welcomeTest`).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { copyTemplate, JOURNEY_HASH_COST, JOURNEY_SERVE_ARGS, prepareTemplate } from '../../scripts/e2e-server.mjs';
import { expect as baseExpect, test as base, type Page as BasePage } from '@playwright/test';

export const test = base.extend({
  page: async ({ page }, use) => {
    await page.addInitScript(() => {
      try {
        sessionStorage.setItem('welcome-dismissed', '1');
      } catch {
        /* storage unavailable in this context */
      }
    });
    await use(page);
  },
});

/** Playwright's own `test`, for journeys that must see the welcome modal. */
export const welcomeTest = base;

export { languageTurns } from './support/language-turns';

export { expect } from '@playwright/test';
export type { Page } from '@playwright/test';

/**
 * The text of an outbox message containing `needle` (and every one of `alsoContaining`), from the test server's data folder (without
 * SMTP_URL, mail is written there as `.eml` files). Quoted-printable soft line breaks are undone so
 * a token or a link is never split.
 */
export async function outboxMail(needle: string, ...alsoContaining: string[]): Promise<string | undefined> {
  const roots = process.env.E2E_DATA_DIR
    ? [process.env.E2E_DATA_DIR]
    : (await readdir(tmpdir())).filter((d) => d.startsWith('academy-e2e-')).map((d) => join(tmpdir(), d));
  for (const root of roots) {
    const dir = join(root, 'outbox');
    for (const f of await readdir(dir).catch(() => [] as string[])) {
      if (!f.endsWith('.eml')) continue;
      const text = (await readFile(join(dir, f), 'utf8')).replace(/=\r?\n/g, '');
      if (text.includes(needle) && alsoContaining.every((n) => text.includes(n))) return text;
    }
  }
  return undefined;
}

/** The accessibility rules every page is held to. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21aa'];

/** Runs axe on the page (or the part `include` selects) and fails on any serious or critical violation, listing them. */
export async function expectNoSeriousViolations(page: BasePage, include?: string): Promise<void> {
  // Legacy mode runs axe in the page itself (every frame of it) instead of finishing the run in a blank page
  // opened for each check: the same rules on the same nodes, in about half the time.
  const builder = new AxeBuilder({ page }).withTags(AXE_TAGS).setLegacyMode(true);
  const results = await (include ? builder.include(include) : builder).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = bad
    .map((v) => `${v.impact} ${v.id}: ${v.help}\n${v.nodes.map((n) => `  - ${n.target.join(' ')}: ${n.failureSummary?.replace(/\n/g, ' ')}`).join('\n')}`)
    .join('\n');
  baseExpect(bad, `axe violations on ${page.url()}:\n${report}`).toEqual([]);
}

/** A server of one's own: its base URL, its data folder (outbox, database) and how to stop it. */
export interface OwnServer {
  baseURL: string;
  dataDir: string;
  /** Stops the server (its database is then free to open) and resolves when it has exited. */
  stop(): Promise<void>;
  /** Stops the server and deletes its data folder. */
  dispose(): Promise<void>;
}

/**
 * A new data folder holding a copy of the run's seeded database (made once by the journeys' server,
 * `scripts/e2e-server.mjs`), closed: for a server of one's own, or to change before one starts on it.
 */
export async function seededDataFolder(): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), 'academy-own-'));
  const template = process.env.E2E_TEMPLATE_DIR;
  if (!template) throw new Error('E2E_TEMPLATE_DIR is not set: run the journeys through playwright.config.ts');
  prepareTemplate(template);
  copyTemplate(template, dataDir);
  return dataDir;
}

/**
 * Starts the built site as `npm run serve` runs it, on a free port with a copy of the run's seeded
 * embedded database (or the data folder `env.DATA_DIR` names), the default rate limits and the journeys'
 * password-hash cost (`env` overrides), for journeys that must not share the main test server: limits that the journeys' server
 * raises, or stopping the server. Resolves once it answers.
 */
export async function startServer(env: Record<string, string> = {}): Promise<OwnServer> {
  const dataDir = env.DATA_DIR ?? (await seededDataFolder());
  const child = spawn(process.execPath, ['scripts/start.mjs', ...JOURNEY_SERVE_ARGS], {
    env: { ...process.env, NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', RATE_LIMITS: '', LOG_LEVEL: 'warn', PASSWORD_HASH_COST: JOURNEY_HASH_COST, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /ready at http:\/\/localhost:(\d+)\//.exec(output);
      if (ready) resolve(Number(ready[1]));
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => reject(new Error(`the server stopped (${code}) before it was ready:\n${output}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  };
  return {
    baseURL: `http://127.0.0.1:${port}`,
    dataDir,
    stop,
    async dispose() {
      await stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Gives the tests of the enclosing `test.describe` one server of their own (see `startServer`), run
 * serially, started before the first and disposed after the last. Returns a getter for it.
 */
export function useOwnServer(env: Record<string, string> = {}): () => OwnServer {
  let server: OwnServer | undefined;
  test.describe.configure({ mode: 'serial' });
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    server = await startServer(env);
  });
  test.afterAll(async () => server?.dispose());
  return () => {
    if (!server) throw new Error('the own server is not started yet');
    return server;
  };
}

/**
 * The token of the link that confirms `email`'s address (sent at sign-up), from the outbox: waits for
 * the mail. The text is undone from quoted-printable (`=3D`), so the token reads whole.
 */
export async function confirmationToken(email: string): Promise<string> {
  const find = async () => {
    const mail = await outboxMail(email, 'confirm-email?token');
    return mail ? /confirm-email\?token(?:=3D|=)([A-Za-z0-9_-]+)/.exec(mail)?.[1] : undefined;
  };
  await baseExpect.poll(find, { timeout: 10_000, message: `no confirmation mail for ${email}` }).toBeTruthy();
  return (await find())!;
}

/** Confirms a registered account's address through the link mailed at sign-up (as its owner would). */
export async function confirmAddress(request: { post: (url: string, opts: { form: Record<string, string> }) => Promise<{ status(): number; text(): Promise<string> }> }, email: string): Promise<void> {
  const token = await confirmationToken(email);
  const r = await request.post('/_actions/account.confirmEmail', { form: { token, lang: 'en' } });
  baseExpect(r.status(), await r.text()).toBe(200);
}
