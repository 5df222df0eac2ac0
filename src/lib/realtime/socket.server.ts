/**
 * The realtime socket (socket.io) shared by the production server and `astro dev`.
 * Progress-tracking events (`tracking`, `tracking play`, `tracking end`) are registered here.
 */
import type { Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';

const KEY = Symbol.for('academy.realtime');
type Holder = { [KEY]?: Server };

/** Attaches socket.io to an HTTP server (once per server) and returns it. */
export function attachRealtime(httpServer: HttpServer): Server {
  const holder = httpServer as HttpServer & Holder;
  if (holder[KEY]) return holder[KEY];
  const io = new Server(httpServer, {
    serveClient: false,
    // Same-origin only: the site and the socket share one host and port.
    cors: { origin: false },
    maxHttpBufferSize: 16 * 1024,
  });
  holder[KEY] = io;
  return io;
}
