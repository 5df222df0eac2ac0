/**
 * Runtime configuration read from the environment, validated once with zod.
 * Every problem becomes one clear sentence saying what is wrong and how to fix it.
 */
import { z } from '../zod';
import { parseRateLimits } from '../http/rate-limit';
import { ConfigError } from './error';

export { ConfigError };

const postgresUrl = z
  .string()
  .trim()
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'postgres:' || u.protocol === 'postgresql:') && u.hostname !== '';
    } catch {
      return false;
    }
  });

const envSchema = z.object({
  PORT: z.string().optional(),
  HOST: z.string().optional(),
  DATABASE_URL: z.string().optional(),
  DATA_DIR: z.string().optional(),
  MEDIA_DIR: z.string().optional(),
  PUBLIC_URL: z.string().optional(),
  NODE_ENV: z.string().optional(),
  RATE_LIMITS: z.string().optional(),
  FORGOT_PASSWORD_URL: z.string().optional(),
});

/** The validated settings the server needs. */
export interface AppConfig {
  port: number;
  host: string;
  /** `null` means the embedded PGlite database in `dataDir`. */
  databaseUrl: string | null;
  dataDir: string;
  mediaDir: string;
  production: boolean;
  /** An external page for forgotten passwords; `null` uses the academy's own reset by e-mail. */
  forgotPasswordUrl: string | null;
}

/**
 * Reads `FORGOT_PASSWORD_URL`: the login page's forgot-password link goes there when it is set (the
 * original product sent people to an external site), otherwise to the academy's own reset page.
 */
export function readForgotPasswordUrl(env: Record<string, string | undefined> = process.env): string | null {
  const raw = env.FORGOT_PASSWORD_URL?.trim();
  if (!raw) return null;
  let url: URL | null;
  try {
    url = new URL(raw);
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new ConfigError(
      `FORGOT_PASSWORD_URL "${raw}" is not a web address: use https://…, or unset it to use the academy's own password reset by e-mail.`,
    );
  }
  return url.href;
}

/** Reads and validates the configuration; throws `ConfigError` with a fix-it sentence on bad input. */
export function readConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const e = envSchema.parse(env);
  const portText = e.PORT?.trim() || '4321';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`PORT "${e.PORT}" is not a port number: set PORT to a whole number from 1 to 65535 (default 4321).`);
  }
  // Checked here so a malformed value stops the server at start, not the first login.
  parseRateLimits(e.RATE_LIMITS);
  let databaseUrl: string | null = null;
  if (e.DATABASE_URL !== undefined && e.DATABASE_URL.trim() !== '') {
    if (!postgresUrl.safeParse(e.DATABASE_URL).success) {
      throw new ConfigError(
        'DATABASE_URL is not a PostgreSQL URL: use postgres://user:password@host:5432/database, or unset it to use the embedded database in ./data.',
      );
    }
    databaseUrl = e.DATABASE_URL.trim();
  }
  return {
    port,
    host: e.HOST?.trim() || '0.0.0.0',
    databaseUrl,
    dataDir: e.DATA_DIR?.trim() || './data',
    mediaDir: e.MEDIA_DIR?.trim() || './media',
    production: e.NODE_ENV === 'production',
    forgotPasswordUrl: readForgotPasswordUrl(env),
  };
}
