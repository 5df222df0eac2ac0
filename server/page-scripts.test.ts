/**
 * The script files a first visit asks for: the page's own (`<script type="module">`, its islands'
 * components and renderer) and every file those import before they run (static imports; a dynamic
 * `import()` is loaded later, when needed). The code every page needs comes as one file (the `base`
 * group of `astro.config.mjs`), and that file brings nothing a page does not need: not the schema
 * library the forms use, nor the video player's streaming library. Read from the build and its pages:
 * how the code is split is the bundler's decision. Skipped without a build (`npm run build`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, posix, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteBuilt, startBuiltSite, type BuiltSite } from './built-site.testing';

if (!siteBuilt) console.warn('The page script tests are skipped: they need a build (`npm run build`).');

const client = resolve('dist/client');

/** The files a page's HTML names to run at once: module scripts, and its islands' components and renderers. */
function named(html: string): string[] {
  const urls = [
    ...[...html.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]!),
    ...[...html.matchAll(/<astro-island\b[^>]*>/g)].flatMap((m) => [...m[0].matchAll(/\b(?:component|renderer)-url="([^"]+)"/g)].map((u) => u[1]!)),
  ];
  return [...new Set(urls.map((u) => new URL(u, 'http://site/').pathname))];
}

/** The static imports of a built file (`import … from"./x.js"`, `import"./x.js"`, `export … from"./x.js"`), as site paths. */
function importsOf(path: string): string[] {
  const code = readFileSync(join(client, path), 'utf8');
  const specs = [...code.matchAll(/(?:\bimport|\bexport)\s*(?:[\w${},*\s]*?\bfrom\s*)?["'](\.{1,2}\/[^"']+)["']/g)].map((m) => m[1]!);
  return specs.map((s) => posix.join(posix.dirname(path), s));
}

/** Every file a first visit of a page with `html` loads before its scripts run. */
function scriptFiles(html: string): string[] {
  const files = new Set<string>();
  const queue = named(html);
  while (queue.length) {
    const next = queue.shift()!;
    if (files.has(next)) continue;
    expect(existsSync(join(client, next)), `${next} is in the build`).toBe(true);
    files.add(next);
    queue.push(...importsOf(next));
  }
  return [...files];
}

const holding = (files: string[], text: string) => files.filter((f) => readFileSync(join(client, f), 'utf8').includes(text));

describe.skipIf(!siteBuilt)('the scripts a first visit loads', () => {
  let built: BuiltSite;

  beforeAll(async () => {
    built = await startBuiltSite();
  });

  afterAll(() => built?.close());

  const filesOf = async (path: string) => {
    const r = await built.get(path);
    expect(r.status, path).toBe(200);
    return scriptFiles(await r.text());
  };

  it('come in a handful of files, React and what every page shares in one of them', async () => {
    for (const path of ['/courses', '/en/courses', '/courses-details/1', '/books']) {
      const files = await filesOf(path);
      // The header's three islands, the page's scripts and the shared file: 23 files before they were grouped.
      expect(files.length, `${path}: ${files.join(', ')}`).toBeLessThanOrEqual(10);
      const react = holding(files, 'react.dev/errors');
      expect(react, `${path}: React comes in one file`).toHaveLength(1);
      expect(react[0], path).toMatch(/^\/_astro\/base\.[\w-]+\.js$/);
      for (const stray of ['/react.', '/react-dom.', '/paths.', '/identity.', '/atom.', '/plural.', '/format.']) expect(files.filter((f) => f.includes(stray)), `${path}: ${stray} is in the shared file`).toEqual([]);
    }
  });

  it('bring nothing a page does not use: no schema library and no video streaming library outside the pages that need them', async () => {
    for (const path of ['/', '/courses', '/en/books']) {
      const files = await filesOf(path);
      expect(holding(files, 'ZodError'), `${path}: the schema library`).toEqual([]);
      expect(holding(files, 'hls.js version'), `${path}: the streaming library`).toEqual([]);
    }
    // The login page's form does use the schema library: the test sees a library where it is.
    expect(holding(await filesOf('/login'), 'ZodError')).toHaveLength(1);
  });
});
