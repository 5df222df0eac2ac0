/**
 * The one ZIP writer. Small files given whole are deflated (or stored when deflating does not help);
 * large ones (videos, PDFs) are read chunk by chunk from their source and stored as they are (media
 * are compressed already), their checksum and size written after them in a data descriptor, so at most
 * one chunk of a file is in memory at a time. Names are UTF-8 (flag bit 11). No ZIP64: each file and
 * the whole archive stay under 4 GiB. `zip` builds an archive of whole files in memory; `zipStream`
 * yields one chunk by chunk. No dependency beyond `node:zlib` (its `crc32` too).
 */
import { crc32, deflateRawSync } from 'node:zlib';

/** A file of the archive given whole: its path inside the archive (`/` separates folders) and its bytes. */
export interface ZipEntry {
  name: string;
  content: Uint8Array | string;
}

/** A file of a streamed archive: its bytes whole (deflated), or a source read once when its turn comes (stored). */
export interface StreamEntry {
  name: string;
  content: Uint8Array | string | (() => Promise<AsyncIterable<Uint8Array>>);
}

const LIMIT = 0xffffffff;

/** What a file's local header and its central directory record both say. */
interface Header {
  /** 0x0800: UTF-8 names; 0x0808: and sizes in a data descriptor after the data. */
  flags: number;
  /** 0 stored, 8 deflated. */
  method: number;
  crc: number;
  compressed: number;
  size: number;
  name: Buffer;
}

/**
 * The archive being written: it checks each name, writes each header, counts the offsets, and at the
 * end writes the central directory. Version 2.0, no extra fields or comments, every file dated `at`
 * (DOS date and time from the UTC fields, two-second precision).
 */
class ZipWriter {
  private readonly time: number;
  private readonly date: number;
  private readonly seen = new Set<string>();
  private readonly central: Buffer[] = [];
  private offset = 0;

  constructor(at: Date) {
    this.time = (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | Math.floor(at.getUTCSeconds() / 2);
    this.date = (Math.max(0, at.getUTCFullYear() - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate();
  }

  /** The name's bytes; throws on a repeated name, an absolute one or one that climbs out (`..`). */
  name(name: string): Buffer {
    if (this.seen.has(name) || name.startsWith('/') || name.split('/').includes('..')) throw new Error(`bad archive name ${name}`);
    this.seen.add(name);
    return Buffer.from(name, 'utf8');
  }

  /** A local header (30 bytes + name) or, given `offset`, a central directory record (46 bytes + name). */
  private header(h: Header, offset?: number): Buffer {
    const central = offset !== undefined;
    const buf = Buffer.alloc(central ? 46 : 30);
    buf.writeUInt32LE(central ? 0x02014b50 : 0x04034b50, 0);
    const at = central ? 6 : 4;
    if (central) buf.writeUInt16LE(20, 4);
    buf.writeUInt16LE(20, at);
    buf.writeUInt16LE(h.flags, at + 2);
    buf.writeUInt16LE(h.method, at + 4);
    buf.writeUInt16LE(this.time, at + 6);
    buf.writeUInt16LE(this.date, at + 8);
    buf.writeUInt32LE(h.crc, at + 10);
    buf.writeUInt32LE(h.compressed, at + 14);
    buf.writeUInt32LE(h.size, at + 18);
    buf.writeUInt16LE(h.name.length, at + 22);
    if (central) buf.writeUInt32LE(offset, 42);
    return Buffer.concat([buf, h.name]);
  }

  /** Records a file written at the current offset, `length` bytes in all, and moves past it. */
  private written(h: Header, length: number) {
    this.central.push(this.header(h, this.offset));
    this.offset += length;
    if (this.offset > LIMIT || this.central.length > 0xfffe) throw new Error('archive too large');
  }

  /** A file given whole: its local header and its (deflated or stored) bytes. */
  whole(entry: ZipEntry): Buffer[] {
    const name = this.name(entry.name);
    const data = typeof entry.content === 'string' ? Buffer.from(entry.content, 'utf8') : Buffer.from(entry.content);
    const deflated = deflateRawSync(data);
    const stored = deflated.length >= data.length;
    const body = stored ? data : deflated;
    const h: Header = { flags: 0x0800, method: stored ? 0 : 8, crc: crc32(data) >>> 0, compressed: body.length, size: data.length, name };
    const local = this.header(h);
    this.written(h, local.length + body.length);
    return [local, body];
  }

  /** A file read from `source` as it comes, stored: its local header, its chunks, then its data descriptor. */
  async *streamed(name: string, source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    const h: Header = { flags: 0x0808, method: 0, crc: 0, compressed: 0, size: 0, name: this.name(name) };
    const local = this.header(h);
    yield local;
    let crc = 0;
    let size = 0;
    for await (const chunk of source) {
      crc = crc32(chunk, crc);
      size += chunk.length;
      if (size > LIMIT) throw new Error(`file too large for the archive: ${name}`);
      yield chunk;
    }
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(crc >>> 0, 4);
    descriptor.writeUInt32LE(size, 8);
    descriptor.writeUInt32LE(size, 12);
    yield descriptor;
    this.written({ ...h, crc: crc >>> 0, compressed: size, size }, local.length + size + descriptor.length);
  }

  /** The central directory and its end record. */
  end(): Buffer[] {
    const directory = Buffer.concat(this.central);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.central.length, 8);
    end.writeUInt16LE(this.central.length, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(this.offset, 16);
    return [directory, end];
  }
}

/** The archive of `entries`, built in memory. Throws on a repeated or unsafe name. */
export function zip(entries: readonly ZipEntry[], at = new Date()): Uint8Array {
  const writer = new ZipWriter(at);
  const parts = entries.flatMap((e) => writer.whole(e));
  return new Uint8Array(Buffer.concat([...parts, ...writer.end()]));
}

/** The archive of `entries`, chunk by chunk. Throws on a repeated or unsafe name, or a file over 4 GiB. */
export async function* zipStream(entries: Iterable<StreamEntry>, at = new Date()): AsyncGenerator<Uint8Array> {
  const writer = new ZipWriter(at);
  for (const entry of entries) {
    const content = entry.content;
    if (typeof content === 'function') yield* writer.streamed(entry.name, await content());
    else yield* writer.whole({ name: entry.name, content });
  }
  yield* writer.end();
}

/** The file names of an archive, in order (read from its central directory). */
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
