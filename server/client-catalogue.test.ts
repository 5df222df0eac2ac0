/**
 * The browser's code does not carry the message catalogues (both languages, every section of the
 * site: 237 KB). Islands get their texts as props from the page; browser modules import `format` or
 * `Locale` from `~/i18n`, and the catalogues must be left out of their bundles (`src/i18n/assemble.ts`).
 * Read from the build (`npm run build`): what is left out is the bundler's decision, not the source's.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { en } from '../src/i18n/en';
import { es } from '../src/i18n/es';

const assets = resolve('dist/client/_astro');
const built = existsSync(assets);
if (!built) console.warn('The browser bundle test is skipped: it needs a build (`npm run build`).');

/** Every text of a catalogue, as a bundle would hold it. */
const texts = (tree: object): string[] => Object.values(tree).flatMap((v) => (typeof v === 'string' ? [v] : texts(v as object)));
/** Long texts only: a short one ("Guardar") may well be an island's own. */
const sample = [...texts(es), ...texts(en)].filter((t) => t.length >= 40 && !/[`\\]/.test(t));

describe.skipIf(!built)('the browser bundle', () => {
  it('holds none of the message catalogues', () => {
    expect(sample.length).toBeGreaterThan(1000);
    const chunks = readdirSync(assets).filter((f) => f.endsWith('.js'));
    expect(chunks.length).toBeGreaterThan(20);
    const carrying = chunks
      .map((f) => {
        const code = readFileSync(join(assets, f), 'utf8');
        return { chunk: f, texts: sample.filter((t) => code.includes(t)).length };
      })
      .filter((c) => c.texts > 0);
    expect(carrying).toEqual([]);
  });
});
