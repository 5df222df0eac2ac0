/**
 * The embedded database's folder has one owner at a time. The process that opens `<DATA_DIR>/pglite`
 * listens on a Unix socket beside it, `<DATA_DIR>/pglite.sock` (owner only), for as long as it keeps it
 * open: another process finds the socket answering and stops with a sentence instead of opening the
 * folder too (two database engines writing one folder corrupt it). A socket left by a process that was
 * killed answers nobody, and the next owner replaces it.
 *
 * Through the same socket the owner hands out a consistent copy of its database (PGlite's
 * `dumpDataDir`, taken between two queries, as the files are after a commit): `npm run backup` asks the
 * running server for one, so a backup never reads files the server is writing.
 */
import { chmodSync, unlinkSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { join, relative, resolve } from 'node:path';
import { ConfigError } from '../config/error';

/** What the owner of a data folder answers: its process id, and a copy of its database when asked. */
export interface FolderOwner {
  /** A tar of the data folder (`dumpDataDir`), or `null` when the owner has none to give (a restore in progress). */
  snapshot: (() => Promise<Blob>) | null;
}

/** A held data folder: `release` closes the socket (and removes its file). */
export interface HeldFolder {
  release(): Promise<void>;
}

/** The longest Unix socket path every platform accepts (Linux 107 bytes, macOS 103). */
const MAX_SOCKET_PATH = 103;

/** The socket of `dataDir`'s embedded database (relative to here when the absolute path is too long for a socket). */
export function folderSocket(dataDir: string): string {
  const absolute = join(resolve(dataDir), 'pglite.sock');
  if (Buffer.byteLength(absolute) <= MAX_SOCKET_PATH) return absolute;
  const near = relative(process.cwd(), absolute);
  if (Buffer.byteLength(near) <= MAX_SOCKET_PATH) return near;
  throw new ConfigError(`The data folder path ${resolve(dataDir)} is too long for the embedded database's socket: set DATA_DIR to a shorter path (under ${MAX_SOCKET_PATH - 12} characters).`);
}

/** One request to the owner: `who` (its pid) or `snapshot` (its pid and the copy's size, then the copy). */
type Request = 'who' | 'snapshot';
interface Answer {
  pid: number;
  bytes?: number;
  error?: string;
}

/**
 * Makes this process the owner of `dataDir`'s embedded database, or throws a ConfigError naming the
 * process that is (a server, a backup or a restore).
 */
export async function holdDataFolder(dataDir: string, owner: FolderOwner): Promise<HeldFolder> {
  const path = folderSocket(dataDir);
  const server = createServer((socket) => answer(socket, owner));
  server.on('error', () => undefined);
  for (let attempt = 1; ; attempt++) {
    try {
      await listen(server, path);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    }
    let other: { answer: Answer } | null = null;
    let code: string | undefined;
    try {
      other = await ask(path, 'who', WHO_TIMEOUT_MS);
    } catch (err) {
      code = (err as NodeJS.ErrnoException).code;
    }
    if (other) {
      throw new ConfigError(
        `The embedded database in ${resolve(dataDir)} is open in another process (pid ${other.answer.pid}: a server, a backup or a restore): stop it first, or use another DATA_DIR.`,
      );
    }
    if (code === 'ECONNREFUSED' || code === 'ENOENT') {
      // Left by a process that was killed: nobody answers on it.
      try {
        unlinkSync(path);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    } else if (attempt >= 5) {
      // Someone accepts on the socket but says nothing: a process still dying, or hung.
      throw new ConfigError(`The embedded database in ${resolve(dataDir)} is held by a process that does not answer on ${path}: stop it, then start again.`);
    } else {
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  chmodSync(path, 0o600);
  // Holding the folder does not keep a finished script running.
  server.unref();
  return {
    // The socket stops listening (and its file goes) at once; an answer under way finishes on its own.
    release: async () => {
      if (server.listening) server.close();
    },
  };
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolveListen, reject) => {
    const failed = (err: Error) => reject(err);
    server.once('error', failed);
    server.listen(path, () => {
      server.off('error', failed);
      resolveListen();
    });
  });
}

function answer(socket: Socket, owner: FolderOwner): void {
  socket.on('error', () => undefined);
  // A client that says nothing is let go.
  socket.setTimeout(10_000, () => socket.destroy());
  let line = '';
  const onData = (chunk: Buffer) => {
    line += chunk.toString('utf8');
    if (!line.includes('\n')) {
      if (line.length > 64) socket.destroy();
      return;
    }
    socket.off('data', onData);
    // Copying a large database takes a while: the wait is over once the request is in.
    socket.setTimeout(0);
    const request = line.slice(0, line.indexOf('\n')).trim();
    void reply(socket, request, owner);
  };
  socket.on('data', onData);
}

async function reply(socket: Socket, request: string, owner: FolderOwner): Promise<void> {
  const head = (a: Answer) => socket.write(`${JSON.stringify(a)}\n`);
  if (request === 'snapshot') {
    if (!owner.snapshot) {
      head({ pid: process.pid, error: 'busy' });
      socket.end();
      return;
    }
    try {
      const blob = await owner.snapshot();
      const copy = new Uint8Array(await blob.arrayBuffer());
      head({ pid: process.pid, bytes: copy.byteLength });
      socket.end(copy);
    } catch (err) {
      head({ pid: process.pid, error: (err as Error).message || 'the copy failed' });
      socket.end();
    }
    return;
  }
  head({ pid: process.pid });
  socket.end();
}

/** How long the owner has to say who it is. */
const WHO_TIMEOUT_MS = 2000;

/** Sends `request` to the socket at `path`; rejects when nobody listens there (or nobody answers within `timeoutMs`). */
function ask(path: string, request: Request, timeoutMs = 0): Promise<{ answer: Answer; body: Buffer }> {
  return new Promise((resolveAsk, reject) => {
    const socket = createConnection(path);
    if (timeoutMs > 0) socket.setTimeout(timeoutMs, () => socket.destroy(Object.assign(new Error('no answer'), { code: 'ETIMEDOUT' })));
    const chunks: Buffer[] = [];
    socket.on('connect', () => socket.write(`${request}\n`));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('end', () => {
      const all = Buffer.concat(chunks);
      const newline = all.indexOf(10);
      try {
        if (newline < 0) throw new Error('no answer');
        const answer = JSON.parse(all.subarray(0, newline).toString('utf8')) as Answer;
        resolveAsk({ answer, body: all.subarray(newline + 1) });
      } catch {
        reject(new Error(`the process holding the database gave no answer`));
      }
    });
  });
}

/**
 * A consistent copy (a tar) of `dataDir`'s embedded database from the process that has it open, or
 * `null` when no process has it open. A copy cut short, or refused, throws a ConfigError.
 */
export async function snapshotFromOwner(dataDir: string): Promise<{ pid: number; tar: Buffer } | null> {
  const path = folderSocket(dataDir);
  let got: { answer: Answer; body: Buffer };
  try {
    got = await ask(path, 'snapshot');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ECONNREFUSED') return null;
    throw new ConfigError(`Could not get a copy of the embedded database from the process holding it (${(err as Error).message}): try again.`);
  }
  const { answer, body } = got;
  if (answer.error === 'busy') throw new ConfigError(`The embedded database in ${resolve(dataDir)} is being restored by process ${answer.pid}: wait for it to finish.`);
  if (answer.error !== undefined) throw new ConfigError(`Process ${answer.pid}, which holds the embedded database, could not copy it (${answer.error}): try again.`);
  if (answer.bytes !== body.length) throw new ConfigError(`The copy of the embedded database from process ${answer.pid} was cut short: try again.`);
  return { pid: answer.pid, tar: body };
}
