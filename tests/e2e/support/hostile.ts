/**
 * Hostile inputs for property-based tests (fast-check): control characters, lone surrogates, invalid
 * UTF-8, 100 KB strings, wrong types, prototype keys, huge numbers and number-looking strings, and
 * what an answer must never contain (SQL, a stack, query parameters).
 */
import fc from 'fast-check';
import type { Answer, FormValue } from './http';

/** A value an attacker may put anywhere: a string, raw bytes, a number, a boolean, null, a list or an object. */
export type Hostile = string | number | boolean | null | Buffer | Hostile[] | { [key: string]: Hostile };

const CONTROL = ['\u0000', '\u0001', '\u0007', '\u0008', '\u000b', '\u000c', '\u001b', '\u001f', '\u007f', '\u0080', '\u0085', '\u009f', '\u200b', '\u200e', '\u2028', '\u202e', '\ufeff', '\uffff'];
const LONE_SURROGATES = ['\uD800', '\uDBFF', '\uDC00', '\uDFFF', 'a\uD800b', '\uDC00\uD800', 'ok\uDBFF'];
/** Bytes that are not UTF-8 (a surrogate encoded, an overlong NUL, stray continuation bytes). */
const BAD_UTF8 = [Buffer.from([0xed, 0xa0, 0x80]), Buffer.from([0xc0, 0x80]), Buffer.from([0xff, 0xfe]), Buffer.from([0x80]), Buffer.from([0x61, 0x00, 0x62]), Buffer.from([0xf4, 0x90, 0x80, 0x80])];
const NUMBER_LIKE = ['NaN', 'Infinity', '-Infinity', '1e999', '-1e999', '-0', '0x1F', '0b11', ' 1 ', '1.5', '-1', '00', '1,5', '1_000', '9'.repeat(400), '2147483648', '-2147483649', '9007199254740993', '1e-400', ''];
const INJECTION = ["' OR 1=1 --", '"; DROP TABLE users; --', "'); select pg_sleep(1); --", '../../etc/passwd', '..%2f..%2f', '%00', '%', '\\', '<script>alert(1)</script>', '{{7*7}}', '${7*7}', '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'admin@academia.example', 'a@b', '@', 'x@y.z'];
/** 100 KB and more. */
const HUGE = ['x'.repeat(100_000), '\u0000'.repeat(100_000), 'é'.repeat(60_000), `a@b.co${'x'.repeat(100_000)}`, '\uD800'.repeat(50_000), '9'.repeat(100_000)];

/** A string meant to break parsing, validation or storage. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(fc.string({ maxLength: 12 }), fc.constantFrom(...CONTROL), fc.string({ maxLength: 12 })).map(([a, c, b]) => `${a}${c}${b}`) },
  { weight: 2, arbitrary: fc.string({ minLength: 1, maxLength: 12 }).map((a) => `${a}\u0000${a}`) },
  { weight: 2, arbitrary: fc.constantFrom(...LONE_SURROGATES) },
  { weight: 2, arbitrary: fc.constantFrom(...NUMBER_LIKE) },
  { weight: 2, arbitrary: fc.constantFrom(...INJECTION) },
  { weight: 1, arbitrary: fc.constantFrom(...HUGE) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...CONTROL, 'a', '@', '.', '<', '"', "'"), minLength: 1, maxLength: 20 }) },
);

const protoObjects: Hostile[] = [
  JSON.parse('{"__proto__":{"polluted":true,"isAdmin":true}}') as Hostile,
  JSON.parse('{"constructor":{"prototype":{"polluted":true}}}') as Hostile,
  JSON.parse('{"toString":"x","valueOf":1}') as Hostile,
];

/** Any hostile value, of any type. */
export const hostileValue: fc.Arbitrary<Hostile> = fc.oneof(
  { weight: 14, arbitrary: hostileString },
  { weight: 1, arbitrary: fc.constantFrom(...BAD_UTF8) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.constantFrom(1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 31, -(2 ** 31) - 1, 0, -1, 0.5, 5e-324, 2 ** 64) },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.array(hostileString, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(...protoObjects) },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('a', '__proto__', 'constructor', '$where', ''), hostileString, { maxKeys: 2 }) },
);

/** JSON texts that are not what any endpoint expects (sent as the body itself). */
export const hostileJsonText: fc.Arbitrary<string> = fc.constantFrom(
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '',
  '[',
  '{',
  'null',
  '[]',
  '"text"',
  '1e999',
  'NaN',
  '{"a":NaN}',
  '{"a":Infinity}',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  '{"email":"\\u0000"}',
  '{"lang":"\\ud800"}',
  '\u0000',
  '\ufeff{}',
  `{"a":"${'x'.repeat(100_000)}"}`,
);

/**
 * A valid body with some fields replaced by hostile values and perhaps a hostile extra key. The
 * result is a plain record built with own properties (a `__proto__` key stays a key).
 */
export function mutated(base: Record<string, Hostile>): fc.Arbitrary<{ body: Record<string, Hostile>; changed: string[] }> {
  const keys = Object.keys(base);
  // Mostly one field at a time, so the others stay valid and the hostile value reaches as deep as it can.
  const some = (n: number) => fc.subarray(keys, { minLength: Math.min(n, keys.length), maxLength: Math.min(n, keys.length) });
  return fc
    .record({
      changed: fc.oneof({ weight: 6, arbitrary: some(1) }, { weight: 2, arbitrary: some(2) }, { weight: 1, arbitrary: some(3) }),
      values: fc.array(hostileValue, { minLength: 3, maxLength: 3 }),
      extra: fc.option(fc.tuple(fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'x'.repeat(300)), hostileValue), { nil: undefined }),
      drop: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
    })
    .map(({ changed, values, extra, drop }) => {
      const entries: [string, Hostile][] = Object.entries(base).map(([k, v]) => [k, changed.includes(k) ? values[changed.indexOf(k)]! : v]);
      // Sometimes a changed field is left out altogether instead.
      const kept = drop ? entries.filter(([k]) => k !== changed[0]) : entries;
      if (extra) kept.push(extra);
      return { body: Object.fromEntries(kept), changed };
    });
}

