// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import { realtimeDev } from './src/integrations/realtime.ts';
import { precompressAssets } from './src/integrations/precompress.ts';

export default defineConfig({
  // Absolute URLs (canonical, Open Graph, sitemap) use PUBLIC_URL when it is set.
  ...(process.env.PUBLIC_URL ? { site: process.env.PUBLIC_URL } : {}),
  output: 'static',
  // Whole pages are rendered before they are sent: pages set their status and cache flags from
  // components, and catalogue pages are small and mostly served from the page cache anyway.
  adapter: node({ mode: 'middleware', experimentalDisableStreaming: true }),
  integrations: [react(), realtimeDev(), precompressAssets()],
  // Cross-site changes are refused by our middleware for every method and body type (not only forms),
  // with the message in the visitor's language; Astro's own form-only check would answer first, in English.
  security: { checkOrigin: false },
  i18n: {
    locales: ['es', 'en'],
    defaultLocale: 'es',
    // English pages are the same page files rendered in English (one file per route, no copies).
    fallback: { en: 'es' },
    routing: { prefixDefaultLocale: false, fallbackType: 'rewrite' },
  },
  vite: {
    resolve: { alias: { '~': new URL('./src', import.meta.url).pathname } },
  },
});
