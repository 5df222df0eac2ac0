/**
 * The runtime configuration: the one module that reads the environment. One zod schema turns every
 * variable into its setting (the readers of `settings.ts`), so a bad value stops the start with one
 * sentence per problem naming the variable, never a stack trace. Everything else receives the settings
 * from the runtime (`locals.runtime.config`) or as parameters.
 *
 * Dependencies point into this folder, never out of it (besides zod and the company's fixed details in
 * `site.ts`): the setting shapes domains share (`hosts.ts`, `rate-limits.ts`) live here.
 */
import { join } from 'node:path';
import { z } from '../zod';
import { ConfigError } from './error';
import type { OriginSettings } from './hosts';
import type { LimitName, LimitSpec } from './rate-limits';
import {
  readAllowedHosts,
  readBookPdfMax,
  readCertificateSigningKey,
  readContactTo,
  readDatabaseUrl,
  readDebug,
  readDistDir,
  readForgotPasswordUrl,
  readLogLevel,
  readMailFrom,
  readMailTimeout,
  readMetricsPort,
  readMetricsToken,
  readPasswordHashCost,
  readPort,
  readPreparing,
  readPublicUrl,
  readRateLimits,
  readRedisUrl,
  readSandboxLatency,
  readSmtpUrl,
  readStripeSecretKey,
  readStripeWebhookSecret,
  readTrustProxy,
  readWebConcurrency,
  type LogLevel,
} from './settings';
import { readS3Bucket, readS3Endpoint, readS3ForcePathStyle, readS3Region, readS3Secret, readStorageDir, readStorageKind, storageSettings, type StorageSettings } from './storage';

export { ConfigError };
export type { S3Settings, StorageSettings } from './storage';
export { LOG_LEVELS, readCertificateSigningKey, readLogLevel, readTrustProxy, type LogLevel } from './settings';

/** How mail leaves the process. */
export interface MailConfig {
  /** `smtp://user:pass@host:587` or `smtps://…`; `null` writes every message to `outboxDir` instead. */
  smtpUrl: string | null;
  /** The From header. */
  from: string;
  /** Where messages are written as `.eml` files when there is no SMTP server. */
  outboxDir: string;
  /** Give up on an unresponsive SMTP server after this long, so a visitor is never kept waiting minutes. */
  timeoutMs: number;
}

/** Where the Prometheus metrics are answered. */
export interface MetricsSettings {
  /** A secret scrapers send as `Authorization: Bearer …`; with it `/metrics` answers on the site's port too. Never logged. */
  token: string | null;
  /** A port of its own that answers only `/metrics` (with the token too when one is set). */
  port: number | null;
  /** The address that port listens on (default `127.0.0.1`: this machine only). */
  host: string;
}

/** Stripe's settings: both `null` unless Stripe is enabled. They are secrets: never logged nor quoted in messages. */
export interface StripeSettings {
  /** `sk_test_…` or `sk_live_…` (a restricted `rk_…` key works too). */
  secretKey: string | null;
  /** `whsec_…`: the signing secret of the webhook endpoint `/api/stripe/webhook`; `null` turns the endpoint off. */
  webhookSecret: string | null;
}

/** The validated settings the server needs. */
export interface AppConfig {
  port: number;
  host: string;
  /** `null` means the embedded PGlite database in `dataDir`. */
  databaseUrl: string | null;
  dataDir: string;
  mediaDir: string;
  /** `NODE_ENV=production`: cookies are marked secure over https. */
  production: boolean;
  /** `DEBUG`: a failure's stack trace is printed after its one line. */
  debug: boolean;
  /** `DIST_DIR`: the built site's folder, relative to the project. */
  distDir: string;
  /** `ACADEMY_PREPARING=1`: this is the short-lived process that creates and seeds a new embedded database. */
  preparing: boolean;
  /** An external page for forgotten passwords; `null` uses the academy's own reset by e-mail. */
  forgotPasswordUrl: string | null;
  /** Where absolute URLs point and which Host headers are answered (see `public-origin.ts`). */
  origin: OriginSettings;
  /** Believe `X-Forwarded-Proto`, `X-Forwarded-Host` and `X-Forwarded-For` (a reverse proxy in front sets them). */
  trustProxy: boolean;
  /** `LOG_LEVEL`: how much the JSON log on standard error says. */
  logLevel: LogLevel;
  /** `REDIS_URL`: rate limits, the socket adapter and the bus go through Redis when set. */
  redisUrl: string | null;
  /** `WEB_CONCURRENCY`: how many worker processes `npm start` runs on this machine (1: no workers). */
  webConcurrency: number;
  /** `SMTP_URL`, `MAIL_FROM`, `MAIL_TIMEOUT_MS`: how mail is sent. */
  mail: MailConfig;
  /** `RATE_LIMITS`: the limits that differ from the defaults. */
  rateLimits: Partial<Record<LimitName, LimitSpec>>;
  /** `CONTACT_TO`: who receives contact-form messages. */
  contactRecipient: string;
  /**
   * `CERTIFICATE_SIGNING_KEY`: the Ed25519 private JWK (JSON) certificates are signed with; `null` uses
   * the key kept in `<dataDir>/certificate-signing-key.json`, created on first start.
   */
  certificateSigningKey: string | null;
  /** `STRIPE_SECRET_KEY`, `STRIPE_WEBHOOK_SECRET`: payments go through Stripe when the key is set, else the embedded sandbox. */
  stripe: StripeSettings;
  /** `PASSWORD_HASH_COST`: log2 of scrypt's N for new password hashes (15; stored hashes keep theirs). */
  passwordHashCost: number;
  /** `SANDBOX_LATENCY_MS`: how long each charge of the embedded sandbox takes, as a network would (0 by default). */
  sandboxLatencyMs: number;
  /** `BOOK_PDF_MAX_MB`: the largest book PDF staff may upload, in bytes (5 MB by default). */
  bookPdfMaxBytes: number;
  /** `METRICS_TOKEN`, `METRICS_PORT`, `METRICS_HOST`: where `/metrics` is answered (nowhere when neither is set). */
  metrics: MetricsSettings;
  /** `STORAGE`, `STORAGE_DIR`, `S3_*`: where stored files live (the folder `<DATA_DIR>/files` by default). */
  storage: StorageSettings;
  /** `VIDEO_UPLOAD_MAX_BYTES`, `VIDEO_WORKER`: the largest video upload, and whether this process converts queued videos. */
  video: VideoSettings;
}