/**
 * The values every field of a target gets at least once, whatever the random runs draw: a NUL inside
 * text, a lone surrogate, and 100 KB.
 */
export const EVERY_FIELD: readonly Hostile[] = ['ok\u0000ok', 'a\uD800b', 'x'.repeat(100_000)];

/** One body per field and value of `EVERY_FIELD`, the other fields valid. */
export function everyField(base: Record<string, Hostile>): { body: Record<string, Hostile>; changed: string[] }[] {
  return Object.keys(base).flatMap((k) => EVERY_FIELD.map((v) => ({ body: Object.fromEntries(Object.entries(base).map(([key, x]) => [key, key === k ? v : x])), changed: [k] })));
}

/** A hostile value as a form field (`undefined`: leave the field out). */
export function formValue(v: Hostile): FormValue | undefined {
  if (v === null) return undefined;
  if (Buffer.isBuffer(v)) return v;
  if (Array.isArray(v)) return v.map((x) => (typeof x === 'string' || Buffer.isBuffer(x) ? x : (JSON.stringify(x) ?? 'null')));
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** A hostile record as a form. */
export function asForm(body: Record<string, Hostile>): Record<string, FormValue> {
  const out: [string, FormValue][] = [];
  for (const [k, v] of Object.entries(body)) {
    const f = formValue(v);
    if (f !== undefined) out.push([k, f]);
  }
  return Object.fromEntries(out);
}

/** A hostile record as JSON (raw bytes become Latin-1 text; NaN and infinities become null, as JSON says). */
export function asJson(body: Hostile): string {
  return JSON.stringify(body, (_k, v: unknown) => {
    if (v && typeof v === 'object' && (v as { type?: string }).type === 'Buffer' && Array.isArray((v as { data?: unknown }).data)) return Buffer.from((v as { data: number[] }).data).toString('latin1');
    return v;
  });
}

/** A `multipart/form-data` body, one field sent as a file (what a string field should never accept). */
export function asMultipart(body: Record<string, Hostile>, fileField: string | undefined): { raw: Buffer; type: string } {
  const boundary = `----fuzz${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(asForm(body))) {
    const values = Array.isArray(v) ? v : [v];
    for (const one of values as (string | Buffer)[]) {
      const file = k === fileField;
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k.replace(/["\r\n]/g, '_')}"${file ? '; filename="a\u0000.txt"' : ''}\r\n${file ? 'Content-Type: application/octet-stream\r\n' : ''}\r\n`));
      parts.push(Buffer.isBuffer(one) ? one : Buffer.from(one));
      parts.push(Buffer.from('\r\n'));
    }
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { raw: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}

/** Percent-encodes a hostile value for a URL path segment or query value (bytes as they are). */
export function urlPart(v: Hostile): string {
  const bytes = Buffer.isBuffer(v) ? v : Buffer.from(typeof v === 'string' ? v : (JSON.stringify(v) ?? 'null'), 'utf8');
  let out = '';
  for (const b of bytes) out += /[A-Za-z0-9\-._~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  return out;
}

/** What an answer may never show: the brief's literal markers (for text that is not a page) and SQL, stack or path shapes anywhere. */
const LITERAL_MARKERS = ['select ', 'insert into', '    at ', 'params:'];
const PATTERNS = [
  /failed query/i,
  /\bselect\s+(distinct\s+)?("|\*\s+from|count\()/i,
  /\binsert\s+into\s+"/i,
  /\bupdate\s+"[^"]+"\s+set\b/i,
  /\bdelete\s+from\s+"/i,
  /\bparams:/i,
  /\n\s*at (?:async )?[\w$.<>[\] ]+ \((?:file:\/\/|node:|\/)[^)]*:\d+:\d+\)/,
  /\n\s*at (?:file:\/\/|node:internal|\/)[^\s]*:\d+:\d+/,
  /\/node_modules\//,
  /\/work\/main\//,
];

/** What an answer shows of the server's inside (SQL, a stack, parameters), or undefined. */
export function internals(a: Answer): string | undefined {
  const html = String(a.headers['content-type'] ?? '').includes('text/html');
  const lower = a.body.toLowerCase();
  if (!html) for (const m of LITERAL_MARKERS) if (lower.includes(m)) return JSON.stringify(m);
  for (const p of PATTERNS) if (p.test(a.body)) return String(p);
  return undefined;
}

/** The usual property of every request: a 4xx or a success, never a 5xx, and nothing of the inside. */
export function problemOf(a: Answer): string | undefined {
  if (a.status >= 500) return `answered ${a.status}: ${a.body.slice(0, 300)}`;
  if (a.status < 200) return `answered ${a.status}`;
  const leak = internals(a);
  return leak ? `the answer (${a.status}) shows ${leak}: ${a.body.slice(0, 300)}` : undefined;
}

/** Counts answers by status, for the test's annotation. */
export class Tally {
  readonly counts = new Map<string, number>();
  add(key: string | number): void {
    this.counts.set(String(key), (this.counts.get(String(key)) ?? 0) + 1);
  }
  toString(): string {
    return [...this.counts]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, n]) => `${k}×${n}`)
      .join(', ');
  }
}
