/**
 * The server's Prometheus metrics (`/metrics`), in a registry owned by one app (never prom-client's
 * global one): request durations by route pattern and status class, open sockets, event-loop lag and
 * the rest of Node's default metrics, PostgreSQL pool use, and shared page-cache hits and misses.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The pool counts `pg.Pool` exposes. */
export interface PoolStats {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/** Top-level sections of the site; any other first segment (an IBO code, a typo, a probe) is `other`. */
const ROUTES = new Set([
  '_astro', '_actions', '_server-islands', 'api', 'media', 'socket.io', 'healthz', 'readyz', 'metrics',
  'about-us', 'blog-classic-grid', 'blog-classic-sidebar', 'blog-details', 'blog-list-sidebar', 'blog-standard-sidebar',
  'books', 'contact-1', 'contact-2', 'contact-us', 'course-tracking', 'courses', 'courses-details', 'event',
  'events-details', 'faq-1', 'faq-2', 'forgot-password', 'guest', 'index-2', 'index-3', 'login', 'membership',
  'mylearning', 'myshopping', 'plans', 'portfolio', 'privacity', 'profile', 'purchase', 'register',
  'reset-password', 'robots.txt', 'sitemap.xml', '404', '500',
]);

/**
 * The bounded label of a path: its first segment when it is one of the site's sections (after the
 * `/en` prefix, kept), `/` for the home page, else `other`. Never an id, so the series stay few.
 */
export function routePattern(pathname: string): string {
  const english = /^\/en(\/|$)/.test(pathname);
  const rest = english ? pathname.slice(3) : pathname;
  const first = rest.split('/').find((s) => s !== '') ?? '';
  const prefix = english ? '/en' : '';
  if (first === '') return `${prefix}/`;
  return ROUTES.has(first) ? `${prefix}/${first}` : `${prefix}/other`;
}

export interface Metrics {
  registry: Registry;
  /** Records one answered request. */
  observeRequest(pathname: string, status: number, seconds: number): void;
  /** Counts an answer from (`hit`) or a lookup that missed (`miss`) the shared page cache. */
  pageCache(result: 'hit' | 'miss'): void;
}

export function createMetrics(opts: { sockets: () => number; pool?: PoolStats | undefined }): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern and status class.',
    labelNames: ['route', 'status_class'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  new Gauge({
    name: 'socketio_connections',
    help: 'Open socket.io connections.',
    registers: [registry],
    collect() {
      this.set(opts.sockets());
    },
  });
  const pool = opts.pool;
  if (pool) {
    const counts = { total: () => pool.totalCount, idle: () => pool.idleCount, waiting: () => pool.waitingCount };
    for (const [name, read] of Object.entries(counts)) {
      new Gauge({
        name: `db_pool_${name}_clients`,
        help: `PostgreSQL pool: ${name} clients.`,
        registers: [registry],
        collect() {
          this.set(read());
        },
      });
    }
  }
  const cache = new Counter({
    name: 'page_cache_requests_total',
    help: 'Shared page cache lookups, by result.',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  return {
    registry,
    observeRequest(pathname, status, seconds) {
      duration.observe({ route: routePattern(pathname), status_class: `${Math.floor(status / 100)}xx` }, seconds);
    },
    pageCache(result) {
      cache.inc({ result });
    },
  };
}
