import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createLocalStorage } from './local.server';
import { BadStorageKey, isStorageKey } from './storage';

const root = await mkdtemp(join(tmpdir(), 'storage-'));
afterAll(() => rm(root, { recursive: true, force: true }));

async function text(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}

describe('storage keys', () => {
  it('accepts relative paths of safe segments and refuses traversal, absolute paths and odd bytes', () => {
    expect(isStorageKey('videos/12/720p/seg-003.ts')).toBe(true);
    for (const bad of ['', '/etc/passwd', '../x', 'a/../b', 'a//b', 'a\\b', 'a/./b', 'a\u0000b', 'a b', 'x'.repeat(513)]) expect(isStorageKey(bad)).toBe(false);
  });
});

describe('the local folder', () => {
  const storage = createLocalStorage(root);

  it('writes, stats, reads a range and deletes an object', async () => {
    const put = await storage.put('docs/a.pdf', new TextEncoder().encode('0123456789'));
    expect(put).toMatchObject({ key: 'docs/a.pdf', sizeBytes: 10, contentType: 'application/pdf' });
    expect(await storage.stat('docs/a.pdf')).toEqual(put);
    const part = await storage.get('docs/a.pdf', { start: 2, end: 5 });
    expect(await text(part!.body)).toBe('2345');
    await storage.delete('docs/a.pdf');
    expect(await storage.stat('docs/a.pdf')).toBeNull();
    expect(await storage.get('docs/a.pdf')).toBeNull();
    await storage.delete('docs/a.pdf');
  });

  it('streams a body in and lists keys under a prefix, never the temporary files', async () => {
    await storage.put('v/1/a.ts', Readable.from([Buffer.from('ab'), Buffer.from('cd')]));
    await storage.put('v/1/b.ts', Buffer.from('x'));
    await storage.put('v/2/c.ts', Buffer.from('y'));
    const keys: string[] = [];
    for await (const k of storage.list('v/1/')) keys.push(k);
    expect(keys.sort()).toEqual(['v/1/a.ts', 'v/1/b.ts']);
    expect(await text((await storage.get('v/1/a.ts'))!.body)).toBe('abcd');
  });

  it('leaves no object behind when the body fails half way', async () => {
    async function* failing() {
      yield Buffer.from('half');
      throw new Error('connection dropped');
    }
    await expect(storage.put('broken/x.mp4', failing())).rejects.toThrow('connection dropped');
    expect(await storage.stat('broken/x.mp4')).toBeNull();
    expect(await readdir(join(root, 'broken'))).toEqual([]);
  });

  it('removes the temporary files of writes killed long enough ago under a prefix, and nothing else', async () => {
    await storage.put('killed/1/a.ts', Buffer.from('whole'));
    await mkdir(join(root, 'killed', '1'), { recursive: true });
    // What a process killed mid-write leaves: a temporary file beside the key it was writing.
    const old = join(root, 'killed', '1', 'b.ts.0a1b2c3d4e5f.part');
    const fresh = join(root, 'killed', '1', 'c.ts.0a1b2c3d4e5f.part');
    const elsewhere = join(root, 'v', 'd.ts.0a1b2c3d4e5f.part');
    for (const f of [old, fresh, elsewhere]) await writeFile(f, 'half');
    const hourAgo = new Date(Date.now() - 3600_000);
    for (const f of [old, elsewhere]) await utimes(f, hourAgo, hourAgo);
    expect(await storage.sweepUnfinished!('killed/', 60_000)).toBe(1);
    expect((await readdir(join(root, 'killed', '1'))).sort()).toEqual(['a.ts', 'c.ts.0a1b2c3d4e5f.part']);
    expect(await readdir(join(root, 'v'))).toContain('d.ts.0a1b2c3d4e5f.part');
    await expect(storage.sweepUnfinished!('nothing-here/', 0)).resolves.toBe(0);
  });

  it('refuses a key that would leave the folder', async () => {
    await expect(storage.put('../outside.txt', Buffer.from('x'))).rejects.toBeInstanceOf(BadStorageKey);
    await expect(storage.get('/etc/passwd')).rejects.toBeInstanceOf(BadStorageKey);
  });
});
