/**
 * The Prometheus metrics: on the site's port only to the bearer of `METRICS_TOKEN` (without a token
 * `/metrics` is an unknown page there), and on `METRICS_PORT`'s own listener.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Runtime } from '../../src/lib/runtime/runtime.server';
import { bearerMatches } from '../../src/lib/http/bearer.server';
import { unexpectedErrorMessage, type ErrorLogEntry } from '../../src/lib/http/errors';
import { newRequestId } from '../../src/lib/http/errors.server';
import { hostAllowed } from '../../src/lib/http/public-origin';
import { messages } from '../../src/i18n';
import type { Metrics } from '../metrics';
import { answerLanguage, plainAnswer } from './answers';
import { settleForwardedHeaders } from './host';
import type { Handler } from './exchange';

type Config = Runtime['config'];
type MetricsAnswer = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>;

/** The Prometheus text to the bearer of the token (when one is set), else 401 with a sentence. */
export function metricsAnswer(config: Config, metrics: () => Metrics): MetricsAnswer {
  return async (req, res, url) => {
    const token = config.metrics.token;
    if (token !== null && !bearerMatches(req.headers.authorization, token)) {
      const locale = answerLanguage(req, url);
      res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
      plainAnswer(res, 401, messages(locale).metricsToken, locale);
      return;
    }
    const { registry } = metrics();
    const text = await registry.metrics();
    res.setHeader('Content-Type', registry.contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.end(text);
  };
}

/** Handler: `/metrics` on the site's port, when a token is set. */
export function metricsEndpoint(config: Config, answer: MetricsAnswer): Handler {
  return async ({ req, res, url }) => {
    if (url.pathname !== '/metrics' || config.metrics.token === null) return false;
    await answer(req, res, url);
    return true;
  };
}

/**
 * `METRICS_PORT`'s listener (the caller listens on it), or `null` without a port: `/metrics` and
 * nothing else, under the same Host check and, when `METRICS_TOKEN` is set, the same token.
 */
export function metricsListener(config: Config, answer: MetricsAnswer, logError: (entry: ErrorLogEntry) => void): Server | null {
  if (config.metrics.port === null) return null;
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const locale = answerLanguage(req, url);
    const host = settleForwardedHeaders(req, config.trustProxy);
    if (!hostAllowed(host, config.origin)) plainAnswer(res, 421, messages(locale).unknownHost, locale);
    else if (url.pathname !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) plainAnswer(res, 404, '404', locale);
    else
      answer(req, res, url).catch((err: unknown) => {
        logError({ requestId: newRequestId(), method: req.method ?? 'GET', path: url.pathname, error: err, where: 'metrics' });
        if (!res.headersSent) plainAnswer(res, 500, unexpectedErrorMessage(locale, '-'), locale);
        else res.end();
      });
  });
}