export interface VideoSettings {
  /** The largest video file an editor may upload (bytes; 2 GiB by default). */
  uploadMaxBytes: number;
  /** This process claims queued videos and runs ffmpeg on them (`VIDEO_WORKER=0`: another process does). */
  worker: boolean;
}

/** `VIDEO_UPLOAD_MAX_BYTES`: a whole number of bytes from 1 MiB to 50 GiB. */
function readVideoUploadMax(raw: string | undefined): number {
  const text = raw?.trim() ?? '';
  if (text === '') return 2 * 1024 ** 3;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1024 ** 2 || n > 50 * 1024 ** 3) throw new ConfigError('VIDEO_UPLOAD_MAX_BYTES must be a whole number of bytes from 1048576 (1 MiB) to 53687091200 (50 GiB), or unset for 2 GiB.');
  return n;
}

/** `VIDEO_WORKER`: 1 (default) or 0. */
function readVideoWorker(raw: string | undefined): boolean {
  const text = raw?.trim() ?? '';
  if (text === '' || text === '1' || text === 'true') return true;
  if (text === '0' || text === 'false') return false;
  throw new ConfigError('VIDEO_WORKER must be 1 (this process converts uploaded videos) or 0 (another process does), or unset.');
}

/** One variable: its raw text through `read`, whose `ConfigError` becomes an issue (every bad variable is reported). */
function variable<T>(read: (raw: string | undefined) => T) {
  return z
    .string()
    .optional()
    .transform((raw, ctx): T => {
      try {
        return read(raw);
      } catch (err) {
        if (!(err instanceof ConfigError)) throw err;
        ctx.addIssue({ code: 'custom', message: err.message });
        return z.NEVER;
      }
    });
}

/** A free-text variable: trimmed, `fallback` when unset or blank. */
const text = (fallback: string) => variable((raw) => raw?.trim() || fallback);

