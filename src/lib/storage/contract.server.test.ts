/**
 * The storage contract, proven the same way on both kinds of storage: the local folder, and an
 * S3-compatible object store (s3rver in this process). Each storage is built from the configuration as
 * the runtime builds it; two instances of the same configuration stand for two machines.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../config/config';
import { createStorage } from './create.server';
import { DEFAULT_PART_BYTES } from './s3.server';
import { startObjectStore, type TestObjectStore } from './s3rver.testing';
import { BadStorageKey, type Storage } from './storage';

const folder = await mkdtemp(join(tmpdir(), 'storage-contract-'));
let objectStore: TestObjectStore | null = null;
let notStarted = '';
try {
  objectStore = await startObjectStore();
} catch (err) {
  notStarted = `s3rver could not start here (${(err as Error).message}): the S3 half of the storage contract is skipped`;
  console.warn(notStarted);
}
afterAll(async () => {
  await objectStore?.stop();
  await rm(folder, { recursive: true, force: true });
});

const backends = [
  { name: 'the local folder', env: () => ({ DATA_DIR: folder }), kind: 'local', skip: '' },
  { name: 'an S3-compatible object store', env: () => ({ DATA_DIR: folder, ...objectStore!.env }), kind: 's3', skip: notStarted },
] as const;

async function bytesOf(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Uint8Array));
  return Buffer.concat(chunks);
}
async function keysOf(list: AsyncIterable<string>): Promise<string[]> {
  const keys: string[] = [];
  for await (const k of list) keys.push(k);
  return keys.sort();
}
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** `size` bytes that differ from position to position, given in 64 KiB chunks (as a network would). */
function* chunksOf(size: number): Generator<Buffer> {
  for (let at = 0; at < size; at += 65_536) {
    const n = Math.min(65_536, size - at);
    const chunk = Buffer.alloc(n);
    for (let i = 0; i < n; i++) chunk[i] = (at + i) % 251;
    yield chunk;
  }
}

