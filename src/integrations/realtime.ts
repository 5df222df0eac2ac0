/** Attaches the realtime socket to `astro dev`'s own HTTP server, so development matches production. */
import type { AstroIntegration } from 'astro';
import type { Server as HttpServer } from 'node:http';
import { attachRealtime } from '../lib/realtime/socket.server';

export function realtimeDev(): AstroIntegration {
  return {
    name: 'academy-realtime',
    hooks: {
      'astro:server:setup': ({ server }) => {
        // Null under Vitest and in middleware-only Vite servers: nothing to attach to.
        if (server.httpServer) attachRealtime(server.httpServer as HttpServer);
      },
    },
  };
}
