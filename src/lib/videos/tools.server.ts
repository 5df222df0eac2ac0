/**
 * ffprobe and ffmpeg as child processes (the binaries of `@ffprobe-installer` and `@ffmpeg-installer`,
 * made executable if an unpacking lost the bit). Transcodes run at a lower priority than the site, and
 * never outlive it: on Linux each tool is started through util-linux's `setpriv --pdeathsig KILL`, so
 * the kernel kills it when this process dies, even by `kill -9` (no code of ours runs then).
 */
import { spawn } from 'node:child_process';
import { accessSync, chmodSync, constants, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import { readProgress } from './videos';

const require = createRequire(import.meta.url);
let paths: { ffmpeg: string; ffprobe: string } | null = null;

function executable(path: string): string {
  try {
    accessSync(path, constants.X_OK);
  } catch {
    chmodSync(path, 0o755);
  }
  return path;
}

/** The paths of the ffmpeg and ffprobe binaries, checked executable. */
export function toolPaths(): { ffmpeg: string; ffprobe: string } {
  paths ??= {
    ffmpeg: executable((require('@ffmpeg-installer/ffmpeg') as { path: string }).path),
    ffprobe: executable((require('@ffprobe-installer/ffprobe') as { path: string }).path),
  };
  return paths;
}

/** `setpriv` of util-linux when this machine has it (Linux), which makes a child die with its parent. */
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => process.platform === 'linux' && existsSync(p)) ?? null;

/** The command and arguments that run `tool args` so that it is killed when this process dies (where the system allows it). */
export function boundToParent(tool: string, args: readonly string[]): [string, string[]] {
  return SETPRIV ? [SETPRIV, ['--pdeathsig', 'KILL', '--', tool, ...args]] : [tool, [...args]];
}

/** ffprobe's JSON description of a file, or null when ffprobe cannot read it (not media, truncated…). */
export function probeFile(file: string, timeoutMs = 30_000): Promise<unknown> {
  return new Promise((resolve) => {
    const child = spawn(...boundToParent(toolPaths().ffprobe, ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file]), { stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs });
    const out: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.resume();
    child.on('error', () => resolve(null));
    child.on('close', (code) => {
      if (code !== 0) return resolve(null);
      try {
        resolve(JSON.parse(Buffer.concat(out).toString('utf8')));
      } catch {
        resolve(null);
      }
    });
  });
}

/** A running ffmpeg: its end, and a way to stop it. */
export interface FfmpegRun {
  done: Promise<void>;
  kill(): void;
}

/**
 * Runs ffmpeg with `args`; `onPercent` hears the percent of `durationSeconds` done (from `-progress
 * pipe:1`). Resolves when ffmpeg exits 0, rejects with the end of its error output otherwise.
 */
export function runFfmpeg(args: string[], opts: { durationSeconds?: number; onPercent?: (percent: number) => void; nice?: boolean } = {}): FfmpegRun {
  const child = spawn(...boundToParent(toolPaths().ffmpeg, args), { stdio: ['ignore', 'pipe', 'pipe'] });
  if (opts.nice !== false && child.pid) {
    try {
      setPriority(child.pid, 10);
    } catch {
      /* not allowed here: it runs at the site's priority */
    }
  }
  let errTail = '';
  let pending = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    pending += chunk;
    const cut = pending.lastIndexOf('\n');
    if (cut < 0) return;
    const { percent } = readProgress(pending.slice(0, cut), opts.durationSeconds ?? 0);
    pending = pending.slice(cut + 1);
    if (percent !== null) opts.onPercent?.(percent);
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    errTail = (errTail + chunk).slice(-2000);
  });
  const done = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => (code === 0 ? resolve() : reject(new Error(`ffmpeg ${signal ?? `exit ${code}`}: ${errTail.trim().split('\n').slice(-3).join(' | ')}`))));
  });
  return { done, kill: () => child.kill('SIGKILL') };
}
