/**
 * A small ZIP writer (deflate, or stored when deflating does not help): enough for an archive of JSON,
 * CSV and PDF files built in memory. No dependency beyond `node:zlib` (its `crc32` too); names are UTF-8
 * (flag bit 11).
 */
import { crc32, deflateRawSync } from 'node:zlib';

/** A file of the archive. */
export interface ZipEntry {
  /** Its path inside the archive (`/` separates folders). */
  name: string;
  content: Uint8Array | string;
}

/** The DOS date and time of `at` (local fields in UTC, two-second precision). */
function dosTime(at: Date): { time: number; date: number } {
  return {
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | Math.floor(at.getUTCSeconds() / 2),
    date: (Math.max(0, at.getUTCFullYear() - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
  };
}

/** What the local header of a file and its record in the central directory both say. */
interface FileHeader {
  /** 0 stored, 8 deflated. */
  method: number;
  time: number;
  date: number;
  crc: number;
  compressed: number;
  size: number;
  nameLength: number;
}

/**
 * The local header of a file (30 bytes) or, given the local header's `offset`, its record in the
 * central directory (46 bytes): the same fields, the record's shifted by its "made by" version.
 * Version 2.0, names in UTF-8 (bit 11), no extra field or comment.
 */
function header(file: FileHeader, offset?: number): Buffer {
  const central = offset !== undefined;
  const buf = Buffer.alloc(central ? 46 : 30);
  buf.writeUInt32LE(central ? 0x02014b50 : 0x04034b50, 0);
  const at = central ? 6 : 4;
  if (central) buf.writeUInt16LE(20, 4);
  buf.writeUInt16LE(20, at);
  buf.writeUInt16LE(0x0800, at + 2);
  buf.writeUInt16LE(file.method, at + 4);
  buf.writeUInt16LE(file.time, at + 6);
  buf.writeUInt16LE(file.date, at + 8);
  buf.writeUInt32LE(file.crc, at + 10);
  buf.writeUInt32LE(file.compressed, at + 14);
  buf.writeUInt32LE(file.size, at + 18);
  buf.writeUInt16LE(file.nameLength, at + 22);
  if (central) buf.writeUInt32LE(offset, 42);
  return buf;
}

/** The archive of `entries`, every file dated `at`. Throws on a repeated or unsafe name. */
export function zip(entries: readonly ZipEntry[], at = new Date()): Uint8Array {
  const seen = new Set<string>();
  const { time, date } = dosTime(at);
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    if (seen.has(entry.name) || entry.name.startsWith('/') || entry.name.split('/').includes('..')) throw new Error(`bad archive name ${entry.name}`);
    seen.add(entry.name);
    const name = Buffer.from(entry.name, 'utf8');
    const data = typeof entry.content === 'string' ? Buffer.from(entry.content, 'utf8') : Buffer.from(entry.content);
    const deflated = deflateRawSync(data);
    const stored = deflated.length >= data.length;
    const body = stored ? data : deflated;
    const file = { method: stored ? 0 : 8, time, date, crc: crc32(data), compressed: body.length, size: data.length, nameLength: name.length };
    const local = header(file);
    locals.push(local, name, body);
    central.push(header(file, offset), name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

/** The file names of an archive `zip` wrote, in order (read from its central directory). */
export function zipNames(archive: Uint8Array): string[] {
  const buf = Buffer.from(archive);
  const end = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('not a zip archive');
  const count = buf.readUInt16LE(end + 10);
  let at = buf.readUInt32LE(end + 16);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    if (buf.readUInt32LE(at) !== 0x02014b50) throw new Error('broken central directory');
    const nameLength = buf.readUInt16LE(at + 28);
    const extra = buf.readUInt16LE(at + 30);
    const comment = buf.readUInt16LE(at + 32);
    names.push(buf.toString('utf8', at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extra + comment;
  }
  return names;
}
