/**
 * One reader per environment variable: each takes the raw value (`undefined` when unset) and returns
 * the setting, or throws `ConfigError` with one sentence naming the variable, saying what is wrong and
 * how to fix it. The schema in `config.ts` applies them; the ones that need two variables (Stripe's
 * webhook secret, the metrics port, the mail outbox) are combined there. Pure.
 */
import { z } from '../zod';
import { site } from '../site';
import { ConfigError, quoted } from './error';
import { DEFAULT_ALLOWED_HOSTS, validHostPattern } from './hosts';
import { parseRateLimits, type LimitName, type LimitSpec } from './rate-limits';

/** A value that is unset or blank. */
const blank = (raw: string | undefined): raw is undefined => raw === undefined || raw.trim() === '';

/** An absolute URL with one of `protocols` and a host. */
const urlOf = (...protocols: string[]) =>
  z
    .string()
    .trim()
    .refine((v) => URL.canParse(v) && protocols.includes(new URL(v).protocol) && new URL(v).hostname !== '');

const postgresUrl = urlOf('postgres:', 'postgresql:');
const redisUrl = urlOf('redis:', 'rediss:');
const smtpUrl = urlOf('smtp:', 'smtps:');

/** A bare address or a `Name <address>` pair. */
const fromAddress = z
  .string()
  .trim()
  .refine((v) => {
    const address = /<([^<>]+)>\s*$/.exec(v)?.[1] ?? v;
    return z.email().safeParse(address.trim()).success && !/[\r\n]/.test(v);
  });

/** The levels `LOG_LEVEL` accepts, from fewest lines to most (`silent`: none). */
export const LOG_LEVELS = ['silent', 'fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Reads `LOG_LEVEL` (default `info`: one line per request and every unexpected error). */
export function readLogLevel(raw: string | undefined): LogLevel {
  const text = raw?.trim().toLowerCase() ?? '';
  if (text === '') return 'info';
  if ((LOG_LEVELS as readonly string[]).includes(text)) return text as LogLevel;
  throw new ConfigError(`LOG_LEVEL ${quoted(raw)} is not a log level: use one of ${LOG_LEVELS.join(', ')} (default info), or unset it.`);
}

/** `text` as an http(s) URL, or `null` when it is not one. */
function webAddress(text: string): URL | null {
  if (!URL.canParse(text)) return null;
  const url = new URL(text);
  return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
}

/** Reads `PORT` (default 4321). */
export function readPort(raw: string | undefined): number {
  const portText = raw?.trim() || '4321';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`PORT ${quoted(raw)} is not a port number: set PORT to a whole number from 1 to 65535 (default 4321).`);
  }
  return port;
}

/** Reads `PUBLIC_URL`: the site's public origin (`https://academy.example`), or `null` when unset. */
export function readPublicUrl(raw: string | undefined): string | null {
  const text = raw?.trim();
  if (!text) return null;
  const url = webAddress(text);
  if (!url || url.username || url.password || url.search || url.hash || url.pathname !== '/') {
    throw new ConfigError(`PUBLIC_URL ${quoted(text)} is not a site address: use the scheme and host only, like https://academy.example, or unset it.`);
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
      `ALLOWED_HOSTS ${quoted(text)} is not a list of host names: use names separated by commas, like academy.example,www.academy.example,localhost (a name allows any port; name:port one port; *.domain its subdomains).`,
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
    `TRUST_PROXY ${quoted(raw)} is not a yes or no: set TRUST_PROXY=1 only when a reverse proxy in front sets X-Forwarded-Proto (and X-Forwarded-For) itself, or unset it.`,
  );
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
    throw new ConfigError(`WEB_CONCURRENCY ${quoted(raw)} is not a number of processes: use a whole number from 1 to 64 (about one per CPU core), or unset it for one process.`);
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

/** Reads `DATABASE_URL`: a PostgreSQL URL, or `null` (unset or blank) for the embedded database in `DATA_DIR`. */
export function readDatabaseUrl(raw: string | undefined): string | null {
  if (blank(raw)) return null;
  if (!postgresUrl.safeParse(raw).success) {
    throw new ConfigError('DATABASE_URL is not a PostgreSQL URL: use postgres://user:password@host:5432/database, or unset it to use the embedded database in ./data.');
  }
  return raw.trim();
}

/**
 * Reads `FORGOT_PASSWORD_URL`: the login page's forgot-password link goes there when it is set (the
 * original product sent people to an external site), otherwise (`null`) to the academy's own reset page.
 */
export function readForgotPasswordUrl(raw: string | undefined): string | null {
  if (blank(raw)) return null;
  const url = webAddress(raw.trim());
  if (!url) {
    throw new ConfigError(`FORGOT_PASSWORD_URL ${quoted(raw.trim())} is not a web address: use https://…, or unset it to use the academy's own password reset by e-mail.`);
  }
  return url.href;
}

const STRIPE_SECRET_KEY = /^(sk|rk)_(test|live)_[A-Za-z0-9]{8,}$/;
const STRIPE_WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/=]{8,}$/;

