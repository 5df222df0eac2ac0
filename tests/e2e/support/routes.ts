/**
 * What the site serves, read from the source: the route of every file under `src/pages/` (with the
 * HTTP methods an endpoint exports) and the name of every Astro action under `src/actions/`. The
 * authorization matrix is checked against these lists, so a new page, endpoint or action that nobody
 * put in the matrix fails a test instead of shipping unreviewed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';

const ROOT = process.cwd();
const PAGES = join(ROOT, 'src/pages');
const ACTIONS = join(ROOT, 'src/actions');

export interface RouteFile {
  /** The file, relative to `src/pages` (`courses-details/[id].astro`). */
  file: string;
  /** Its route pattern (`/courses-details/[id]`, `/` for `index.astro`). */
  route: string;
  /** `page` for `.astro` files (rendered in Spanish and under `/en/`), `endpoint` for `.ts` files. */
  kind: 'page' | 'endpoint';
  /** For endpoints: the HTTP methods it exports (`ALL` answers every other one). */
  methods: string[];
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'ALL'];

/** The HTTP methods a `.ts` route exports (`export const GET`, `export const { GET, HEAD } = …`, `export function POST`). */
function exportedMethods(source: string): string[] {
  const found = new Set<string>();
  for (const m of source.matchAll(/export\s+(?:async\s+)?(?:const|function|let)\s+(\{[^}]*\}|\w+)/g)) {
    const names = m[1]!.startsWith('{') ? m[1]!.slice(1, -1).split(',').map((s) => s.split(':')[0]!.trim()) : [m[1]!];
    for (const n of names) if (METHODS.includes(n)) found.add(n);
  }
  return [...found].sort();
}

/** Every route file under `src/pages/`. */
export function routeFiles(): RouteFile[] {
  return walk(PAGES)
    .filter((f) => /\.(astro|ts|js|md|mdx|html)$/.test(f) && !/\.(test|spec)\.ts$/.test(f))
    .map((abs) => {
      const file = relative(PAGES, abs).split(sep).join('/');
      const kind = file.endsWith('.astro') || /\.(md|mdx|html)$/.test(file) ? 'page' : 'endpoint';
      const withoutExt = kind === 'page' ? file.replace(/\.(astro|md|mdx|html)$/, '') : file.replace(/\.(ts|js)$/, '');
      const route = `/${withoutExt}`.replace(/\/index$/, '') || '/';
      return { file, route, kind, methods: kind === 'endpoint' ? exportedMethods(readFileSync(abs, 'utf8')) : ['GET'] } satisfies RouteFile;
    })
    .sort((a, b) => a.route.localeCompare(b.route));
}

/** The route pattern a concrete locale-free path matches (`/courses-details/6` → `/courses-details/[id]`), or undefined. */
export function routeOf(path: string, routes: readonly RouteFile[]): string | undefined {
  const clean = path.split('?')[0]!.replace(/\/$/, '') || '/';
  const segs = clean.split('/').slice(1);
  const score = (r: RouteFile): number | null => {
    const parts = r.route.split('/').slice(1);
    if (r.route === '/') return clean === '/' ? 100 : null;
    let s = 0;
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      if (p.startsWith('[...')) return segs.length >= i + 1 ? s : null;
      const seg = segs[i];
      if (seg === undefined) return null;
      if (p.startsWith('[')) {
        // `[lang].vtt`: a parameter with a fixed suffix.
        const suffix = p.slice(p.indexOf(']') + 1);
        if (!seg.endsWith(suffix)) return null;
        s += 1;
      } else if (p === seg) s += 10;
      else return null;
    }
    return segs.length === parts.length ? s : null;
  };
  let best: { route: string; s: number } | undefined;
  for (const r of routes) {
    const s = score(r);
    if (s !== null && (!best || s > best.s)) best = { route: r.route, s };
  }
  return best?.route;
}

/**
 * Every Astro action (`auth.login`, `contact.send` …): each `name: action('area.name', …)` (the action
 * kit) or `name: defineAction(…)` in `src/actions/`, named by the objects around it (the `server` object
 * of `index.ts` is the root and adds nothing). Throws when the kit is given another name than the one
 * the action is served under (it would read another action's declaration).
 */
export function actionNames(): string[] {
  const names = new Set<string>();
  for (const abs of walk(ACTIONS).filter((f) => /\.ts$/.test(f) && !/\.test\.ts$/.test(f))) {
    const src = ts.createSourceFile(abs, readFileSync(abs, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node, path: string[]): void => {
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
        visit(node.initializer, node.name.text === 'server' ? [] : [node.name.text]);
        return;
      }
      if (ts.isPropertyAssignment(node) && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name))) {
        const key = node.name.text;
        const init = node.initializer;
        if (ts.isCallExpression(init) && ts.isIdentifier(init.expression) && (init.expression.text === 'defineAction' || init.expression.text === 'action')) {
          const name = [...path, key].join('.');
          const given = init.arguments[0];
          if (init.expression.text === 'action' && !(given && ts.isStringLiteral(given) && given.text === name)) {
            throw new Error(`${relative(ROOT, abs)}: the action served as ${name} is made with action(${given?.getText() ?? ''}): give the kit its own name`);
          }
          names.add(name);
          return;
        }
        visit(init, [...path, key]);
        return;
      }
      ts.forEachChild(node, (child) => visit(child, path));
    };
    visit(src, []);
  }
  return [...names].sort();
}
