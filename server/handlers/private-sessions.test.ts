/**
 * `keepPrivate`: whatever way a handler writes its headers, an answer to a session leaves private,
 * the handler's own headers kept (a name given twice keeps both values, the reason phrase stays).
 */
import { createServer, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepPrivate } from './private-sessions';

const ways: Record<string, (res: ServerResponse) => void> = {
  '/object': (res) => res.writeHead(200, { 'Content-Type': 'text/plain', 'Cache-Control': 'public, max-age=60' }).end('a'),
  '/flat': (res) => res.writeHead(201, 'Made', ['Set-Cookie', 'a=1', 'set-cookie', 'b=2', 'X-One', 'x']).end('b'),
  '/pairs': (res) => res.writeHead(200, [['Set-Cookie', 'c=3'], ['Set-Cookie', 'd=4'], ['Vary', 'Cookie']]).end('c'),
  '/implicit': (res) => {
    res.setHeader('X-Two', 'y');
    res.end('d');
  },
  '/replaces': (res) => {
    res.setHeader('Set-Cookie', 'old=1');
    res.setHeader('X-Kept', 'k');
    res.writeHead(200, ['Set-Cookie', 'new=1', 'Set-Cookie', 'new=2']).end('f');
  },
  '/already': (res) => res.writeHead(200, { 'Cache-Control': 'private, max-age=0' }).end('e'),
};

let base = '';
const server = createServer((req, res) => {
  keepPrivate(res);
  ways[req.url ?? '']!(res);
});
beforeAll(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve())));
beforeAll(() => {
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The status, reason and raw headers (repeated names kept apart) of a GET. */
function get(path: string): Promise<{ status: number; reason: string; raw: string[] }> {
  return new Promise((resolve, reject) => {
    request(base + path, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, reason: res.statusMessage!, raw: res.rawHeaders }));
    })
      .on('error', reject)
      .end();
  });
}
/** Every value sent under `name` (lower case), in order. */
const values = (raw: string[], name: string) => raw.flatMap((v, i) => (i % 2 === 1 && raw[i - 1]!.toLowerCase() === name ? [v] : []));

describe('keepPrivate', () => {
  it('turns a public Cache-Control of a header object private, keeping the other headers', async () => {
    const r = await get('/object');
    expect(values(r.raw, 'cache-control')).toEqual(['private, no-store']);
    expect(values(r.raw, 'content-type')).toEqual(['text/plain']);
  });

  it('keeps both values of a name given twice in a flat list, and the reason phrase', async () => {
    const r = await get('/flat');
    expect([r.status, r.reason]).toEqual([201, 'Made']);
    expect(values(r.raw, 'set-cookie')).toEqual(['a=1', 'b=2']);
    expect(values(r.raw, 'x-one')).toEqual(['x']);
    expect(values(r.raw, 'cache-control')).toEqual(['private, no-store']);
  });

  it('keeps both values of a name given twice in a list of pairs', async () => {
    const r = await get('/pairs');
    expect(values(r.raw, 'set-cookie')).toEqual(['c=3', 'd=4']);
    expect(values(r.raw, 'vary')).toEqual(['Cookie']);
    expect(values(r.raw, 'cache-control')).toEqual(['private, no-store']);
  });

  it('lets a list given to writeHead replace what was set before under its names, as Node does', async () => {
    const r = await get('/replaces');
    expect(values(r.raw, 'set-cookie')).toEqual(['new=1', 'new=2']);
    expect(values(r.raw, 'x-kept')).toEqual(['k']);
    expect(values(r.raw, 'cache-control')).toEqual(['private, no-store']);
  });

  it('makes an answer with no explicit writeHead private too', async () => {
    const r = await get('/implicit');
    expect(values(r.raw, 'x-two')).toEqual(['y']);
    expect(values(r.raw, 'cache-control')).toEqual(['private, no-store']);
  });

  it('leaves a Cache-Control that is already private as the handler wrote it', async () => {
    expect(values((await get('/already')).raw, 'cache-control')).toEqual(['private, max-age=0']);
  });
});