/** Every variable the academy reads, each with the setting it becomes. */
const envSchema = z
  .object({
    PORT: variable(readPort),
    HOST: text('0.0.0.0'),
    DATABASE_URL: variable(readDatabaseUrl),
    DATA_DIR: text('./data'),
    MEDIA_DIR: text('./media'),
    DIST_DIR: variable(readDistDir),
    NODE_ENV: variable((raw) => raw?.trim() === 'production'),
    DEBUG: variable(readDebug),
    ACADEMY_PREPARING: variable(readPreparing),
    PUBLIC_URL: variable(readPublicUrl),
    ALLOWED_HOSTS: variable(readAllowedHosts),
    TRUST_PROXY: variable(readTrustProxy),
    LOG_LEVEL: variable(readLogLevel),
    REDIS_URL: variable(readRedisUrl),
    WEB_CONCURRENCY: variable(readWebConcurrency),
    RATE_LIMITS: variable(readRateLimits),
    FORGOT_PASSWORD_URL: variable(readForgotPasswordUrl),
    SMTP_URL: variable(readSmtpUrl),
    MAIL_FROM: variable(readMailFrom),
    MAIL_TIMEOUT_MS: variable(readMailTimeout),
    CONTACT_TO: variable(readContactTo),
    CERTIFICATE_SIGNING_KEY: variable(readCertificateSigningKey),
    STRIPE_SECRET_KEY: variable(readStripeSecretKey),
    STRIPE_WEBHOOK_SECRET: variable(readStripeWebhookSecret),
    SANDBOX_LATENCY_MS: variable(readSandboxLatency),
    BOOK_PDF_MAX_MB: variable(readBookPdfMax),
    PASSWORD_HASH_COST: variable(readPasswordHashCost),
    METRICS_TOKEN: variable(readMetricsToken),
    METRICS_PORT: variable(readMetricsPort),
    METRICS_HOST: text('127.0.0.1'),
    STORAGE: variable(readStorageKind),
    STORAGE_DIR: variable(readStorageDir),
    S3_BUCKET: variable(readS3Bucket),
    S3_ENDPOINT: variable(readS3Endpoint),
    S3_REGION: variable(readS3Region),
    S3_ACCESS_KEY_ID: variable(readS3Secret('S3_ACCESS_KEY_ID')),
    S3_SECRET_ACCESS_KEY: variable(readS3Secret('S3_SECRET_ACCESS_KEY')),
    S3_FORCE_PATH_STYLE: variable(readS3ForcePathStyle),
    VIDEO_UPLOAD_MAX_BYTES: variable(readVideoUploadMax),
    VIDEO_WORKER: variable(readVideoWorker),
  })
  .transform((e, ctx): AppConfig => {
    // The settings that need two variables.
    if (e.STRIPE_WEBHOOK_SECRET !== null && e.STRIPE_SECRET_KEY === null) {
      ctx.addIssue({ code: 'custom', message: 'STRIPE_WEBHOOK_SECRET is set without STRIPE_SECRET_KEY: set the secret key too to take payments through Stripe, or unset both to use the embedded sandbox.' });
    }
    if (e.METRICS_PORT !== null && e.METRICS_PORT === e.PORT) {
      ctx.addIssue({ code: 'custom', message: `METRICS_PORT ${e.METRICS_PORT} is the site's PORT: choose another port for the metrics, or unset METRICS_PORT and set METRICS_TOKEN.` });
    }
    const storage = storageSettings(
      {
        kind: e.STORAGE,
        dir: e.STORAGE_DIR,
        bucket: e.S3_BUCKET,
        endpoint: e.S3_ENDPOINT,
        region: e.S3_REGION,
        accessKeyId: e.S3_ACCESS_KEY_ID,
        secretAccessKey: e.S3_SECRET_ACCESS_KEY,
        forcePathStyle: e.S3_FORCE_PATH_STYLE,
      },
      e.DATA_DIR,
    );
    if ('problems' in storage) {
      for (const message of storage.problems) ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return {
      port: e.PORT,
      host: e.HOST,
      databaseUrl: e.DATABASE_URL,
      dataDir: e.DATA_DIR,
      mediaDir: e.MEDIA_DIR,
      production: e.NODE_ENV,
      debug: e.DEBUG,
      distDir: e.DIST_DIR,
      preparing: e.ACADEMY_PREPARING,
      forgotPasswordUrl: e.FORGOT_PASSWORD_URL,
      origin: { publicUrl: e.PUBLIC_URL, allowedHosts: e.ALLOWED_HOSTS, port: e.PORT },
      trustProxy: e.TRUST_PROXY,
      logLevel: e.LOG_LEVEL,
      redisUrl: e.REDIS_URL,
      webConcurrency: e.WEB_CONCURRENCY,
      mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM, outboxDir: join(e.DATA_DIR, 'outbox'), timeoutMs: e.MAIL_TIMEOUT_MS },
      rateLimits: e.RATE_LIMITS,
      contactRecipient: e.CONTACT_TO,
      certificateSigningKey: e.CERTIFICATE_SIGNING_KEY,
      stripe: { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET },
      sandboxLatencyMs: e.SANDBOX_LATENCY_MS,
      bookPdfMaxBytes: e.BOOK_PDF_MAX_MB,
      passwordHashCost: e.PASSWORD_HASH_COST,
      metrics: { token: e.METRICS_TOKEN, port: e.METRICS_PORT, host: e.METRICS_HOST },
      storage: storage.settings,
      video: { uploadMaxBytes: e.VIDEO_UPLOAD_MAX_BYTES, worker: e.VIDEO_WORKER },
    };
  });

/**
 * Reads and validates the configuration. On bad input throws one `ConfigError` whose message has one
 * fix-it sentence per problem (one per line), each naming its variable.
 */
export function readConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((i) => i.message).join('\n'));
  return parsed.data;
}

/**
 * `DEBUG` alone, for the one moment no configuration exists: a failure to read the rest (the failure
 * printer asks whether to add the stack trace). Never throws.
 */
export function debugWanted(env: Record<string, string | undefined> = process.env): boolean {
  return readDebug(env.DEBUG);
}

/**
 * The environment a child process of the academy's own starts with: this process's, plus `extra`
 * (the tools `pg_dump` and `tar`, which need `PATH` and `PGPASSWORD`; the process that seeds a new
 * database, which reads its configuration as this one did).
 */
export function childEnvironment(extra: Record<string, string> = {}): Record<string, string | undefined> {
  return { ...process.env, ...extra };
}
