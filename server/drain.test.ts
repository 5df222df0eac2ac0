/**
 * The graceful stop of one HTTP server (`drainable`), in this process: a request in flight is
 * answered with `Connection: close`, a request arriving on a kept-alive connection after the stop
 * began is still answered (and told the connection closes), a request the stop answers itself gets
 * its 503, the port is let go, and the stop ends once the last connection is gone.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { drainable } from './drain';

/** A raw keep-alive connection that collects what the server sends. */
function rawConnection(port: number): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (text += d));
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    socket.once('connect', () => resolve({ socket, received: () => text, closed }));
  });
}

const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n`;

describe('a graceful stop', () => {
  it('answers what was sent, tells kept-alive connections to close, then lets go', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let slowSeen = false;
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      if (req.url === '/slow') {
        slowSeen = true;
        void held.then(() => res.end('slow done'));
      } else res.end(`fast ${req.url}`);
    });
    const drain = drainable(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;

    const inFlight = await rawConnection(port);
    inFlight.socket.write(get('/slow'));
    const kept = await rawConnection(port);
    kept.socket.write(get('/first'));
    await expect.poll(() => kept.received()).toMatch(/fast \/first$/);
    expect(kept.received()).toMatch(/Connection: keep-alive/i);
    await expect.poll(() => slowSeen).toBe(true);

    let stopped = false;
    const stopping = drain.stop(10_000).then(() => (stopped = true));
    // Sent on the kept-alive connection right after the stop began: answered, and told it closes.
    kept.socket.write(get('/second'));
    await expect.poll(() => kept.received()).toMatch(/fast \/second$/);
    expect(kept.received().split('HTTP/1.1 ')[2]).toMatch(/Connection: close/i);
    await kept.closed;
    // The port is let go: a new connection is refused.
    await expect.poll(() => server.listening).toBe(false);
    const refused = await new Promise<string>((resolve) => {
      const probe = connect(port, '127.0.0.1');
      probe.once('connect', () => resolve('connected'));
      probe.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    });
    expect(refused).toBe('ECONNREFUSED');
    // The stop waits for the request in flight, which is answered in full.
    expect(stopped).toBe(false);
    release();
    await expect.poll(() => inFlight.received()).toMatch(/slow done$/);
    expect(inFlight.received()).toMatch(/Connection: close/i);
    await inFlight.closed;
    await stopping;
    expect(stopped).toBe(true);
  });

  it('answers a request it is told to refuse while stopping with a 503', async () => {
    const server = createServer((_req, res) => res.end('handled'));
    const drain = drainable(server, (req, res) => {
      if (req.url !== '/live') return false;
      res.writeHead(503, { 'Retry-After': '1' });
      res.end('come back');
      return true;
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const kept = await rawConnection(port);
    kept.socket.write(get('/first'));
    await expect.poll(() => kept.received()).toMatch(/handled$/);
    const stopping = drain.stop(10_000);
    kept.socket.write(get('/live'));
    await expect.poll(() => kept.received()).toMatch(/come back/);
    expect(kept.received()).toMatch(/HTTP\/1.1 503[\s\S]*Retry-After: 1[\s\S]*Connection: close/i);
    await stopping;
  });
});
