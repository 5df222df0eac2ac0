import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { books } from './catalogue';
import { readDemoCatalogue } from './demo-catalogue.server';

/** The pictures drawn by `scripts/make-catalog-images.ts`: one per course and book, small WebP files, no text (their drawing has none). */
describe('catalogue pictures', () => {
  it.each([
    ...readDemoCatalogue().map((c) => [c.archive.course.thumbnail.sitePath, 640, 360] as const),
    ...books.map((b) => [b.cover, 400, 600] as const),
  ])('%s is a small WebP of %i×%i', async (path, width, height) => {
    const file = join(process.cwd(), 'public', path);
    expect(existsSync(file)).toBe(true);
    const meta = await sharp(file).metadata();
    expect(meta).toMatchObject({ format: 'webp', width, height });
    expect(statSync(file).size).toBeLessThan(30_000);
  });
});
