/**
 * A converted library video as one MP4 file, for a course archive: the highest rung of its HLS ladder is
 * read from the storage (its playlist, then each segment the playlist names) into a scratch folder, and
 * ffmpeg copies its streams into an MP4 (no re-encoding: seconds for a long video). Another academy
 * imports the MP4 as any video file.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Storage } from '../storage';
import { runFfmpeg } from './tools.server';
import { videoKeys } from './videos';

/** A segment name the worker writes (`seg-000.ts`); a playlist naming anything else is not read. */
const SEGMENT = /^seg-\d{3,6}\.ts$/;

/** The top rung's folder name of a ladder stored as `360,720`, or null when the ladder is empty or malformed. */
export function topRung(ladder: string | null): string | null {
  const heights = (ladder ?? '').split(',').map(Number).filter((h) => Number.isInteger(h) && h > 0);
  return heights.length ? `${Math.max(...heights)}p` : null;
}

/** The segment files an HLS media playlist names, in order; null when it names anything else. */
export function playlistSegments(playlist: string): string[] | null {
  const names = playlist
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  return names.length > 0 && names.every((n) => SEGMENT.test(n)) ? names : null;
}

async function readStored(storage: Storage, key: string): Promise<Buffer> {
  const got = await storage.get(key);
  if (!got) throw new Error(`stored file missing: ${key}`);
  return Buffer.concat(await Array.fromAsync(got.body as AsyncIterable<Buffer>));
}

/**
 * Writes the video `videoId`'s top rung as `<workDir>/video-<id>.mp4` and returns the file and its size.
 * Throws when a file is missing from the storage or ffmpeg fails (the caller removes `workDir`).
 */
export async function remuxToMp4(storage: Storage, video: { id: number; ladder: string | null }, workDir: string): Promise<{ file: string; sizeBytes: number }> {
  const rung = topRung(video.ladder);
  if (!rung) throw new Error(`video ${video.id} has no ladder`);
  const folder = join(workDir, `video-${video.id}`);
  await mkdir(folder, { recursive: true });
  const playlist = await readStored(storage, `${videoKeys.folder(video.id)}${rung}/index.m3u8`);
  const segments = playlistSegments(playlist.toString('utf8'));
  if (!segments) throw new Error(`video ${video.id}: its ${rung} playlist names unexpected files`);
  await writeFile(join(folder, 'index.m3u8'), playlist);
  for (const segment of segments) {
    const got = await storage.get(`${videoKeys.folder(video.id)}${rung}/${segment}`);
    if (!got) throw new Error(`stored file missing: video ${video.id} ${rung}/${segment}`);
    await pipeline(got.body as AsyncIterable<Uint8Array>, createWriteStream(join(folder, segment)));
  }
  const file = join(workDir, `video-${video.id}.mp4`);
  await runFfmpeg(['-hide_banner', '-nostdin', '-y', '-i', join(folder, 'index.m3u8'), '-map', '0', '-c', 'copy', '-bsf:a', 'aac_adtstoasc', '-movflags', '+faststart', '-f', 'mp4', file]).done;
  return { file, sizeBytes: (await stat(file)).size };
}
