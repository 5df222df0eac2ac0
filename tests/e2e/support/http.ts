/**
 * A small HTTP client for attack-shaped requests that Playwright's request API cannot make: any Host
 * header, raw body bytes, and a chosen loopback source address (127.0.0.x), so a test's per-address rate
 * limits are its own and never use up the budget of the journeys that share the e2e server (all from
 * 127.0.0.1). It keeps its own cookies, like a browser would.
 */
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** The Location header, when any. */
  location: string | undefined;
}

/** A form field: text (sent as UTF-8), raw bytes (each byte percent-encoded as is), or several values. */
export type FormValue = string | Buffer | readonly (string | Buffer)[];

export interface Send {
  headers?: Record<string, string>;
  /** An `application/x-www-form-urlencoded` body. */
  form?: Record<string, FormValue>;
  /** A JSON body: the text (sent as is) or a value to stringify. */
  json?: unknown;
  /** Raw body bytes, with `headers` saying what they are. */
  raw?: string | Buffer;
  /** Leave the cookie jar out of this request. */
  noCookies?: boolean;
}

/** Percent-encodes bytes as a form field does (space as +), keeping unreserved characters. */
function encodeBytes(bytes: Buffer): string {
  let out = '';
  for (const b of bytes) {
    const c = String.fromCharCode(b);
    if (/[A-Za-z0-9*\-._]/.test(c)) out += c;
    else if (b === 0x20) out += '+';
    else out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** An `application/x-www-form-urlencoded` body; a string value is sent as its UTF-8 bytes (lone surrogates as U+FFFD). */
export function formBody(form: Record<string, FormValue>): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(form)) {
    const values = Array.isArray(v) ? v : [v];
    for (const one of values as (string | Buffer)[]) parts.push(`${encodeBytes(Buffer.from(k))}=${encodeBytes(Buffer.isBuffer(one) ? one : Buffer.from(one, 'utf8'))}`);
  }
  return parts.join('&');
}

export class Client {
  readonly cookies = new Map<string, string>();
  readonly #agent: Agent;
  readonly #url: URL;

  /**
   * `base`: the server (`http://127.0.0.1:4400`); `localAddress`: the loopback address to send from;
   * `maxSockets`: how many requests it has under way at once (the others wait their turn).
   */
  constructor(
    base: string,
    readonly localAddress?: string,
    maxSockets = 6,
  ) {
    this.#url = new URL(base);
    // No kept-alive connections: reusing one the server is closing would fail a request at random.
    this.#agent = new Agent({ keepAlive: false, maxSockets });
  }

  get origin(): string {
    return this.#url.origin;
  }

  /** The Cookie header the jar would send. */
  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  get(path: string, send: Send = {}): Promise<Answer> {
    return this.request('GET', path, send);
  }

  post(path: string, send: Send = {}): Promise<Answer> {
    return this.request('POST', path, send);
  }

  /** One request (never following redirects); the answer's cookies go into the jar. */
  request(method: string, path: string, send: Send = {}): Promise<Answer> {
    const headers: Record<string, string> = { origin: this.origin, ...send.headers };
    let body: Buffer | undefined;
    if (send.form) {
      body = Buffer.from(formBody(send.form));
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
    } else if (send.json !== undefined) {
      body = Buffer.from(typeof send.json === 'string' ? send.json : JSON.stringify(send.json));
      headers['content-type'] ??= 'application/json';
    } else if (send.raw !== undefined) {
      body = Buffer.isBuffer(send.raw) ? send.raw : Buffer.from(send.raw);
    }
    if (body) headers['content-length'] = String(body.length);
    const jar = this.cookieHeader();
    if (jar && !send.noCookies && !Object.keys(headers).some((h) => h.toLowerCase() === 'cookie')) headers.cookie = jar;
    return new Promise<Answer>((resolve, reject) => {
      const req = httpRequest(
        {
          host: this.#url.hostname,
          port: this.#url.port,
          method,
          path,
          headers,
          agent: this.#agent,
          ...(this.localAddress ? { localAddress: this.localAddress } : {}),
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            if (!send.noCookies) this.#keepCookies(res.headers['set-cookie']);
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), location: res.headers.location });
          });
        },
      );
      req.setTimeout(20_000, () => req.destroy(new Error(`${method} ${path} took more than 20 s`)));
      req.on('error', reject);
      req.end(body);
    });
  }

  #keepCookies(setCookie: string[] | undefined): void {
    for (const line of setCookie ?? []) {
      const [pair = '', ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq < 1) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => {
        const [k = '', v = ''] = a.split('=').map((s) => s.trim());
        if (k.toLowerCase() === 'max-age') return Number(v) <= 0;
        if (k.toLowerCase() === 'expires') return Date.parse(v) <= Date.now();
        return false;
      });
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /** Closes the client's connections. */
  close(): void {
    this.#agent.destroy();
  }
}

/** A loopback source address of its own for a test (`127.0.0.<n>`, 10 ≤ n ≤ 250), so its per-address limits are separate. */
export function loopback(n: number): string {
  if (!Number.isInteger(n) || n < 10 || n > 250) throw new Error(`loopback(${n}): use 10–250`);
  return `127.0.0.${n}`;
}
