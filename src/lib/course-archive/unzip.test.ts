/**
 * The archive reader against our streaming writer and against hostile archives: what we write reads
 * back byte for byte; traversal, absolute and backslash names, symbolic links, bombs (declared and
 * lying), truncated archives and files that are no zip at all are refused before anything is used.
 */
import { describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { zip } from '../zip/zip';
import { centralRecord, renamed, zipBytes } from './archive.testing';
import { entryBytes, entryStream, isSafeName, readZip, ZipRefused, type ZipLimits } from './unzip';

const limits: ZipLimits = { maxEntries: 10, maxEntryBytes: 20 * 1024 * 1024, maxTotalBytes: 30 * 1024 * 1024, maxRatio: 100 };

async function problem(run: () => unknown): Promise<string> {
  try {
    await run();
  } catch (error) {
    if (error instanceof ZipRefused) return error.problem;
    throw error;
  }
  return 'accepted';
}
const drain = async (archive: Buffer, index = 0) => {
  for await (const _ of entryStream(archive, readZip(archive, limits)[index]!));
};

describe('the course archive reader', () => {
  it('reads back what the streaming writer wrote: deflated, stored, and streamed with a data descriptor', async () => {
    const video = Buffer.alloc(200_000, 7);
    video.write('not really a video', 1000);
    const archive = await zipBytes([
      { name: 'course.json', content: JSON.stringify({ hello: 'mundo', n: 'ñ'.repeat(500) }) },
      { name: 'media/1.mp4', content: async () => Readable.from([video.subarray(0, 70_000), video.subarray(70_000)]) },
      { name: 'media/2.vtt', content: 'WEBVTT\n' },
    ]);
    const files = readZip(archive, limits);
    expect(files.map((f) => [f.name, f.size])).toEqual([
      ['course.json', JSON.stringify({ hello: 'mundo', n: 'ñ'.repeat(500) }).length + 500],
      ['media/1.mp4', video.length],
      ['media/2.vtt', 7],
    ]);
    expect(JSON.parse((await entryBytes(archive, files[0]!, 1e6)).toString('utf8')).hello).toBe('mundo');
    expect((await entryBytes(archive, files[1]!, 1e6)).equals(video)).toBe(true);
    expect((await entryBytes(archive, files[2]!, 1e6)).toString()).toBe('WEBVTT\n');
    expect(await problem(() => entryBytes(archive, files[1]!, 1000))).toBe('tooLarge');
  });

  it('also reads the data-export writer’s archives', async () => {
    const archive = Buffer.from(zip([{ name: 'a/b.txt', content: 'hola'.repeat(100) }]));
    expect((await entryBytes(archive, readZip(archive, limits)[0]!, 1e6)).toString()).toBe('hola'.repeat(100));
  });

  it('refuses names that climb out, are absolute, use backslashes or control characters', async () => {
    const base = Buffer.from(zip([{ name: 'media/a.txt', content: 'x' }]));
    expect(await problem(() => readZip(renamed(base, 'media/a.txt', '../../a.txt'), limits))).toBe('badName');
    expect(await problem(() => readZip(renamed(base, 'media/a.txt', '/etc/passwd'), limits))).toBe('badName');
    expect(await problem(() => readZip(renamed(base, 'media/a.txt', '..\\..\\a.tx'.padEnd(11, 't')), limits))).toBe('badName');
    expect(await problem(() => readZip(renamed(base, 'media/a.txt', 'C:/windows1'), limits))).toBe('badName');
    expect(await problem(() => readZip(renamed(base, 'media/a.txt', 'media/a\u0000txt'), limits))).toBe('badName');
    expect(['course.json', 'media/1.mp4', 'media/'].every(isSafeName)).toBe(true);
    expect(['', 'a//b', './a', 'a/./b'].some(isSafeName)).toBe(false);
  });

  it('refuses repeated names and symbolic links', async () => {
    const two = Buffer.from(zip([{ name: 'a.txt', content: 'x' }, { name: 'b.txt', content: 'y' }]));
    expect(await problem(() => readZip(renamed(two, 'b.txt', 'a.txt'), limits))).toBe('duplicateName');
    const link = Buffer.from(zip([{ name: 'a.txt', content: '/etc/passwd' }]));
    const at = centralRecord(link, 0);
    link.writeUInt8(3, at + 5);
    link.writeUInt32LE((0o120777 << 16) >>> 0, at + 38);
    expect(await problem(() => readZip(link, limits))).toBe('symlink');
  });

  it('refuses a bomb by its declared sizes, and one that lies about its size while inflating', async () => {
    const bomb = Buffer.from(zip([{ name: 'media/1.mp4', content: Buffer.alloc(10 * 1024 * 1024) }]));
    expect(await problem(() => readZip(bomb, limits))).toBe('bomb');
    expect(await problem(() => readZip(bomb, { ...limits, maxEntryBytes: 1024 * 1024, maxRatio: 1e9 }))).toBe('tooLarge');
    const liar = Buffer.from(bomb);
    liar.writeUInt32LE(1000, centralRecord(liar, 0) + 24);
    expect(readZip(liar, limits)[0]!.size).toBe(1000);
    expect(await problem(() => drain(liar))).toBe('bomb');
    const many = Buffer.from(zip(Array.from({ length: 11 }, (_, i) => ({ name: `f${i}`, content: 'x' }))));
    expect(await problem(() => readZip(many, limits))).toBe('tooManyEntries');
  });

  it('refuses a truncated archive, a corrupt entry, and a file that is no zip', async () => {
    const archive = await zipBytes([{ name: 'course.json', content: '{"a":1}'.repeat(1000) }]);
    expect(await problem(() => readZip(archive.subarray(0, archive.length >> 1), limits))).toBe('truncated');
    expect(await problem(() => readZip(archive.subarray(0, archive.length - 5), limits))).toBe('truncated');
    const flipped = Buffer.from(archive);
    flipped.writeUInt32LE((readZip(archive, limits)[0]!.crc ^ 1) >>> 0, centralRecord(flipped, 0) + 16);
    expect(await problem(() => drain(flipped))).toBe('corrupt');
    expect(await problem(() => readZip(Buffer.from('%PDF-1.7\n…this is a pdf renamed .zip'), limits))).toBe('notZip');
    expect(await problem(() => readZip(Buffer.alloc(0), limits))).toBe('notZip');
  });
});
