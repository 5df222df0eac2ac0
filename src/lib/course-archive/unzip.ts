/**
 * A small, strict ZIP reader for course archives: what our writers write (stored or deflated entries,
 * UTF-8 names, sizes in the central directory, data descriptors allowed) and no more. It refuses, before
 * inflating a byte: too many entries, an entry or a total over the limits, a declared ratio a real file
 * never has (a zip bomb), names that are absolute, climb out (`..`), use backslashes, drive letters or
 * control characters, repeated names, symbolic links, encryption, ZIP64 and any method but stored or
 * deflate. While inflating it refuses an entry that grows past its declared size (a bomb lying about its
 * size), and one whose size or checksum differs from what the directory says (a corrupt archive).
 */
import { Readable } from 'node:stream';
import { crc32, createInflateRaw } from 'node:zlib';

/** The bounds an archive must stay within. */
export interface ZipLimits {
  maxEntries: number;
  /** The largest an entry may be once inflated. */
  maxEntryBytes: number;
  /** The largest all entries may be together once inflated. */
  maxTotalBytes: number;
  /** The most an entry over 1 MiB may inflate to, as a multiple of its compressed size. */
  maxRatio: number;
}

/** Why an archive is refused. */
export type ZipProblem = 'notZip' | 'truncated' | 'tooManyEntries' | 'badName' | 'duplicateName' | 'symlink' | 'unsupported' | 'tooLarge' | 'bomb' | 'corrupt';

export class ZipRefused extends Error {
  constructor(
    readonly problem: ZipProblem,
    readonly entry?: string,
  ) {
    super(`zip refused: ${problem}${entry ? ` (${entry.slice(0, 100)})` : ''}`);
    this.name = 'ZipRefused';
  }
}