/** Reads `STRIPE_SECRET_KEY` (`sk_test_…`, `sk_live_…` or a restricted `rk_…`), or `null`: the embedded sandbox. Never quoted. */
export function readStripeSecretKey(raw: string | undefined): string | null {
  if (blank(raw)) return null;
  if (!STRIPE_SECRET_KEY.test(raw.trim())) {
    throw new ConfigError(
      'STRIPE_SECRET_KEY is not a Stripe secret key: copy the key starting with sk_test_ (or sk_live_) from the Stripe dashboard (Developers → API keys), or unset it to use the embedded sandbox.',
    );
  }
  return raw.trim();
}

/** Reads `STRIPE_WEBHOOK_SECRET` (`whsec_…`), or `null`: the endpoint `/api/stripe/webhook` is off. Never quoted. */
export function readStripeWebhookSecret(raw: string | undefined): string | null {
  if (blank(raw)) return null;
  if (!STRIPE_WEBHOOK_SECRET.test(raw.trim())) {
    throw new ConfigError(
      'STRIPE_WEBHOOK_SECRET is not a webhook signing secret: copy the secret starting with whsec_ of the endpoint /api/stripe/webhook (Stripe dashboard → Webhooks, or `stripe listen`), or unset it.',
    );
  }
  return raw.trim();
}

/** The scrypt cost new password hashes get by default: N = 2^15 (about 0.1 s of one core each). */
export const DEFAULT_PASSWORD_HASH_COST = 15;

/**
 * Reads `PASSWORD_HASH_COST`: log2 of scrypt's N for new password hashes, 10 to 20 (15 by default).
 * Hashes already stored keep the cost they were made with. Lower only where speed matters more than
 * guessing resistance (the test suites use 10).
 */
export function readPasswordHashCost(raw: string | undefined): number {
  const text = raw?.trim() ?? '';
  if (text === '') return DEFAULT_PASSWORD_HASH_COST;
  const cost = Number(text);
  if (!/^\d+$/.test(text) || cost < 10 || cost > 20) throw new ConfigError('PASSWORD_HASH_COST must be a whole number from 10 to 20 (log2 of the scrypt cost of new password hashes; 15 by default), or unset.');
  return cost;
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

/** Reads `METRICS_TOKEN`, or `null`. The message never quotes it. */
export function readMetricsToken(raw: string | undefined): string | null {
  if (blank(raw)) return null;
  if (!METRICS_TOKEN.test(raw.trim())) {
    throw new ConfigError('METRICS_TOKEN is not a usable token: use 16 or more letters, digits or symbols without spaces (for example the output of `openssl rand -hex 32`), or unset it.');
  }
  return raw.trim();
}

/** Reads `METRICS_PORT`: a port of its own for `/metrics`, or `null` (that it differs from `PORT` is checked with both). */
export function readMetricsPort(raw: string | undefined): number | null {
  if (blank(raw)) return null;
  const text = raw.trim();
  const port = Number(text);
  if (!/^\d+$/.test(text) || port < 1 || port > 65535) {
    throw new ConfigError(`METRICS_PORT ${quoted(raw)} is not a port number: set a whole number from 1 to 65535 other than PORT, or unset it.`);
  }
  return port;
}

/** Reads `SMTP_URL`: `smtp://…` or `smtps://…`, or `null` to write every message to the outbox folder. */
export function readSmtpUrl(raw: string | undefined): string | null {
  if (blank(raw)) return null;
  if (!smtpUrl.safeParse(raw).success) {
    throw new ConfigError('SMTP_URL is not an SMTP URL: use smtp://user:password@host:587 or smtps://user:password@host:465, or unset it to write mail to <DATA_DIR>/outbox.');
  }
  return raw.trim();
}

/** The From header used when `MAIL_FROM` is not set. */
export const DEFAULT_FROM = `${site.name} <${site.email}>`;

/** Reads `MAIL_FROM`: a bare address or a `Name <address>` pair (default `DEFAULT_FROM`). */
export function readMailFrom(raw: string | undefined): string {
  if (blank(raw)) return DEFAULT_FROM;
  if (!fromAddress.safeParse(raw).success) throw new ConfigError(`MAIL_FROM ${quoted(raw)} is not an e-mail address: use name@example.com or "Name <name@example.com>".`);
  return raw.trim();
}

/** Reads `MAIL_TIMEOUT_MS`: give up on an unresponsive SMTP server after this long (default 15 s). */
export function readMailTimeout(raw: string | undefined): number {
  if (blank(raw)) return 15_000;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 100) {
    throw new ConfigError(`MAIL_TIMEOUT_MS ${quoted(raw)} is not a number of milliseconds: use a whole number of at least 100 (default 15000).`);
  }
  return ms;
}

