/**
 * Runtime configuration read from the environment, validated once with zod.
 * Every problem becomes one clear sentence saying what is wrong and how to fix it.
 */
import { z } from '../zod';
import { parseRateLimits, type LimitName, type LimitSpec } from '../http/rate-limit';
import { readMailConfig, type MailConfig } from '../mail/mail';
import { contactRecipient } from '../contact/contact';
import { DEFAULT_ALLOWED_HOSTS, validHostPattern, type OriginSettings } from '../http/public-origin';
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
  ALLOWED_HOSTS: z.string().optional(),
  TRUST_PROXY: z.string().optional(),
  LOG_LEVEL: z.string().optional(),
  REDIS_URL: z.string().optional(),
  WEB_CONCURRENCY: z.string().optional(),
  CERTIFICATE_SIGNING_KEY: z.string().optional(),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  SANDBOX_LATENCY_MS: z.string().optional(),
  METRICS_TOKEN: z.string().optional(),
  METRICS_PORT: z.string().optional(),
  METRICS_HOST: z.string().optional(),
});

const redisUrl = z
  .string()
  .trim()
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'redis:' || u.protocol === 'rediss:') && u.hostname !== '';
    } catch {
      return false;
    }
  });

/** The levels `LOG_LEVEL` accepts, from fewest lines to most (`silent`: none). */
export const LOG_LEVELS = ['silent', 'fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Reads `LOG_LEVEL` (default `info`: one line per request and every unexpected error). */
export function readLogLevel(raw: string | undefined): LogLevel {
  const text = raw?.trim().toLowerCase() ?? '';
  if (text === '') return 'info';
  if ((LOG_LEVELS as readonly string[]).includes(text)) return text as LogLevel;
  throw new ConfigError(`LOG_LEVEL "${raw}" is not a log level: use one of ${LOG_LEVELS.join(', ')} (default info), or unset it.`);
}

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
  /** `SANDBOX_LATENCY_MS`: how long each charge of the embedded sandbox takes, as a network would (0 by default). */
  sandboxLatencyMs: number;
  /** `METRICS_TOKEN`, `METRICS_PORT`, `METRICS_HOST`: where `/metrics` is answered (nowhere when neither is set). */
  metrics: MetricsSettings;
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

/** `text` as an http(s) URL, or `null` when it is not one. */
function webAddress(text: string): URL | null {
  if (!URL.canParse(text)) return null;
  const url = new URL(text);
  return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
}

/**
 * Reads `FORGOT_PASSWORD_URL`: the login page's forgot-password link goes there when it is set (the
 * original product sent people to an external site), otherwise to the academy's own reset page.
 */
export function readForgotPasswordUrl(env: Record<string, string | undefined> = process.env): string | null {
  const raw = env.FORGOT_PASSWORD_URL?.trim();
  if (!raw) return null;
  const url = webAddress(raw);
  if (!url) {
    throw new ConfigError(
      `FORGOT_PASSWORD_URL "${raw}" is not a web address: use https://…, or unset it to use the academy's own password reset by e-mail.`,
    );
  }
  return url.href;
}

function readPort(raw: string | undefined): number {
  const portText = raw?.trim() || '4321';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`PORT "${raw}" is not a port number: set PORT to a whole number from 1 to 65535 (default 4321).`);
  }
  return port;
}

/** Reads `PUBLIC_URL`: the site's public origin (`https://academy.example`), or `null` when unset. */
export function readPublicUrl(raw: string | undefined): string | null {
  const text = raw?.trim();
  if (!text) return null;
  const url = webAddress(text);
  if (!url || url.username || url.password || url.search || url.hash || url.pathname !== '/') {
    throw new ConfigError(`PUBLIC_URL "${text}" is not a site address: use the scheme and host only, like https://academy.example, or unset it.`);
  }
  return url.origin;
}

/** Reads `ALLOWED_HOSTS` (comma-separated `name`, `name:port` or `*.domain`); unset: this machine only. */
export function readAllowedHosts(raw: string | undefined): string[] {
  const text = raw?.trim();
  if (!text) return [...DEFAULT_ALLOWED_HOSTS];
  const hosts = text.split(',').map((h) => h.trim().toLowerCase()).filter(Boolean);
  const bad = hosts.find((h) => !validHostPattern(h));
  if (bad !== undefined || hosts.length === 0) {
    throw new ConfigError(
      `ALLOWED_HOSTS "${text}" is not a list of host names: use names separated by commas, like academy.example,www.academy.example,localhost (a name allows any port; name:port one port; *.domain its subdomains).`,
    );
  }
  return hosts;
}

