/** Helpers for the archive tests: a whole zip from the streaming writer, and hostile changes to one. */
import { zipStream, type StreamEntry } from '../zip/zip';

/** The bytes `zipStream` writes for `entries`. */
export async function zipBytes(entries: StreamEntry[]): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const part of zipStream(entries, new Date('2026-01-02T03:04:05Z'))) parts.push(part);
  return Buffer.concat(parts);
}

/** Where the central directory's record of entry `index` starts. */
export function centralRecord(zip: Buffer, index: number): number {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let at = zip.readUInt32LE(end + 16);
  for (let i = 0; i < index; i++) at += 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  return at;
}

/** The archive with every occurrence of the name `from` renamed `to` (same length: offsets stay right). */
export function renamed(zip: Buffer, from: string, to: string): Buffer {
  if (Buffer.byteLength(from) !== Buffer.byteLength(to)) throw new Error('same length only');
  const out = Buffer.from(zip);
  const needle = Buffer.from(from);
  for (let at = out.indexOf(needle); at >= 0; at = out.indexOf(needle, at + 1)) Buffer.from(to).copy(out, at);
  return out;
}
