/** A small stand-in for Astro's request context, for the middleware steps' tests (no server, no Astro). */
import type { APIContext, MiddlewareNext } from 'astro';

export interface FakeOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** The address the browser asked for (default: the request's path). */
  originPathname?: string;
  routePattern?: string;
  cookies?: Record<string, string>;
  locals?: Partial<App.Locals>;
}

/** What a fake context recorded: cookies deleted, rewrites asked for. */
export interface Recorded {
  deleted: string[];
  rewrites: string[];
}

/** A context for `url` (path or full address on http://localhost:4321). */
export function fakeContext(url: string, opts: FakeOptions = {}): { ctx: APIContext; recorded: Recorded } {
  const full = new URL(url, 'http://localhost:4321');
  const request = new Request(full, { method: opts.method ?? 'GET', headers: opts.headers ?? {}, body: opts.body ?? null });
  const recorded: Recorded = { deleted: [], rewrites: [] };
  const cookies = { ...(opts.cookies ?? {}) };
  const ctx = {
    request,
    url: full,
    originPathname: opts.originPathname ?? full.pathname,
    routePattern: opts.routePattern ?? full.pathname,
    locals: { ...opts.locals } as App.Locals,
    cookies: {
      get: (name: string) => (name in cookies ? { value: cookies[name] } : undefined),
      delete: (name: string) => {
        delete cookies[name];
        recorded.deleted.push(name);
      },
      headers: function* () {
        for (const name of recorded.deleted) yield `${name}=deleted; Max-Age=0`;
      },
    },
    redirect: (to: string, status = 302) => new Response(null, { status, headers: { location: to } }),
    rewrite: (to: string) => {
      recorded.rewrites.push(to);
      return Promise.resolve(new Response(`rewritten to ${to}`, { status: 200 }));
    },
  };
  return { ctx: ctx as unknown as APIContext, recorded };
}

/** A `next()` that answers `response` (or what `render` makes) and counts its calls. */
export function fakeNext(render: Response | (() => Response | Promise<Response>) = () => new Response('page')): MiddlewareNext & { calls: number } {
  const next = (async () => {
    next.calls++;
    return typeof render === 'function' ? render() : render;
  }) as MiddlewareNext & { calls: number };
  next.calls = 0;
  return next;
}

/** A `next()` that fails with `error`. */
export function failingNext(error: unknown): MiddlewareNext {
  return () => Promise.reject(error);
}
