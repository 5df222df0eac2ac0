// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import { realtimeDev } from './src/integrations/realtime.ts';
import { precompressAssets } from './src/integrations/precompress.ts';
import { CSP_DIRECTIVES, STYLE_SOURCES } from './src/lib/http/security.ts';
import { BUNDLED_PACKAGES } from './scripts/bundle-packages.mjs';

/**
 * The browser code every page runs (React and React DOM for the header's islands, the stores, paths and
 * formatting those islands share) goes to one file. Split as the bundler likes, it came in 17 files, most
 * under 2 KB: the catalogue page asked for 23 scripts (252 KB), now 10 (the same bytes), and the browser
 * spends less on a first visit (fresh browser contexts loading the login, catalogue and home pages 90 times,
 * runs side by side: Chromium's processor time 32.5 → 27.8 s, medians of 4 and 3 runs). `server/page-scripts.test.ts`
 * holds it. Only modules every page needs are named: a group brings its modules' imports along, so naming a
 * module the forms use would put the schema library in every page's file.
 */
const EVERY_PAGE = /\/node_modules\/(react|react-dom|scheduler|nanostores|@nanostores\/[^/]+|@astrojs\/react)\/|\/src\/lib\/(stores\/(identity|cart|keys|announcer)|paths|http\/session-guard|forms\/characters)\.ts$|\/src\/i18n\/(plural|format|locales)\.ts$/;

export default defineConfig({
  // No `site`: absolute URLs (canonical, Open Graph, sitemap, e-mail links) come from one rule read at
  // run time (`src/lib/http/public-origin.ts`: PUBLIC_URL, else an allowed host), so the build needs no PUBLIC_URL.
  // Every page is rendered by the server (none at build time, so the build needs no database): pages the
  // same for everyone with the same access are kept in the page cache, keyed by the catalogue's version,
  // so menus and course lists follow the live catalogue without a rebuild.
  output: 'server',
  // Whole pages are rendered before they are sent: pages set their status and cache flags from
  // components, and catalogue pages are small and mostly served from the page cache anyway.
  // `staticHeaders`: each prerendered page's Content-Security-Policy goes to `dist/_headers.json`,
  // which our server sends as a header (on-demand pages get theirs from Astro directly).
  adapter: node({ mode: 'middleware', experimentalDisableStreaming: true, staticHeaders: true }),
  integrations: [react(), realtimeDev(), precompressAssets()],
  security: {
    // Cross-site changes are refused by our middleware for every method and body type (not only forms),
    // with the message in the visitor's language; Astro's own form-only check would answer first, in English.
    checkOrigin: false,
    // The largest action request read (a profile photo of at most 5 MB and its form; `src/lib/identity/photo.ts`):
    // a longer body is refused by its Content-Length, or as soon as that many bytes arrived, never read whole.
    actionBodySizeLimit: 5 * 1024 * 1024 + 64 * 1024,
    // Lets Astro read X-Forwarded-Proto (the request's scheme, hence Secure cookies) and X-Forwarded-For.
    // Our server (server/app.ts) decides whether those headers are believed: without TRUST_PROXY it
    // removes them before Astro runs, and it refuses any Host that is not allowed.
    allowedDomains: [{ protocol: 'http' }, { protocol: 'https' }],
    // Scripts run only from our files or with their hash listed (Astro hashes its own inline scripts;
    // the layout adds the boot script's). Styles keep 'unsafe-inline' for style attributes.
    csp: { algorithm: 'SHA-256', directives: [...CSP_DIRECTIVES], styleDirective: { resources: [...STYLE_SOURCES] } },
  },
  i18n: {
    locales: ['es', 'en'],
    defaultLocale: 'es',
    // English pages are the same page files rendered in English (one file per route, no copies).
    fallback: { en: 'es' },
    routing: { prefixDefaultLocale: false, fallbackType: 'rewrite' },
  },
  vite: {
    resolve: { alias: { '~': new URL('./src', import.meta.url).pathname } },
    // Compiled into the server's chunks instead of loaded from node_modules at each start (the reason,
    // and the same list for the server's own bundle: scripts/bundle-packages.mjs).
    ssr: { noExternal: BUNDLED_PACKAGES },
    environments: {
      client: {
        build: { rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'base', test: (id) => EVERY_PAGE.test(id.replaceAll('\\', '/')) }] } } } },
      },
    },
  },
});
