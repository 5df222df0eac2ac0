/**
 * The browser code every page ships (the layout and the components it renders: the header's islands,
 * the notices' and session's scripts …) and the home page's (its welcome modal's code form on a guest's
 * first visit) stays light: it must not bring the schema library (88 KB) or the video player's streaming
 * library along. The islands and scripts are found in the components themselves, and their static
 * imports followed through the source, as the bundler does.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = resolve('src');
const PAGES = ['layouts/BaseLayout.astro', 'components/home/HomePage.astro'];
const HEAVY = ['zod', 'hls.js'];

const name = (file: string) => file.slice(src.length + 1);

function resolveLocal(from: string, spec: string): string | null {
  const base = spec.startsWith('~/') ? join(src, spec.slice(2)) : resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) if (/\.(tsx?|astro)$/.test(candidate) && existsSync(candidate)) return candidate;
  return null;
}

/** The modules `code` (in `file`) imports for what it runs: type-only imports left out. */
function importsOf(code: string): string[] {
  return [...code.matchAll(/^\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm)].filter((m) => !m[1]).map((m) => m[2]!);
}

/**
 * What an .astro component and the components it renders send to the browser: the islands it hydrates
 * (`<X client:…>`) and the code of its bundled `<script>` tags, each as [where, code].
 */
function browserCode(file: string, seen = new Set<string>()): [string, string][] {
  if (seen.has(file)) return [];
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  const frontmatter = /^---\n([\s\S]*?)\n---/.exec(text)?.[1] ?? '';
  const imported = new Map([...frontmatter.matchAll(/^import\s+(\w+)\s+from\s+['"]([^'"]+)['"]/gm)].map((m) => [m[1]!, m[2]!]));
  const code: [string, string][] = [];
  for (const [, tag] of text.matchAll(/<(\w+)\s[^>]*?\bclient:\w+/g)) {
    const island = imported.get(tag!) && resolveLocal(file, imported.get(tag!)!);
    if (island) code.push([name(island), readFileSync(island, 'utf8')]);
  }
  for (const [, attributes, body] of text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) if (!/is:inline/.test(attributes!)) code.push([`${name(file)} <script>`, body!]);
  for (const spec of importsOf(frontmatter)) {
    const component = spec.endsWith('.astro') ? resolveLocal(file, spec) : null;
    if (component) code.push(...browserCode(component, seen));
  }
  return code;
}

/** The packages `code` reaches through its static imports, with one path to each. */
function packagesReached(where: string, code: string, origin: string): Map<string, string[]> {
  const reached = new Map<string, string[]>();
  const seen = new Set<string>();
  const walk = (from: string, text: string, path: string[]) => {
    for (const spec of importsOf(text)) {
      if (spec.startsWith('.') || spec.startsWith('~/')) {
        const next = resolveLocal(from, spec);
        if (next && !seen.has(next)) {
          seen.add(next);
          walk(next, readFileSync(next, 'utf8'), [...path, name(next)]);
        }
      } else if (!spec.startsWith('astro:')) {
        const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
        if (!reached.has(pkg)) reached.set(pkg, path);
      }
    }
  };
  walk(origin, code, [where]);
  return reached;
}

const shipped = PAGES.flatMap((page) => browserCode(join(src, page)).map(([where, code]) => ({ page, where, code })));

describe('the browser code on every page and on the home page', () => {
  it('is found in the components: the header islands, the layout’s scripts, the welcome modal’s code form', () => {
    const where = shipped.map((s) => s.where);
    for (const island of ['islands/HeaderSearch.tsx', 'islands/UserMenu.tsx', 'islands/MiniCart.tsx', 'islands/IboCodeForm.tsx']) expect(where).toContain(island);
    expect(where.filter((w) => w.endsWith('<script>')).length).toBeGreaterThan(2);
  });

  it('reaches neither the schema library nor the streaming library', () => {
    for (const { page, where, code } of shipped) {
      const origin = where.endsWith('<script>') ? join(src, where.replace(' <script>', '')) : join(src, where);
      const reached = packagesReached(where, code, origin);
      for (const heavy of HEAVY) expect(reached.get(heavy), `${page}: ${heavy} through ${reached.get(heavy)?.join(' → ')}`).toBeUndefined();
    }
  });

  it('the walk finds the schema library where it is used, through an island’s imports', () => {
    const form = join(src, 'islands/ProspectForm.tsx');
    expect(packagesReached('islands/ProspectForm.tsx', readFileSync(form, 'utf8'), form).get('zod')).toBeDefined();
    expect(packagesReached('islands/IboCodeForm.tsx', readFileSync(join(src, 'islands/IboCodeForm.tsx'), 'utf8'), join(src, 'islands/IboCodeForm.tsx')).has('react')).toBe(true);
  });
});
