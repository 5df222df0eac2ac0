/**
 * A ZIP writer that streams: small files given whole are deflated; large ones (videos, PDFs) are read
 * chunk by chunk from their source and stored as they are (media are compressed already), their checksum
 * and size written after them in a data descriptor. At most one chunk of a file is in memory at a time.
 * Names are UTF-8 (flag bit 11). No ZIP64: each file and the whole archive stay under 4 GiB.
 */
import { crc32, deflateRawSync } from 'node:zlib';

/** A file of the archive: its bytes whole (small, deflated), or a source read once when its turn comes (stored). */
export interface StreamEntry {
  name: string;
  content: Uint8Array | string | (() => Promise<AsyncIterable<Uint8Array>>);
}

const LIMIT = 0xffffffff;

function dosTime(at: Date): { time: number; date: number } {
  return {
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | Math.floor(at.getUTCSeconds() / 2),
    date: (Math.max(0, at.getUTCFullYear() - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
  };
}

interface Header {
  flags: number;
  method: number;
  crc: number;
  compressed: number;
  size: number;
  name: Buffer;
}

/** A local header (30 bytes + name) or, given `offset`, a central directory record (46 bytes + name). */
function header(h: Header, time: number, date: number, offset?: number): Buffer {
  const central = offset !== undefined;
  const buf = Buffer.alloc(central ? 46 : 30);
  buf.writeUInt32LE(central ? 0x02014b50 : 0x04034b50, 0);
  const at = central ? 6 : 4;
  if (central) buf.writeUInt16LE(20, 4);
  buf.writeUInt16LE(20, at);
  buf.writeUInt16LE(h.flags, at + 2);
  buf.writeUInt16LE(h.method, at + 4);
  buf.writeUInt16LE(time, at + 6);
  buf.writeUInt16LE(date, at + 8);
  buf.writeUInt32LE(h.crc, at + 10);
  buf.writeUInt32LE(h.compressed, at + 14);
  buf.writeUInt32LE(h.size, at + 18);
  buf.writeUInt16LE(h.name.length, at + 22);
  if (central) buf.writeUInt32LE(offset, 42);
  return Buffer.concat([buf, h.name]);
}

/** The archive of `entries`, chunk by chunk. Throws on a repeated or unsafe name, or a file over 4 GiB. */
export async function* zipStream(entries: Iterable<StreamEntry>, at = new Date()): AsyncGenerator<Uint8Array> {
  const { time, date } = dosTime(at);
  const seen = new Set<string>();
  const central: Buffer[] = [];
  let offset = 0;
  let count = 0;
  for (const entry of entries) {
    if (seen.has(entry.name) || entry.name.startsWith('/') || entry.name.split('/').includes('..')) throw new Error(`bad archive name ${entry.name}`);
    seen.add(entry.name);
    const name = Buffer.from(entry.name, 'utf8');
    if (typeof entry.content === 'function') {
      const h: Header = { flags: 0x0808, method: 0, crc: 0, compressed: 0, size: 0, name };
      const local = header(h, time, date);
      yield local;
      let crc = 0;
      let size = 0;
      for await (const chunk of await entry.content()) {
        crc = crc32(chunk, crc);
        size += chunk.length;
        if (size > LIMIT) throw new Error(`file too large for the archive: ${entry.name}`);
        yield chunk;
      }
      const descriptor = Buffer.alloc(16);
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(crc >>> 0, 4);
      descriptor.writeUInt32LE(size, 8);
      descriptor.writeUInt32LE(size, 12);
      yield descriptor;
      central.push(header({ ...h, crc: crc >>> 0, compressed: size, size }, time, date, offset));
      offset += local.length + size + descriptor.length;
    } else {
      const data = typeof entry.content === 'string' ? Buffer.from(entry.content, 'utf8') : Buffer.from(entry.content);
      const deflated = deflateRawSync(data);
      const stored = deflated.length >= data.length;
      const body = stored ? data : deflated;
      const h: Header = { flags: 0x0800, method: stored ? 0 : 8, crc: crc32(data) >>> 0, compressed: body.length, size: data.length, name };
      const local = header(h, time, date);
      yield local;
      yield body;
      central.push(header(h, time, date, offset));
      offset += local.length + body.length;
    }
    count++;
    if (offset > LIMIT || count > 0xfffe) throw new Error('archive too large');
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  yield directory;
  yield end;
}
