/**
 * The islands every page hydrates (the header's search, account menu and cart; the welcome modal's code
 * form on a guest's first visit) stay light: they must not bring the schema library (88 KB) or the video
 * player's streaming library along. Follows their static imports through the source, as the bundler does.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = resolve('src');
const ON_EVERY_PAGE = ['islands/HeaderSearch.tsx', 'islands/UserMenu.tsx', 'islands/MiniCart.tsx', 'islands/IboCodeForm.tsx'];
const HEAVY = ['zod', 'hls.js'];

function resolveLocal(from: string, spec: string): string | null {
  const base = spec.startsWith('~/') ? join(src, spec.slice(2)) : resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) if (existsSync(candidate) && candidate !== dirname(candidate) && /\.tsx?$/.test(candidate)) return candidate;
  return null;
}

/** The packages a module reaches through its static imports (type-only imports left out), with one path to each. */
function packagesReached(entry: string): Map<string, string[]> {
  const reached = new Map<string, string[]>();
  const seen = new Set<string>();
  const walk = (file: string, path: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm)) {
      if (m[1]) continue;
      const spec = m[2]!;
      const here = [...path, file.slice(src.length + 1)];
      if (spec.startsWith('.') || spec.startsWith('~/')) {
        const next = resolveLocal(file, spec);
        if (next) walk(next, here);
      } else if (!spec.startsWith('astro:')) {
        const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
        if (!reached.has(name)) reached.set(name, here);
      }
    }
  };
  walk(join(src, entry), []);
  return reached;
}

describe('the islands on every page', () => {
  it.each(ON_EVERY_PAGE)('%s reaches neither the schema library nor the streaming library', (entry) => {
    const reached = packagesReached(entry);
    expect(reached.has('react'), 'the walk follows imports').toBe(true);
    for (const heavy of HEAVY) expect(reached.get(heavy), `${heavy} through ${reached.get(heavy)?.join(' → ')}`).toBeUndefined();
  });

  it('the walk finds the schema library where it is used', () => {
    expect(packagesReached('islands/ProspectForm.tsx').get('zod')).toBeDefined();
  });
});