describe.each(backends)('storage on $name', ({ env, kind, skip }) => {
  let storage: Storage;
  const opened: Storage[] = [];
  const open = async () => {
    const s = await createStorage(readConfig(env()).storage);
    opened.push(s);
    return s;
  };
  beforeAll(async () => {
    if (skip) return;
    storage = await open();
  });
  afterAll(async () => {
    for (const s of opened) await s.close?.();
  });

  it.skipIf(skip)('is the kind the configuration names', () => {
    expect(storage.kind).toBe(kind);
  });

  it.skipIf(skip)('writes, stats, reads whole and by ranges, and deletes an object', async () => {
    const put = await storage.put('docs/a.pdf', new TextEncoder().encode('0123456789'));
    expect(put).toMatchObject({ key: 'docs/a.pdf', sizeBytes: 10, contentType: 'application/pdf' });
    expect(put.modifiedMs).toBeGreaterThan(Date.now() - 600_000);
    expect(await storage.stat('docs/a.pdf')).toEqual(put);
    const whole = await storage.get('docs/a.pdf');
    expect(whole!.object).toMatchObject({ key: 'docs/a.pdf', sizeBytes: 10 });
    expect((await bytesOf(whole!.body)).toString()).toBe('0123456789');
    const part = await storage.get('docs/a.pdf', { start: 2, end: 5 });
    // The object's size, not the range's, with the range's bytes.
    expect(part!.object.sizeBytes).toBe(10);
    expect((await bytesOf(part!.body)).toString()).toBe('2345');
    expect((await bytesOf((await storage.get('docs/a.pdf', { start: 7, end: 99 }))!.body)).toString()).toBe('789');
    // A range past the end: the object, and no bytes.
    const past = await storage.get('docs/a.pdf', { start: 10, end: 20 });
    expect(past!.object.sizeBytes).toBe(10);
    expect((await bytesOf(past!.body)).length).toBe(0);
    await storage.delete('docs/a.pdf');
    expect(await storage.stat('docs/a.pdf')).toBeNull();
    expect(await storage.get('docs/a.pdf')).toBeNull();
    expect(await storage.get('docs/a.pdf', { start: 0, end: 1 })).toBeNull();
    await storage.delete('docs/a.pdf');
  });

  it.skipIf(skip)('streams a body in, replaces an object whole, and lists the keys under a prefix', async () => {
    await storage.put('v/1/a.ts', Readable.from([Buffer.from('ab'), Buffer.from('cd')]));
    await storage.put('v/1/b.ts', (async function* () {
      yield new Uint8Array([120]);
    })());
    await storage.put('v/2/c.ts', Buffer.from('y'));
    expect(await keysOf(storage.list('v/1/'))).toEqual(['v/1/a.ts', 'v/1/b.ts']);
    expect(await keysOf(storage.list('v/'))).toEqual(['v/1/a.ts', 'v/1/b.ts', 'v/2/c.ts']);
    expect(await keysOf(storage.list('none/'))).toEqual([]);
    expect((await bytesOf((await storage.get('v/1/a.ts'))!.body)).toString()).toBe('abcd');
    await storage.put('v/1/a.ts', Buffer.from('replaced'));
    expect((await bytesOf((await storage.get('v/1/a.ts'))!.body)).toString()).toBe('replaced');
    expect((await storage.stat('v/1/a.ts'))!.sizeBytes).toBe(8);
  });

  it.skipIf(skip)('leaves nothing under the key when the body fails half way, small or multipart', async () => {
    async function* failing(size: number) {
      yield* chunksOf(size);
      throw new Error('connection dropped');
    }
    await expect(storage.put('broken/x.mp4', failing(4))).rejects.toThrow('connection dropped');
    expect(await storage.stat('broken/x.mp4')).toBeNull();
    // Past one part: a multipart upload was under way, and is aborted.
    await expect(storage.put('broken/y.mp4', failing(DEFAULT_PART_BYTES + 65_536))).rejects.toThrow('connection dropped');
    expect(await storage.stat('broken/y.mp4')).toBeNull();
    // A failed replacement keeps the object that was there.
    await storage.put('broken/z.vtt', Buffer.from('WEBVTT'));
    await expect(storage.put('broken/z.vtt', failing(10))).rejects.toThrow('connection dropped');
    expect((await bytesOf((await storage.get('broken/z.vtt'))!.body)).toString()).toBe('WEBVTT');
    expect(await keysOf(storage.list('broken/'))).toEqual(['broken/z.vtt']);
  });

  it.skipIf(skip)('refuses keys that could leave their place, for every operation', async () => {
    for (const key of ['../outside.txt', '/etc/passwd', 'a//b', 'a/../b', 'a\\b', '']) {
      await expect(storage.put(key, Buffer.from('x'))).rejects.toBeInstanceOf(BadStorageKey);
      await expect(storage.get(key)).rejects.toBeInstanceOf(BadStorageKey);
      await expect(storage.stat(key)).rejects.toBeInstanceOf(BadStorageKey);
      await expect(storage.delete(key)).rejects.toBeInstanceOf(BadStorageKey);
    }
    await expect(keysOf(storage.list('../'))).rejects.toBeInstanceOf(BadStorageKey);
  });

  it.skipIf(skip || kind !== 's3')('throws, rather than answering "no such object", when the bucket itself is missing', async () => {
    const missing = await createStorage(readConfig({ ...env(), S3_BUCKET: 'no-such-bucket' }).storage);
    opened.push(missing);
    await expect(missing.get('docs/a.pdf')).rejects.toMatchObject({ name: 'NoSuchBucket' });
    await expect(missing.put('docs/a.pdf', Buffer.from('x'))).rejects.toMatchObject({ name: 'NoSuchBucket' });
    await expect(keysOf(missing.list('docs/'))).rejects.toMatchObject({ name: 'NoSuchBucket' });
  });

  it.skipIf(skip)('round-trips a body larger than one upload part (multipart on S3), whole and across the part boundary', async () => {
    const size = DEFAULT_PART_BYTES + 1_000_003;
    const expected = Buffer.concat([...chunksOf(size)]);
    const put = await storage.put('videos/big/source.mp4', Readable.from(chunksOf(size)));
    expect(put).toMatchObject({ sizeBytes: size, contentType: 'video/mp4' });
    expect(sha(await bytesOf((await storage.get('videos/big/source.mp4'))!.body))).toBe(sha(expected));
    const start = DEFAULT_PART_BYTES - 100;
    const across = await bytesOf((await storage.get('videos/big/source.mp4', { start, end: start + 199 }))!.body);
    expect(across.equals(expected.subarray(start, start + 200))).toBe(true);
    await storage.delete('videos/big/source.mp4');
  });

  it.skipIf(skip)('shows two machines with the same configuration the same objects', async () => {
    const [a, b] = [await open(), await open()];
    await a.put('shared/photo.webp', Buffer.from('first'));
    expect(await b.stat('shared/photo.webp')).toMatchObject({ sizeBytes: 5 });
    expect((await bytesOf((await b.get('shared/photo.webp'))!.body)).toString()).toBe('first');
    await b.put('shared/photo.webp', Buffer.from('second!'));
    expect((await bytesOf((await a.get('shared/photo.webp', { start: 0, end: 5 }))!.body)).toString()).toBe('second');
    expect(await keysOf(a.list('shared/'))).toEqual(['shared/photo.webp']);
    await b.delete('shared/photo.webp');
    expect(await a.stat('shared/photo.webp')).toBeNull();
  });
});