/** Reads `TRUST_PROXY`: `1`/`true`/`yes` behind a reverse proxy that sets the `X-Forwarded-*` headers itself. */
export function readTrustProxy(raw: string | undefined): boolean {
  const text = raw?.trim().toLowerCase() ?? '';
  if (['', '0', 'false', 'no', 'off'].includes(text)) return false;
  if (['1', 'true', 'yes', 'on'].includes(text)) return true;
  throw new ConfigError(
    `TRUST_PROXY "${raw}" is not a yes or no: set TRUST_PROXY=1 only when a reverse proxy in front sets X-Forwarded-Proto (and X-Forwarded-For) itself, or unset it.`,
  );
}

/** The settings of the public-origin rule: `PUBLIC_URL`, `ALLOWED_HOSTS` and `PORT`. */
export function readOriginSettings(env: Record<string, string | undefined> = process.env): OriginSettings {
  return { publicUrl: readPublicUrl(env.PUBLIC_URL), allowedHosts: readAllowedHosts(env.ALLOWED_HOSTS), port: readPort(env.PORT) };
}

/** Reads `REDIS_URL`: `redis://[user:password@]host:6379[/db]`, or `null` when unset. */
export function readRedisUrl(raw: string | undefined): string | null {
  if (raw === undefined || raw.trim() === '') return null;
  if (!redisUrl.safeParse(raw).success) {
    throw new ConfigError('REDIS_URL is not a Redis URL: use redis://host:6379 (or rediss:// for TLS), or unset it to keep rate limits and sockets in this process.');
  }
  return raw.trim();
}

/** Reads `WEB_CONCURRENCY`: a whole number of worker processes from 1 to 64 (default 1). */
export function readWebConcurrency(raw: string | undefined): number {
  const text = raw?.trim() ?? '';
  if (text === '') return 1;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > 64) {
    throw new ConfigError(`WEB_CONCURRENCY "${raw}" is not a number of processes: use a whole number from 1 to 64 (about one per CPU core), or unset it for one process.`);
  }
  return n;
}

/** Base64url of 32 bytes (an Ed25519 key half). */
const ED25519_PART = /^[A-Za-z0-9_-]{43}$/;

/**
 * Reads `CERTIFICATE_SIGNING_KEY`: a JSON Ed25519 private JWK (`{"kty":"OKP","crv":"Ed25519","d":"…","x":"…"}`),
 * or `null` when unset. Only its shape is checked here (that `x` belongs to `d` is checked when the
 * runtime loads it); the message never quotes the value, which is a secret.
 */
export function readCertificateSigningKey(raw: string | undefined): string | null {
  const text = raw?.trim() ?? '';
  if (text === '') return null;
  let jwk: unknown = null;
  try {
    jwk = JSON.parse(text);
  } catch {
    // Refused below.
  }
  const k = (typeof jwk === 'object' && jwk !== null ? jwk : {}) as Record<string, unknown>;
  if (k.kty !== 'OKP' || k.crv !== 'Ed25519' || typeof k.d !== 'string' || typeof k.x !== 'string' || !ED25519_PART.test(k.d) || !ED25519_PART.test(k.x)) {
    throw new ConfigError(
      'CERTIFICATE_SIGNING_KEY is not an Ed25519 private key: give the JSON private JWK {"kty":"OKP","crv":"Ed25519","d":"…","x":"…"} (the file certificate-signing-key.json in DATA_DIR holds one), or unset it to keep the key in DATA_DIR.',
    );
  }
  return text;
}

const STRIPE_SECRET_KEY = /^(sk|rk)_(test|live)_[A-Za-z0-9]{8,}$/;
const STRIPE_WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/=]{8,}$/;

/**
 * Reads `STRIPE_SECRET_KEY` and `STRIPE_WEBHOOK_SECRET`. Unset, payments use the embedded sandbox. The
 * webhook secret needs the key (events would name payments nobody made here). Messages never quote a value.
 */