/** An entry of the archive as its central directory describes it. */
export interface ZipFile {
  name: string;
  method: 0 | 8;
  crc: number;
  compressedSize: number;
  size: number;
  /** Where its (compressed) bytes start in the archive. */
  dataStart: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** Whether `name` is a safe relative path of an archive (a folder entry ends in `/`). */
export function isSafeName(name: string): boolean {
  if (name.length === 0 || name.length > 255) return false;
  if ([...name].some((ch) => ch.charCodeAt(0) < 0x20 || ch === '\u007f' || ch === '\\' || ch === ':') || name.startsWith('/')) return false;
  const parts = (name.endsWith('/') ? name.slice(0, -1) : name).split('/');
  return parts.every((p) => p !== '' && p !== '.' && p !== '..');
}

/** The entries of `archive` (folders left out), or throws `ZipRefused`. */
export function readZip(archive: Uint8Array, limits: ZipLimits): ZipFile[] {
  const buf = Buffer.from(archive.buffer, archive.byteOffset, archive.byteLength);
  const looksZip = buf.length >= 4 && buf.readUInt32LE(0) === LOCAL;
  let end = -1;
  for (let at = buf.length - 22; at >= Math.max(0, buf.length - 22 - 0xffff); at--) {
    if (buf.readUInt32LE(at) === EOCD && at + 22 + buf.readUInt16LE(at + 20) === buf.length) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new ZipRefused(looksZip ? 'truncated' : buf.length >= 22 && buf.readUInt32LE(0) === EOCD ? 'corrupt' : 'notZip');
  const disk = buf.readUInt16LE(end + 4);
  const count = buf.readUInt16LE(end + 10);
  const dirSize = buf.readUInt32LE(end + 12);
  const dirStart = buf.readUInt32LE(end + 16);
  if (disk !== 0 || count !== buf.readUInt16LE(end + 8) || count === 0xffff || dirStart === 0xffffffff) throw new ZipRefused('unsupported');
  if (count > limits.maxEntries) throw new ZipRefused('tooManyEntries');
  if (dirStart + dirSize !== end) throw new ZipRefused(dirStart + dirSize > end ? 'truncated' : 'corrupt');

  const files: ZipFile[] = [];
  const seen = new Set<string>();
  let total = 0;
  let at = dirStart;
  for (let i = 0; i < count; i++) {
    if (at + 46 > end || buf.readUInt32LE(at) !== CENTRAL) throw new ZipRefused('corrupt');
    const flags = buf.readUInt16LE(at + 8);
    const method = buf.readUInt16LE(at + 10);
    const crc = buf.readUInt32LE(at + 16);
    const compressedSize = buf.readUInt32LE(at + 20);
    const size = buf.readUInt32LE(at + 24);
    const nameLength = buf.readUInt16LE(at + 28);
    const extraLength = buf.readUInt16LE(at + 30);
    const commentLength = buf.readUInt16LE(at + 32);
    const madeBy = buf.readUInt8(at + 5);
    const external = buf.readUInt32LE(at + 38);
    const offset = buf.readUInt32LE(at + 42);
    if (at + 46 + nameLength > end) throw new ZipRefused('corrupt');
    const name = buf.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    if (!isSafeName(name)) throw new ZipRefused('badName', name);
    if (seen.has(name)) throw new ZipRefused('duplicateName', name);
    seen.add(name);
    // Unix "made by" (3): the high half of the external attributes is the file's mode.
    if (madeBy === 3 && ((external >>> 16) & S_IFMT) === S_IFLNK) throw new ZipRefused('symlink', name);
    if (flags & 0x0001 || (method !== 0 && method !== 8) || compressedSize === 0xffffffff || size === 0xffffffff || offset === 0xffffffff) throw new ZipRefused('unsupported', name);
    if (method === 0 && compressedSize !== size) throw new ZipRefused('corrupt', name);
    if (size > limits.maxEntryBytes) throw new ZipRefused('tooLarge', name);
    if (size > 1024 * 1024 && size > compressedSize * limits.maxRatio) throw new ZipRefused('bomb', name);
    total += size;
    if (total > limits.maxTotalBytes) throw new ZipRefused('tooLarge', name);
    if (offset + 30 > dirStart || buf.readUInt32LE(offset) !== LOCAL) throw new ZipRefused('corrupt', name);
    const dataStart = offset + 30 + buf.readUInt16LE(offset + 26) + buf.readUInt16LE(offset + 28);
    if (dataStart + compressedSize > dirStart) throw new ZipRefused('truncated', name);
    if (name.endsWith('/')) {
      if (size !== 0) throw new ZipRefused('corrupt', name);
      continue;
    }
    files.push({ name, method, crc, compressedSize, size, dataStart });
  }
  return files;
}

/**
 * The inflated bytes of `file`, as a stream of chunks: it fails with `ZipRefused` (`bomb`) as soon as
 * more comes out than the directory declared, and (`corrupt`) when less does or the checksum differs.
 */
export function entryStream(archive: Uint8Array, file: ZipFile): Readable {
  const raw = Buffer.from(archive.buffer, archive.byteOffset + file.dataStart, file.compressedSize);
  async function* chunks(): AsyncGenerator<Buffer> {
    let crc = 0;
    let size = 0;
    const check = (chunk: Buffer) => {
      size += chunk.length;
      if (size > file.size) throw new ZipRefused('bomb', file.name);
      crc = crc32(chunk, crc);
      return chunk;
    };
    if (file.method === 0) {
      for (let at = 0; at < raw.length; at += 1 << 16) yield check(raw.subarray(at, Math.min(raw.length, at + (1 << 16))));
    } else {
      const inflate = createInflateRaw();
      const source = Readable.from([raw]).pipe(inflate);
      try {
        for await (const chunk of source) yield check(chunk as Buffer);
      } catch (error) {
        if (error instanceof ZipRefused) throw error;
        throw new ZipRefused('corrupt', file.name);
      } finally {
        inflate.destroy();
      }
    }
    if (size !== file.size || (crc >>> 0) !== file.crc) throw new ZipRefused('corrupt', file.name);
  }
  return Readable.from(chunks(), { objectMode: false });
}

/** The inflated bytes of a small `file` (at most `max` bytes, else `ZipRefused` `tooLarge`). */
export async function entryBytes(archive: Uint8Array, file: ZipFile, max: number): Promise<Buffer> {
  if (file.size > max) throw new ZipRefused('tooLarge', file.name);
  const parts: Buffer[] = [];
  for await (const chunk of entryStream(archive, file)) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}
