/**
 * Images for tests of uploads. An image bomb is a real PNG made by sharp whose header then claims far
 * more pixels than it holds: a few hundred bytes that would take gigabytes to decode. (sharp cannot
 * make one directly: it would have to encode every one of those pixels.)
 */
import { crc32 } from 'node:zlib';
import sharp from 'sharp';

/** Where a PNG's header chunk (IHDR, always the first) keeps its fields: width, height, and the CRC over type and data. */
const IHDR = { type: 12, width: 16, height: 20, crc: 29 } as const;

/** A PNG that says it is `width`×`height` pixels (its one real pixel is black). */
export async function imageBomb(width: number, height = width): Promise<Buffer> {
  const png = await sharp({ create: { width: 1, height: 1, channels: 3, background: { r: 0, g: 0, b: 0 } } })
    .png()
    .toBuffer();
  png.writeUInt32BE(width, IHDR.width);
  png.writeUInt32BE(height, IHDR.height);
  png.writeUInt32BE(crc32(png.subarray(IHDR.type, IHDR.crc)), IHDR.crc);
  return png;
}