export function readStripeSettings(env: Record<string, string | undefined> = process.env): StripeSettings {
  const secretKey = env.STRIPE_SECRET_KEY?.trim() || null;
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET?.trim() || null;
  if (secretKey !== null && !STRIPE_SECRET_KEY.test(secretKey)) {
    throw new ConfigError(
      'STRIPE_SECRET_KEY is not a Stripe secret key: copy the key starting with sk_test_ (or sk_live_) from the Stripe dashboard (Developers → API keys), or unset it to use the embedded sandbox.',
    );
  }
  if (webhookSecret !== null && !STRIPE_WEBHOOK_SECRET.test(webhookSecret)) {
    throw new ConfigError(
      'STRIPE_WEBHOOK_SECRET is not a webhook signing secret: copy the secret starting with whsec_ of the endpoint /api/stripe/webhook (Stripe dashboard → Webhooks, or `stripe listen`), or unset it.',
    );
  }
  if (webhookSecret !== null && secretKey === null) {
    throw new ConfigError('STRIPE_WEBHOOK_SECRET is set without STRIPE_SECRET_KEY: set the secret key too to take payments through Stripe, or unset both to use the embedded sandbox.');
  }
  return { secretKey, webhookSecret };
}

/** Reads `SANDBOX_LATENCY_MS`: a whole number of milliseconds up to a minute (demos, load and crash tests). */
export function readSandboxLatency(raw: string | undefined): number {
  const text = raw?.trim() ?? '';
  if (text === '') return 0;
  const ms = Number(text);
  if (!/^\d+$/.test(text) || ms > 60_000) throw new ConfigError('SANDBOX_LATENCY_MS must be a whole number of milliseconds from 0 to 60000 (how long each sandbox charge takes), or unset.');
  return ms;
}

/** A bearer token: 16 to 256 visible ASCII characters (no spaces). */
const METRICS_TOKEN = /^[\x21-\x7e]{16,256}$/;

/**
 * Reads `METRICS_TOKEN`, `METRICS_PORT` and `METRICS_HOST`. Neither the token nor the port set: the
 * metrics are off (`/metrics` is a page like any unknown one). Messages never quote the token.
 */
export function readMetricsSettings(env: Record<string, string | undefined> = process.env): MetricsSettings {
  const token = env.METRICS_TOKEN?.trim() || null;
  if (token !== null && !METRICS_TOKEN.test(token)) {
    throw new ConfigError('METRICS_TOKEN is not a usable token: use 16 or more letters, digits or symbols without spaces (for example the output of `openssl rand -hex 32`), or unset it.');
  }
  const portText = env.METRICS_PORT?.trim() ?? '';
  let port: number | null = null;
  if (portText !== '') {
    port = Number(portText);
    if (!/^\d+$/.test(portText) || port < 1 || port > 65535) {
      throw new ConfigError(`METRICS_PORT "${env.METRICS_PORT}" is not a port number: set a whole number from 1 to 65535 other than PORT, or unset it.`);
    }
    if (port === readPort(env.PORT)) throw new ConfigError(`METRICS_PORT ${port} is the site's PORT: choose another port for the metrics, or unset METRICS_PORT and set METRICS_TOKEN.`);
  }
  return { token, port, host: env.METRICS_HOST?.trim() || '127.0.0.1' };
}

/** Reads and validates the configuration; throws `ConfigError` with a fix-it sentence on bad input. */
export function readConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const e = envSchema.parse(env);
  const port = readPort(e.PORT);
  // Checked here so a malformed value stops the server at start, not the first login.
  const rateLimits = parseRateLimits(e.RATE_LIMITS);
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
    origin: readOriginSettings(env),
    trustProxy: readTrustProxy(e.TRUST_PROXY),
    logLevel: readLogLevel(e.LOG_LEVEL),
    redisUrl: readRedisUrl(e.REDIS_URL),
    webConcurrency: readWebConcurrency(e.WEB_CONCURRENCY),
    mail: readMailConfig(env),
    rateLimits,
    contactRecipient: contactRecipient(env),
    certificateSigningKey: readCertificateSigningKey(e.CERTIFICATE_SIGNING_KEY),
    stripe: readStripeSettings(env),
    sandboxLatencyMs: readSandboxLatency(e.SANDBOX_LATENCY_MS),
    metrics: readMetricsSettings(env),
  };
}
