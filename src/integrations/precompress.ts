/** After a build, writes brotli and gzip copies of the site's text assets for the static server. */
import type { AstroIntegration } from 'astro';
import { fileURLToPath } from 'node:url';
import { precompress } from '../lib/http/compress.server';

export function precompressAssets(): AstroIntegration {
  return {
    name: 'academy-precompress',
    hooks: {
      'astro:build:done': ({ dir, logger }) => {
        const { files, before, after } = precompress(fileURLToPath(dir));
        logger.info(`compressed ${files} files: ${Math.round(before / 1024)} KB → ${Math.round(after / 1024)} KB (brotli)`);
      },
    },
  };
}
