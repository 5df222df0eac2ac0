/**
 * A graceful stop for the HTTP server: nothing a client already sent is dropped. Node's own
 * `server.close()` destroys every connection it counts as idle at once, and that includes connections
 * accepted but not yet read (under load, most of them): their requests, already sent, would be reset.
 * Here the stop lets the event loop take what is waiting first (connections in the accept queue, and
 * the requests on them), then stops listening, answers every request with `Connection: close`, closes
 * the connections that carry none, and resolves once the last one is gone (or the grace period is up).
 */
import { ServerResponse, type IncomingMessage, type Server } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/** How long a stop waits for requests in flight before cutting what is left (`SIGTERM`: the README's *Shutdown*). */
export const SHUTDOWN_GRACE_MS = 25_000;

export interface Drain {
  /** True once a stop began. */
  readonly draining: boolean;
  /** Stops listening, finishes every request received, closes the connections; resolves when none is left. */
  stop(graceMs?: number): Promise<void>;
}

/** One turn of the event loop: one poll for what the system holds for this process (connections, bytes sent). */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Resolves once the connections waiting in the system's accept queue are taken: the event loop takes
 * one per turn, so the queue is empty after two turns in a row took none. `accepted` counts them.
 */
export async function acceptWaiting(accepted: () => number): Promise<void> {
  for (let seen = -1, quiet = 0; quiet < 2; ) {
    quiet = accepted() === seen ? quiet + 1 : 0;
    seen = accepted();
    await turn();
  }
}

/**
 * Takes over the server's `request` and `upgrade` listeners (call it after everything that listens,
 * socket.io included, is attached). While stopping, `answerStopping(req, res)` may answer a request
 * itself (a new real-time connection: 503 with Retry-After) and return true; WebSocket upgrades are
 * refused with a 503 (the client comes back to the next server).
 */
export function drainable(server: Server, answerStopping: (req: IncomingMessage, res: ServerResponse) => boolean = () => false): Drain {
  let draining = false;
  const sockets = new Set<Socket>();
  let settled: (() => void) | null = null;
  let accepted = 0;
  server.on('connection', (socket: Socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      if (sockets.size === 0) settled?.();
    });
  });
  const onRequest = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  const onUpgrade = server.listeners('upgrade') as ((req: IncomingMessage, socket: Duplex, head: Buffer) => void)[];
  server.removeAllListeners('request');
  server.removeAllListeners('upgrade');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (draining) {
      // The connection closes after this answer: the client sends its next request elsewhere.
      res.shouldKeepAlive = false;
      if (answerStopping(req, res)) return;
    }
    for (const listener of onRequest) listener.call(server, req, res);
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // A new WebSocket while stopping would hold the stop until the grace period.
    if (draining) {
      socket.end('HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    for (const listener of onUpgrade) listener.call(server, req, socket, head);
  });

  let stopping: Promise<void> | null = null;
  return {
    get draining() {
      return draining;
    },
    stop: (graceMs = SHUTDOWN_GRACE_MS) =>
      (stopping ??= (async () => {
        draining = true;
        // Answers not yet begun say `Connection: close`; those begun close their connection once sent.
        // (Each connection's answer in progress is found through the connection, Node's own link to it:
        // a set of open answers, added to and deleted from on every request, made the set's table churn
        // into the old generation under load; `docs/benchmarks.md`, the ninth day's session.)
        for (const socket of sockets) {
          const res = (socket as Socket & { _httpMessage?: unknown })._httpMessage;
          if (res instanceof ServerResponse) res.shouldKeepAlive = false;
        }
        // Connections the system accepted before the stop are taken, then the port is let go (net's
        // close: http's would destroy at once the connections whose requests are not read yet).
        if (server.listening) await acceptWaiting(() => accepted);
        if (server.listening) NetServer.prototype.close.call(server);
        // The requests already sent on those connections are read…
        await turn();
        await turn();
        // …so a connection with no request begun now is idle (kept alive between requests): closed.
        server.closeIdleConnections();
        const sweep = setInterval(() => server.closeIdleConnections(), 250);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            // The grace period is over: whatever is left is cut.
            server.closeAllConnections();
            for (const socket of sockets) socket.destroy();
            resolve();
          }, graceMs);
          settled = () => {
            clearTimeout(timer);
            resolve();
          };
          if (sockets.size === 0) settled();
        });
        clearInterval(sweep);
      })()),
  };
}