/** Reads `CONTACT_TO`: who receives contact-form messages (default: the company's address). */
export function readContactTo(raw: string | undefined): string {
  if (blank(raw)) return site.email;
  const to = raw.trim();
  if (!z.email().safeParse(to).success) {
    throw new ConfigError(`CONTACT_TO ${quoted(to)} is not an e-mail address: set it to the address that receives contact messages, or unset it to use ${site.email}.`);
  }
  return to;
}

/** Reads `RATE_LIMITS` (see `parseRateLimits`): the limits that differ from the defaults. */
export function readRateLimits(raw: string | undefined): Partial<Record<LimitName, LimitSpec>> {
  return parseRateLimits(raw);
}

/**
 * Reads `DEBUG`: stack traces after a failure's one line. Any value but empty, `0`, `false`, `no` or
 * `off` turns it on (other tools read `DEBUG` as a list of names, so no value is refused).
 */
export function readDebug(raw: string | undefined): boolean {
  return !['', '0', 'false', 'no', 'off'].includes(raw?.trim().toLowerCase() ?? '');
}

/** Reads `DIST_DIR`: the built site's folder, relative to the project (default `dist`; a test build can live beside it). */
export function readDistDir(raw: string | undefined): string {
  const text = raw?.trim() ?? '';
  if (text === '') return 'dist';
  if (/[\0\r\n]/.test(text)) throw new ConfigError('DIST_DIR is not a folder name: give the folder `npm run build` wrote (default dist), or unset it.');
  return text;
}

/**
 * Reads `ACADEMY_PREPARING`: set to `1` by the server for the short-lived process that creates and
 * seeds a new embedded database. Not meant to be set by hand; only `1` means yes.
 */
export function readPreparing(raw: string | undefined): boolean {
  return raw?.trim() === '1';
}

/** The largest book PDF staff may upload, by default (5 MB: the largest request an action reads, `security.actionBodySizeLimit`). */
export const BOOK_PDF_DEFAULT_MB = 5;

/** Reads `BOOK_PDF_MAX_MB` (whole megabytes, 1 to 5) as bytes; unset: 5 MB. */
export function readBookPdfMax(raw: string | undefined): number {
  const text = raw?.trim() ?? '';
  if (text === '') return BOOK_PDF_DEFAULT_MB * 1024 * 1024;
  const mb = Number(text);
  if (!/^\d+$/.test(text) || mb < 1 || mb > BOOK_PDF_DEFAULT_MB) {
    throw new ConfigError(`BOOK_PDF_MAX_MB must be a whole number of megabytes from 1 to ${BOOK_PDF_DEFAULT_MB} (the largest book PDF staff may upload; a larger one needs security.actionBodySizeLimit raised in astro.config.mjs), or unset.`);
  }
  return mb * 1024 * 1024;
}
