import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { brotliWindow, compressBody, negotiate, precompress } from './compress.server';
import { useTempFolders } from '../testing/temp-folders';

const tempFolder = useTempFolders();

describe('negotiate (Accept-Encoding)', () => {
  it('prefers brotli, then gzip, and sends plain text to clients that ask for neither', () => {
    expect(negotiate('gzip, deflate, br, zstd')).toBe('br');
    expect(negotiate('gzip')).toBe('gzip');
    expect(negotiate('deflate')).toBeNull();
    expect(negotiate(undefined)).toBeNull();
    expect(negotiate('')).toBeNull();
  });
  it('honours refusals, weights and the wildcard', () => {
    expect(negotiate('br;q=0, gzip')).toBe('gzip');
    expect(negotiate('br;q=0, gzip;q=0')).toBeNull();
    expect(negotiate('*')).toBe('br');
    expect(negotiate('*, br;q=0')).toBe('gzip');
    expect(negotiate('BR;Q=0.5')).toBe('br');
    expect(negotiate('br;q=abc, gzip')).toBe('gzip');
  });
  it('chooses only among the copies that exist', () => {
    expect(negotiate('br, gzip', ['gzip'])).toBe('gzip');
    expect(negotiate('br', ['gzip'])).toBeNull();
    expect(negotiate(['gzip', 'br'])).toBe('br');
  });
});

describe('precompress', () => {
  it('writes brotli and gzip copies of text assets that decode to the original, and skips the rest', () => {
    const dir = tempFolder('academy-precompress-');
    mkdirSync(join(dir, '_astro'));
    const js = 'export const messages = ' + JSON.stringify(Array.from({ length: 400 }, (_, i) => `mensaje ${i}`)) + ';\n';
    writeFileSync(join(dir, '_astro/app.js'), js);
    writeFileSync(join(dir, 'tiny.css'), 'a{}');
    writeFileSync(join(dir, 'photo.webp'), Buffer.alloc(4096, 7));
    const result = precompress(dir);
    expect(result.files).toBe(1);
    expect(result.after).toBeLessThan(result.before / 3);
    expect(brotliDecompressSync(readFileSync(join(dir, '_astro/app.js.br'))).toString()).toBe(js);
    expect(gunzipSync(readFileSync(join(dir, '_astro/app.js.gz'))).toString()).toBe(js);
    expect(existsSync(join(dir, 'tiny.css.br'))).toBe(false);
    expect(existsSync(join(dir, 'photo.webp.br'))).toBe(false);
  });
});

describe('compressBody', () => {
  it('compresses a kept page either way and round-trips', async () => {
    const html = '<p>hola</p>'.repeat(500);
    expect(brotliDecompressSync(await compressBody(html, 'br')).toString()).toBe(html);
    expect(gunzipSync(await compressBody(html, 'gzip')).toString()).toBe(html);
  });

  it('sizes the brotli window to the page (16 to 22 bits) and still round-trips pages larger than the smallest window', async () => {
    expect(brotliWindow(0)).toBe(16);
    expect(brotliWindow(35_000)).toBe(16);
    expect(brotliWindow(70_000)).toBe(17);
    expect(brotliWindow(50_000_000)).toBe(22);
    const big = Array.from({ length: 20_000 }, (_, i) => `<li>curso ${i} · ñandú</li>`).join('');
    expect(brotliDecompressSync(await compressBody(big, 'br')).toString()).toBe(big);
  });
});
