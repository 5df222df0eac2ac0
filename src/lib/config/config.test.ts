import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { ConfigError, debugWanted, readCertificateSigningKey, readConfig } from './config';
import { LIMITS } from './rate-limits';
import { DEFAULT_FROM } from './settings';
import { site } from '../site';

describe('readConfig', () => {
  it('defaults to port 4321 and the embedded database in ./data', () => {
    expect(readConfig({})).toMatchObject({ port: 4321, databaseUrl: null, dataDir: './data', mediaDir: './media', production: false });
  });

  it('accepts a PostgreSQL URL and a port', () => {
    const c = readConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test', PORT: '8080' });
    expect(c.databaseUrl).toBe('postgres://postgres@127.0.0.1:5432/test');
    expect(c.port).toBe(8080);
  });

  it('treats an empty DATABASE_URL as unset', () => {
    expect(readConfig({ DATABASE_URL: '  ' }).databaseUrl).toBeNull();
  });

  it.each(['mysql://x@h/db', 'postgres://', 'not a url', 'postgres:/nohost', 'http://db:5432/x'])('refuses DATABASE_URL=%s with a fix-it sentence', (url) => {
    expect(() => readConfig({ DATABASE_URL: url })).toThrow(ConfigError);
    expect(() => readConfig({ DATABASE_URL: url })).toThrow(/DATABASE_URL is not a PostgreSQL URL: use postgres:\/\//);
  });

  it.each(['abc', '-1', '70000', '80.5'])('refuses PORT=%s', (port) => {
    expect(() => readConfig({ PORT: port })).toThrow(/PORT .* is not a port number/);
  });
});

describe('identity settings', () => {
  it('uses the academy’s own password reset unless FORGOT_PASSWORD_URL is set', () => {
    expect(readConfig({}).forgotPasswordUrl).toBeNull();
    expect(readConfig({ FORGOT_PASSWORD_URL: ' ' }).forgotPasswordUrl).toBeNull();
    expect(readConfig({ FORGOT_PASSWORD_URL: 'https://accounts.example.com/forgot' }).forgotPasswordUrl).toBe('https://accounts.example.com/forgot');
  });

  it.each(['javascript:alert(1)', 'not a url', 'ftp://x.example/'])('refuses FORGOT_PASSWORD_URL=%s', (url) => {
    expect(() => readConfig({ FORGOT_PASSWORD_URL: url })).toThrow(/FORGOT_PASSWORD_URL .* is not a web address/);
  });

  it('reads LOG_LEVEL (default info, silent allowed) and explains a bad one', () => {
    expect(readConfig({}).logLevel).toBe('info');
    expect(readConfig({ LOG_LEVEL: ' Silent ' }).logLevel).toBe('silent');
    expect(readConfig({ LOG_LEVEL: 'debug' }).logLevel).toBe('debug');
    expect(() => readConfig({ LOG_LEVEL: 'verbose' })).toThrow(/LOG_LEVEL "verbose" is not a log level: use one of silent, fatal, error, warn, info, debug, trace/);
  });
});

describe('public origin and proxy settings', () => {
  it('needs no PUBLIC_URL: this machine’s names are allowed, the fallback is localhost on PORT, no proxy is trusted', () => {
    expect(readConfig({ PORT: '8080' })).toMatchObject({
      origin: { publicUrl: null, allowedHosts: ['localhost', '127.0.0.1', '[::1]'], port: 8080 },
      trustProxy: false,
    });
  });

  it('reads PUBLIC_URL as an origin, and ALLOWED_HOSTS as a list', () => {
    const c = readConfig({ PUBLIC_URL: 'https://Academy.example/', ALLOWED_HOSTS: 'academy.example, www.academy.example:8443,*.cdn.example' });
    expect(c.origin.publicUrl).toBe('https://academy.example');
    expect(c.origin.allowedHosts).toEqual(['academy.example', 'www.academy.example:8443', '*.cdn.example']);
  });

  it.each(['ftp://academy.example', 'academy.example', 'https://academy.example/academy', 'https://user@academy.example'])('refuses PUBLIC_URL=%s', (url) => {
    expect(() => readConfig({ PUBLIC_URL: url })).toThrow(/PUBLIC_URL .* is not a site address: use the scheme and host only/);
  });

  it.each(['https://academy.example', 'a/b', ' , ', 'bad host'])('refuses ALLOWED_HOSTS=%s', (hosts) => {
    expect(() => readConfig({ ALLOWED_HOSTS: hosts })).toThrow(/ALLOWED_HOSTS .* is not a list of host names/);
  });

  it.each([
    ['1', true],
    ['true', true],
    ['YES', true],
    ['0', false],
    ['', false],
    ['no', false],
  ])('reads TRUST_PROXY=%s as %s', (value, expected) => {
    expect(readConfig({ TRUST_PROXY: value }).trustProxy).toBe(expected);
  });

  it('refuses a TRUST_PROXY that is not a yes or no', () => {
    expect(() => readConfig({ TRUST_PROXY: 'maybe' })).toThrow(ConfigError);
    expect(() => readConfig({ TRUST_PROXY: '10.0.0.1' })).toThrow(/TRUST_PROXY .* is not a yes or no: set TRUST_PROXY=1 only when a reverse proxy/);
  });
});

describe('certificate signing key', () => {
  const jwk = { kty: 'OKP', crv: 'Ed25519', d: 'nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' };

  it('is unset by default (the key is kept in DATA_DIR)', () => {
    expect(readConfig({}).certificateSigningKey).toBeNull();
    expect(readConfig({ CERTIFICATE_SIGNING_KEY: '  ' }).certificateSigningKey).toBeNull();
  });

  it('reads a JSON Ed25519 private JWK', () => {
    expect(readConfig({ CERTIFICATE_SIGNING_KEY: JSON.stringify(jwk) }).certificateSigningKey).toBe(JSON.stringify(jwk));
  });

  it.each([
    ['not JSON', 'secret'],
    ['a public key only', JSON.stringify({ kty: 'OKP', crv: 'Ed25519', x: jwk.x })],
    ['another curve', JSON.stringify({ ...jwk, crv: 'X25519' })],
    ['a short d', JSON.stringify({ ...jwk, d: 'abc' })],
    ['an array', '[]'],
  ])('refuses %s with a fix-it sentence that never quotes the value', (_what, value) => {
    expect(() => readCertificateSigningKey(value)).toThrow(ConfigError);
    expect(() => readConfig({ CERTIFICATE_SIGNING_KEY: value })).toThrow(/CERTIFICATE_SIGNING_KEY is not an Ed25519 private key/);
    try {
      readCertificateSigningKey(value);
    } catch (err) {
      if (value.length > 5) expect((err as Error).message).not.toContain(value);
    }
  });
});

describe('Stripe settings', () => {
  const key = 'sk_test_51AbCdEfGhIjKlMnOp';
  const whsec = 'whsec_AbCdEfGh12345678';

  it('uses the embedded sandbox unless STRIPE_SECRET_KEY is set', () => {
    expect(readConfig({}).stripe).toEqual({ secretKey: null, webhookSecret: null });
    expect(readConfig({ STRIPE_SECRET_KEY: ' ', STRIPE_WEBHOOK_SECRET: '' }).stripe).toEqual({ secretKey: null, webhookSecret: null });
    expect(readConfig({ STRIPE_SECRET_KEY: key, STRIPE_WEBHOOK_SECRET: whsec }).stripe).toEqual({ secretKey: key, webhookSecret: whsec });
    expect(readConfig({ STRIPE_SECRET_KEY: 'sk_live_51AbCdEfGhIjKlMnOp' }).stripe.secretKey).toBe('sk_live_51AbCdEfGhIjKlMnOp');
  });

  it.each(['pk_test_51AbCdEfGhIjKlMnOp', 'sk_test_short', 'mysecretvalue', 'sk_prod_51AbCdEfGh'])('refuses STRIPE_SECRET_KEY=%s without quoting it', (value) => {
    expect(() => readConfig({ STRIPE_SECRET_KEY: value })).toThrow(/STRIPE_SECRET_KEY is not a Stripe secret key: copy the key starting with sk_test_/);
    expect(() => readConfig({ STRIPE_SECRET_KEY: value })).not.toThrow(value);
  });

  it('refuses a malformed webhook secret, and one without the key', () => {
    expect(() => readConfig({ STRIPE_SECRET_KEY: key, STRIPE_WEBHOOK_SECRET: 'abc' })).toThrow(/STRIPE_WEBHOOK_SECRET is not a webhook signing secret/);
    expect(() => readConfig({ STRIPE_WEBHOOK_SECRET: whsec })).toThrow(/STRIPE_WEBHOOK_SECRET is set without STRIPE_SECRET_KEY/);
  });
});

describe('sandbox latency', () => {
  it('is 0 unless set, takes whole milliseconds up to a minute, and refuses anything else with a sentence', () => {
    expect(readConfig({}).sandboxLatencyMs).toBe(0);
    expect(readConfig({ SANDBOX_LATENCY_MS: ' 400 ' }).sandboxLatencyMs).toBe(400);
    for (const bad of ['-1', '1.5', 'fast', '60001']) expect(() => readConfig({ SANDBOX_LATENCY_MS: bad })).toThrow(/SANDBOX_LATENCY_MS must be a whole number/);
  });
});

describe('book PDF size limit', () => {
  it('is 5 MB unless set, takes whole megabytes from 1 to 5, and refuses anything else with a sentence', () => {
    expect(readConfig({}).bookPdfMaxBytes).toBe(5 * 1024 * 1024);
    expect(readConfig({ BOOK_PDF_MAX_MB: ' 2 ' }).bookPdfMaxBytes).toBe(2 * 1024 * 1024);
    for (const bad of ['0', '6', '1.5', 'big', '-1']) expect(() => readConfig({ BOOK_PDF_MAX_MB: bad })).toThrow(/BOOK_PDF_MAX_MB must be a whole number of megabytes from 1 to 5/);
  });
});

describe('password hash cost', () => {
  it('reads the cost of new password hashes (2^15 by default), 10 to 20', () => {
    expect(readConfig({}).passwordHashCost).toBe(15);
    expect(readConfig({ PASSWORD_HASH_COST: ' 12 ' }).passwordHashCost).toBe(12);
    for (const bad of ['9', '21', '1.5', 'high']) expect(() => readConfig({ PASSWORD_HASH_COST: bad })).toThrow(/PASSWORD_HASH_COST must be a whole number from 10 to 20/);
  });
});

describe('metrics settings', () => {
  it('keeps the metrics off unless METRICS_TOKEN or METRICS_PORT is set; the port listens on this machine only by default', () => {
    expect(readConfig({}).metrics).toEqual({ token: null, port: null, host: '127.0.0.1' });
    expect(readConfig({ METRICS_TOKEN: ' metrics-token-0123456789 ' }).metrics).toEqual({ token: 'metrics-token-0123456789', port: null, host: '127.0.0.1' });
    expect(readConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' }).metrics).toEqual({ token: null, port: 9464, host: '0.0.0.0' });
  });

  it.each(['short', 'has a space in it 0123', 'ñandú-ñandú-ñandú-ñandú'])('refuses METRICS_TOKEN=%s without quoting it', (value) => {
    expect(() => readConfig({ METRICS_TOKEN: value })).toThrow(/METRICS_TOKEN is not a usable token: use 16 or more/);
    expect(() => readConfig({ METRICS_TOKEN: value })).not.toThrow(value);
  });

  it('refuses a METRICS_PORT that is not a port, or is the site’s PORT', () => {
    for (const port of ['0', '70000', 'abc', '-1']) expect(() => readConfig({ METRICS_PORT: port })).toThrow(/METRICS_PORT ".*" is not a port number/);
    expect(() => readConfig({ METRICS_PORT: '4321' })).toThrow(/METRICS_PORT 4321 is the site's PORT/);
    expect(() => readConfig({ METRICS_PORT: '8080', PORT: '8080' })).toThrow(/is the site's PORT/);
  });
});

describe('rate limits', () => {
  it('keeps the defaults when RATE_LIMITS is unset or empty', () => {
    expect(readConfig({}).rateLimits).toEqual({});
    expect(readConfig({ RATE_LIMITS: '  ' }).rateLimits).toEqual({});
  });

  it('replaces the named limits only', () => {
    const { rateLimits } = readConfig({ RATE_LIMITS: 'loginPerAddress=500/900, registerPerAddress = 40/3600,couponGuessesPerAccount=3/600' });
    expect(rateLimits).toEqual({
      loginPerAddress: { points: 500, durationSeconds: 900 },
      registerPerAddress: { points: 40, durationSeconds: 3600 },
      couponGuessesPerAccount: { points: 3, durationSeconds: 600 },
    });
    expect(rateLimits.loginPerAccount ?? LIMITS.loginPerAccount).toEqual(LIMITS.loginPerAccount);
  });

  it.each(['nope=1/2', 'loginPerAdress=100/900', 'loginPerAddress', 'loginPerAddress=1', 'loginPerAddress=a/b', 'loginPerAddress=0/60', 'loginPerAddress=5/0', 'toString=1/1'])(
    'refuses RATE_LIMITS=%s at start with a fix-it sentence',
    (text) => {
      expect(() => readConfig({ RATE_LIMITS: text })).toThrow(ConfigError);
      expect(() => readConfig({ RATE_LIMITS: text })).toThrow(/^RATE_LIMITS ".*" is not a limit: use name=points\/seconds with a name among loginPerAccount, /);
    },
  );
});

describe('mail settings', () => {
  it('writes to <DATA_DIR>/outbox from the academy’s address unless SMTP_URL and MAIL_FROM say otherwise', () => {
    expect(readConfig({}).mail).toEqual({ smtpUrl: null, from: DEFAULT_FROM, outboxDir: join('./data', 'outbox'), timeoutMs: 15_000 });
    expect(DEFAULT_FROM).toBe(`${site.name} <${site.email}>`);
    expect(readConfig({ DATA_DIR: '/srv/academy', SMTP_URL: ' ', MAIL_FROM: '' }).mail).toMatchObject({ smtpUrl: null, from: DEFAULT_FROM, outboxDir: '/srv/academy/outbox' });
  });

  it('takes an smtp:// or smtps:// URL, a From address and a timeout', () => {
    const c = readConfig({ SMTP_URL: ' smtps://u:p@mail.example.com:465 ', MAIL_FROM: 'Academia <no-reply@example.com>', MAIL_TIMEOUT_MS: '5000' });
    expect(c.mail).toMatchObject({ smtpUrl: 'smtps://u:p@mail.example.com:465', from: 'Academia <no-reply@example.com>', timeoutMs: 5000 });
    expect(readConfig({ SMTP_URL: 'smtp://mail.example:587', MAIL_FROM: 'no-reply@example.com' }).mail).toMatchObject({ smtpUrl: 'smtp://mail.example:587', from: 'no-reply@example.com' });
  });

  it.each([
    ['SMTP_URL', 'http://mail.example.com', /^SMTP_URL is not an SMTP URL: use smtp:\/\//],
    ['SMTP_URL', 'not a url', /^SMTP_URL is not an SMTP URL/],
    ['MAIL_FROM', 'nobody', /^MAIL_FROM "nobody" is not an e-mail address/],
    ['MAIL_FROM', 'A <a@example.com>\r\nBcc: x@example.com', /^MAIL_FROM .* is not an e-mail address/],
    ['MAIL_TIMEOUT_MS', 'soon', /^MAIL_TIMEOUT_MS "soon" is not a number of milliseconds: use a whole number of at least 100/],
    ['MAIL_TIMEOUT_MS', '50', /^MAIL_TIMEOUT_MS "50" is not a number of milliseconds/],
  ])('refuses %s=%s with one line naming it', (name, value, message) => {
    expect(() => readConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => readConfig({ [name]: value })).toThrow(message);
    // A line break typed into the value is quoted escaped: the refusal stays one line.
    expect(() => readConfig({ [name]: value })).not.toThrow(/\n/);
  });
});

describe('contact recipient', () => {
  it('is CONTACT_TO when set, else the company e-mail', () => {
    expect(readConfig({}).contactRecipient).toBe(site.email);
    expect(readConfig({ CONTACT_TO: '  ' }).contactRecipient).toBe(site.email);
    expect(readConfig({ CONTACT_TO: ' ventas@example.com ' }).contactRecipient).toBe('ventas@example.com');
  });

  it('refuses a CONTACT_TO that is not an address, saying how to fix it', () => {
    expect(() => readConfig({ CONTACT_TO: 'nobody' })).toThrow(/^CONTACT_TO "nobody" is not an e-mail address: set it to the address that receives contact messages, or unset it/);
  });
});

describe('process settings', () => {
  it('is in production only when NODE_ENV=production', () => {
    expect(readConfig({}).production).toBe(false);
    expect(readConfig({ NODE_ENV: 'development' }).production).toBe(false);
    expect(readConfig({ NODE_ENV: 'test' }).production).toBe(false);
    expect(readConfig({ NODE_ENV: 'production' }).production).toBe(true);
  });

  it.each([
    [undefined, false],
    ['', false],
    ['0', false],
    ['off', false],
    ['1', true],
    ['academy:*', true],
  ])('reads DEBUG=%s as %s, also before the rest is read', (value, expected) => {
    expect(readConfig({ DEBUG: value }).debug).toBe(expected);
    // The failure printer asks for DEBUG alone, when the rest could not be read.
    expect(debugWanted({ DEBUG: value, PORT: 'bad' })).toBe(expected);
  });

  it('serves the built site from dist unless DIST_DIR names another build, and refuses a broken name', () => {
    expect(readConfig({}).distDir).toBe('dist');
    expect(readConfig({ DIST_DIR: ' ' }).distDir).toBe('dist');
    expect(readConfig({ DIST_DIR: ' dist-test ' }).distDir).toBe('dist-test');
    expect(() => readConfig({ DIST_DIR: 'dist\nother' })).toThrow(/^DIST_DIR is not a folder name/);
  });

  it('knows the process that prepares a new database by ACADEMY_PREPARING=1 only', () => {
    expect(readConfig({}).preparing).toBe(false);
    expect(readConfig({ ACADEMY_PREPARING: '1' }).preparing).toBe(true);
    expect(readConfig({ ACADEMY_PREPARING: '0' }).preparing).toBe(false);
    expect(readConfig({ ACADEMY_PREPARING: 'yes' }).preparing).toBe(false);
  });

  it('keeps HOST, DATA_DIR, MEDIA_DIR and METRICS_HOST trimmed, with their defaults when blank', () => {
    expect(readConfig({ HOST: ' ', DATA_DIR: '', MEDIA_DIR: ' ', METRICS_HOST: '' })).toMatchObject({ host: '0.0.0.0', dataDir: './data', mediaDir: './media', metrics: { host: '127.0.0.1' } });
    expect(readConfig({ HOST: ' 127.0.0.1 ', DATA_DIR: ' /srv/data ', MEDIA_DIR: '/srv/media' })).toMatchObject({ host: '127.0.0.1', dataDir: '/srv/data', mediaDir: '/srv/media' });
  });
});

describe('storage settings', () => {
  const s3 = { STORAGE: 's3', S3_BUCKET: 'academy-media', S3_ENDPOINT: 'http://127.0.0.1:9000/', S3_ACCESS_KEY_ID: 'minio', S3_SECRET_ACCESS_KEY: 'minio-secret' };

  it('keeps stored files in <DATA_DIR>/files unless STORAGE_DIR names a folder', () => {
    expect(readConfig({}).storage).toEqual({ kind: 'local', dir: join('./data', 'files') });
    expect(readConfig({ DATA_DIR: '/srv/data', STORAGE: ' Local ' }).storage).toEqual({ kind: 'local', dir: '/srv/data/files' });
    expect(readConfig({ STORAGE_DIR: ' /mnt/shared/files ' }).storage).toEqual({ kind: 'local', dir: '/mnt/shared/files' });
  });

  it('reads an S3-compatible store: path-style addresses by default with an endpoint, AWS S3 without one', () => {
    expect(readConfig(s3).storage).toEqual({
      kind: 's3',
      s3: { bucket: 'academy-media', endpoint: 'http://127.0.0.1:9000', region: 'us-east-1', accessKeyId: 'minio', secretAccessKey: 'minio-secret', forcePathStyle: true },
    });
    expect(readConfig({ STORAGE: 'S3', S3_BUCKET: 'academy', S3_REGION: 'eu-west-1' }).storage).toEqual({
      kind: 's3',
      s3: { bucket: 'academy', endpoint: null, region: 'eu-west-1', accessKeyId: null, secretAccessKey: null, forcePathStyle: false },
    });
    expect(readConfig({ ...s3, S3_FORCE_PATH_STYLE: 'no' }).storage).toMatchObject({ s3: { forcePathStyle: false } });
  });

  it('says in one sentence what STORAGE=s3 is missing, and how to go back to the folder', () => {
    expect(() => readConfig({ STORAGE: 's3' })).toThrow(
      /^STORAGE=s3 needs S3_BUCKET: set S3_BUCKET to the bucket's name \(and S3_ENDPOINT, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY for a store other than AWS S3, such as MinIO\), or unset STORAGE to keep stored files in the folder data\/files\.$/,
    );
    expect(() => readConfig({ ...s3, S3_SECRET_ACCESS_KEY: '' })).toThrow(/^S3_ACCESS_KEY_ID is set without S3_SECRET_ACCESS_KEY: set both/);
  });

  it('refuses S3 settings that would be ignored, and malformed values, without quoting a secret', () => {
    expect(() => readConfig({ S3_BUCKET: 'academy' })).toThrow(/^S3_BUCKET is set but STORAGE is not s3: set STORAGE=s3 to keep stored files in the bucket, or unset S3_BUCKET/);
    expect(() => readConfig({ STORAGE: 'ftp' })).toThrow(/^STORAGE "ftp" is not a kind of storage: use local/);
    expect(() => readConfig({ ...s3, S3_BUCKET: 'Academy_Media' })).toThrow(/^S3_BUCKET "Academy_Media" is not a bucket name/);
    expect(() => readConfig({ ...s3, S3_ENDPOINT: 'minio:9000' })).toThrow(/^S3_ENDPOINT "minio:9000" is not a store's address/);
    expect(() => readConfig({ ...s3, S3_FORCE_PATH_STYLE: 'maybe' })).toThrow(/^S3_FORCE_PATH_STYLE "maybe" is not a yes or no/);
    let message = '';
    try {
      readConfig({ ...s3, S3_SECRET_ACCESS_KEY: 'top secret value' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/^S3_SECRET_ACCESS_KEY is not a key/);
    expect(message).not.toContain('top secret');
  });
});

describe('several bad variables', () => {
  it('are refused together, one sentence a line, each naming its variable, whatever else is set', () => {
    let message = '';
    try {
      readConfig({ PORT: 'eighty', SMTP_URL: 'http://x', CONTACT_TO: 'nobody', RATE_LIMITS: 'x=1/1', UNRELATED: 'ignored' });
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      message = (err as Error).message;
    }
    const lines = message.split('\n');
    expect(lines).toHaveLength(4);
    expect(lines.map((l) => l.split(/[ "]/)[0])).toEqual(['PORT', 'RATE_LIMITS', 'SMTP_URL', 'CONTACT_TO']);
  });
});
