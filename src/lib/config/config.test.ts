import { describe, expect, it } from 'vitest';
import { ConfigError, readCertificateSigningKey, readConfig, readMetricsSettings, readStripeSettings } from './config';

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

  it('checks RATE_LIMITS at start', () => {
    expect(() => readConfig({ RATE_LIMITS: 'loginPerAddress=100/900' })).not.toThrow();
    expect(() => readConfig({ RATE_LIMITS: 'loginPerAdress=100/900' })).toThrow(ConfigError);
    expect(() => readConfig({ RATE_LIMITS: 'loginPerAddress=0/900' })).toThrow(/RATE_LIMITS .* is not a limit/);
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
    expect(readStripeSettings({ STRIPE_SECRET_KEY: 'sk_live_51AbCdEfGhIjKlMnOp' }).secretKey).toBe('sk_live_51AbCdEfGhIjKlMnOp');
  });

  it.each(['pk_test_51AbCdEfGhIjKlMnOp', 'sk_test_short', 'mysecretvalue', 'sk_prod_51AbCdEfGh'])('refuses STRIPE_SECRET_KEY=%s without quoting it', (value) => {
    expect(() => readStripeSettings({ STRIPE_SECRET_KEY: value })).toThrow(/STRIPE_SECRET_KEY is not a Stripe secret key: copy the key starting with sk_test_/);
    expect(() => readStripeSettings({ STRIPE_SECRET_KEY: value })).not.toThrow(value);
  });

  it('refuses a malformed webhook secret, and one without the key', () => {
    expect(() => readStripeSettings({ STRIPE_SECRET_KEY: key, STRIPE_WEBHOOK_SECRET: 'abc' })).toThrow(/STRIPE_WEBHOOK_SECRET is not a webhook signing secret/);
    expect(() => readStripeSettings({ STRIPE_WEBHOOK_SECRET: whsec })).toThrow(/STRIPE_WEBHOOK_SECRET is set without STRIPE_SECRET_KEY/);
  });
});

describe('sandbox latency', () => {
  it('is 0 unless set, takes whole milliseconds up to a minute, and refuses anything else with a sentence', () => {
    expect(readConfig({}).sandboxLatencyMs).toBe(0);
    expect(readConfig({ SANDBOX_LATENCY_MS: ' 400 ' }).sandboxLatencyMs).toBe(400);
    for (const bad of ['-1', '1.5', 'fast', '60001']) expect(() => readConfig({ SANDBOX_LATENCY_MS: bad })).toThrow(/SANDBOX_LATENCY_MS must be a whole number/);
  });
});

describe('metrics settings', () => {
  it('keeps the metrics off unless METRICS_TOKEN or METRICS_PORT is set; the port listens on this machine only by default', () => {
    expect(readConfig({}).metrics).toEqual({ token: null, port: null, host: '127.0.0.1' });
    expect(readMetricsSettings({ METRICS_TOKEN: ' metrics-token-0123456789 ' })).toEqual({ token: 'metrics-token-0123456789', port: null, host: '127.0.0.1' });
    expect(readMetricsSettings({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' })).toEqual({ token: null, port: 9464, host: '0.0.0.0' });
  });

  it.each(['short', 'has a space in it 0123', 'ñandú-ñandú-ñandú-ñandú'])('refuses METRICS_TOKEN=%s without quoting it', (value) => {
    expect(() => readMetricsSettings({ METRICS_TOKEN: value })).toThrow(/METRICS_TOKEN is not a usable token: use 16 or more/);
    expect(() => readMetricsSettings({ METRICS_TOKEN: value })).not.toThrow(value);
  });

  it('refuses a METRICS_PORT that is not a port, or is the site’s PORT', () => {
    for (const port of ['0', '70000', 'abc', '-1']) expect(() => readMetricsSettings({ METRICS_PORT: port })).toThrow(/METRICS_PORT ".*" is not a port number/);
    expect(() => readMetricsSettings({ METRICS_PORT: '4321' })).toThrow(/METRICS_PORT 4321 is the site's PORT/);
    expect(() => readMetricsSettings({ METRICS_PORT: '8080', PORT: '8080' })).toThrow(/is the site's PORT/);
  });
});
