/**
 * A TCP proxy for fault tests: stands between the app and a service (PostgreSQL, Redis) and can cut
 * every open connection and refuse new ones for a while, as a restarted or unreachable service would.
 * Test-only: nothing in the app imports it.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpProxy {
  /** The proxy's port on 127.0.0.1. */
  readonly port: number;
  /** Connections currently passed through. */
  readonly open: number;
  /** Connections passed through so far. */
  readonly accepted: number;
  /** Connections refused or swallowed so far (attempts made while cut or hanging). */
  readonly refused: number;
  /** Resets every open connection and refuses new ones until `restore()`. */
  cut(): void;
  /**
   * Resets every open connection and swallows new ones until `restore()`: they are accepted and
   * then never answered, as behind a network that drops packets.
   */
  hang(): void;
  /**
   * Keeps every open connection but stops passing data either way, and swallows new ones, until
   * `restore()`: a peer that is there but no longer answers.
   */
  stall(): void;
  /** Passes connections through again (swallowed ones are reset, stalled ones flow again). */
  restore(): void;
  /** Resets everything and stops listening. */
  close(): Promise<void>;
}

/** Starts a proxy on a free port of 127.0.0.1 forwarding to `target`. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<[Socket, Socket]>();
  const held = new Set<Socket>();
  let refusing = false;
  let hanging = false;
  let accepted = 0;
  let refused = 0;
  const reset = (s: Socket) => (s.destroyed ? undefined : s.resetAndDestroy());
  const server: Server = createServer((client) => {
    if (hanging) {
      refused++;
      client.on('error', () => undefined).on('close', () => held.delete(client));
      held.add(client);
      return;
    }
    if (refusing) {
      refused++;
      client.on('error', () => undefined);
      reset(client);
      return;
    }
    accepted++;
    const upstream = connect(target.port, target.host);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      reset(client);
      reset(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const cutAll = () => {
    for (const [a, b] of [...pairs]) {
      reset(a);
      reset(b);
    }
    pairs.clear();
  };
  const setFlowing = (flowing: boolean) => {
    for (const [a, b] of pairs) {
      if (flowing) {
        a.pipe(b);
        b.pipe(a);
      } else {
        a.unpipe(b);
        b.unpipe(a);
        a.pause();
        b.pause();
      }
    }
  };
  let stalled = false;
  const releaseHeld = () => {
    for (const s of held) reset(s);
    held.clear();
  };
  return {
    port,
    get open() {
      return pairs.size;
    },
    get accepted() {
      return accepted;
    },
    get refused() {
      return refused;
    },
    cut() {
      refusing = true;
      cutAll();
    },
    hang() {
      hanging = true;
      cutAll();
    },
    stall() {
      hanging = true;
      stalled = true;
      setFlowing(false);
    },
    restore() {
      refusing = false;
      hanging = false;
      releaseHeld();
      if (stalled) setFlowing(true);
      stalled = false;
    },
    close() {
      refusing = true;
      hanging = false;
      cutAll();
      releaseHeld();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port on 127.0.0.1 where nothing listens (taken from the system, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
