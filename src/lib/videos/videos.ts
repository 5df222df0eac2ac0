/**
 * The rules of the video library, pure: what a probed file must be to be accepted, the HLS ladder made
 * of it (never above the source), the ffmpeg arguments, reading ffmpeg's `-progress` lines, the title
 * kept of a file name, and the storage keys of a video's outputs.
 */
import { z } from '../zod';

/** The rungs of the HLS ladder: height and video bitrate (kbit/s). */
export const LADDER = [
  { height: 360, videoKbps: 800 },
  { height: 720, videoKbps: 2800 },
] as const;

/** Audio of every rung. */
export const AUDIO_KBPS = 128;
/** Seconds of each HLS segment. */
export const SEGMENT_SECONDS = 6;

/** The limits of an accepted video. */
export const PROBE_LIMITS = {
  minSeconds: 0.5,
  maxSeconds: 6 * 3600,
  minSide: 16,
  maxSide: 7680,
  maxPixels: 7680 * 4320,
} as const;

/** Why a probed file is refused (keys of the `videos.failures` messages). */
export type ProbeFailure = 'notVideo' | 'noVideoStream' | 'badDimensions' | 'badDuration' | 'unreadable';

/** What the academy keeps of a probed file. */
export interface ProbeFacts {
  durationSeconds: number;
  width: number;
  height: number;
  hasAudio: boolean;
}

/** The part of `ffprobe -print_format json -show_format -show_streams` read here. */
const probeSchema = z.object({
  streams: z
    .array(
      z.object({
        codec_type: z.string().optional(),
        width: z.number().optional(),
        height: z.number().optional(),
        duration: z.string().optional(),
        disposition: z.object({ attached_pic: z.number().optional() }).partial().optional(),
      }),
    )
    .default([]),
  format: z.object({ duration: z.string().optional(), format_name: z.string().optional() }).optional(),
});

/**
 * The verdict on ffprobe's JSON output (`null` when ffprobe failed to read the file): the facts kept, or
 * why the file is refused. A cover picture of an audio file is not a video stream.
 */
export function probeVerdict(json: unknown): { ok: true; facts: ProbeFacts } | { ok: false; failure: ProbeFailure } {
  if (json === null || json === undefined) return { ok: false, failure: 'notVideo' };
  const parsed = probeSchema.safeParse(json);
  if (!parsed.success) return { ok: false, failure: 'unreadable' };
  const { streams, format } = parsed.data;
  const video = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  if (!video) return { ok: false, failure: streams.length === 0 ? 'notVideo' : 'noVideoStream' };
  const width = video.width ?? 0;
  const height = video.height ?? 0;
  if (width < PROBE_LIMITS.minSide || height < PROBE_LIMITS.minSide || width > PROBE_LIMITS.maxSide || height > PROBE_LIMITS.maxSide || width * height > PROBE_LIMITS.maxPixels) {
    return { ok: false, failure: 'badDimensions' };
  }
  const duration = Number(format?.duration ?? video.duration ?? NaN);
  if (!Number.isFinite(duration) || duration < PROBE_LIMITS.minSeconds || duration > PROBE_LIMITS.maxSeconds) return { ok: false, failure: 'badDuration' };
  return { ok: true, facts: { durationSeconds: Math.round(duration * 100) / 100, width, height, hasAudio: streams.some((s) => s.codec_type === 'audio') } };
}

/** One rung of a video's ladder: its name (`720p`), output size and bitrates. */
export interface Rung {
  name: string;
  width: number;
  height: number;
  videoKbps: number;
}

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/**
 * The rungs made of a source `width`×`height`: every rung of `LADDER` not above the source's height;
 * a source smaller than the lowest rung gets one rung at its own size (never upscaled).
 */
export function ladderFor(width: number, height: number): Rung[] {
  const rung = (h: number, kbps: number): Rung => ({ name: `${h}p`, height: h, width: even((width * h) / height), videoKbps: kbps });
  const fitting = LADDER.filter((r) => r.height <= height).map((r) => rung(r.height, r.videoKbps));
  if (fitting.length > 0) return fitting;
  const h = even(height);
  return [{ ...rung(h, Math.max(200, Math.round((LADDER[0].videoKbps * h) / LADDER[0].height))), height: h }];
}

/**
 * The ffmpeg arguments that make the HLS ladder of `input` in `outDir`: one decode, one scaled picture
 * per rung, each rung its own HLS output (`<rung>/index.m3u8` and its segments), progress on stdout.
 * (One output per rung rather than a `-var_stream_map`: the ffmpeg shipped crashes writing a multi-variant
 * master playlist; `masterPlaylist` writes it instead.)
 */
export function hlsArguments(input: string, outDir: string, rungs: readonly Rung[], hasAudio: boolean): string[] {
  const n = rungs.length;
  const split = n > 1 ? `[0:v]split=${n}${rungs.map((_, i) => `[s${i}]`).join('')};` : '[0:v]null[s0];';
  const scales = rungs.map((r, i) => `[s${i}]scale=${r.width}:${r.height}:flags=bicubic,format=yuv420p[v${i}]`).join(';');
  const args = ['-hide_banner', '-nostdin', '-y', '-i', input, '-filter_complex', split + scales, '-progress', 'pipe:1', '-nostats'];
  rungs.forEach((r, i) => {
    args.push('-map', `[v${i}]`);
    if (hasAudio) args.push('-map', '0:a:0', '-c:a', 'aac', '-b:a', `${AUDIO_KBPS}k`, '-ac', '2', '-ar', '48000');
    args.push(
      '-c:v', 'libx264', '-preset', 'veryfast', '-profile:v', 'main', '-sc_threshold', '0', '-g', '48', '-keyint_min', '48',
      '-b:v', `${r.videoKbps}k`, '-maxrate', `${Math.round(r.videoKbps * 1.07)}k`, '-bufsize', `${Math.round(r.videoKbps * 1.5)}k`,
      '-f', 'hls', '-hls_time', String(SEGMENT_SECONDS), '-hls_playlist_type', 'vod',
      '-hls_segment_filename', `${outDir}/${r.name}/seg-%03d.ts`,
      `${outDir}/${r.name}/index.m3u8`,
    );
  });
  return args;
}

/** The master playlist naming each rung's playlist, its bandwidth and resolution. */
export function masterPlaylist(rungs: readonly Rung[], hasAudio: boolean): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3'];
  for (const r of rungs) {
    const bandwidth = Math.round((r.videoKbps * 1.07 + (hasAudio ? AUDIO_KBPS : 0)) * 1000);
    lines.push(`#EXT-X-STREAM-INF:BANDWIDTH=${bandwidth},RESOLUTION=${r.width}x${r.height}`, `${r.name}/index.m3u8`);
  }
  return `${lines.join('\n')}\n`;
}

/** The ffmpeg arguments of the poster: one frame at `atSeconds`, at most 720 pixels high, JPEG. */
export function posterArguments(input: string, output: string, atSeconds: number, height: number): string[] {
  const h = Math.min(720, even(height));
  return ['-hide_banner', '-nostdin', '-y', '-ss', atSeconds.toFixed(2), '-i', input, '-frames:v', '1', '-vf', `scale=-2:${h}`, '-q:v', '4', output];
}

/** Where the poster frame is taken: a second in, or the middle of a shorter video. */
export function posterSecond(durationSeconds: number): number {
  return Math.min(1, durationSeconds / 2);
}

/**
 * Reads a chunk of ffmpeg's `-progress` output (`key=value` lines) against the media's duration:
 * the percent done (0–100, only from `out_time_us`/`out_time_ms`), and whether it says it ended.
 */
export function readProgress(text: string, durationSeconds: number): { percent: number | null; ended: boolean } {
  let percent: number | null = null;
  let ended = false;
  for (const line of text.split('\n')) {
    const [key, value] = line.trim().split('=', 2);
    if ((key === 'out_time_us' || key === 'out_time_ms') && value && /^\d+$/.test(value) && durationSeconds > 0) {
      // ffmpeg writes microseconds under both names.
      percent = Math.max(0, Math.min(100, Math.floor(Number(value) / 1e6 / durationSeconds * 100)));
    }
    if (key === 'progress' && value === 'end') ended = true;
  }
  return { percent: ended ? 100 : percent, ended };
}

/** The title kept of an uploaded file's name: its last path segment without the extension, control characters removed, at most 120 characters. */
export function titleOfFileName(name: string | null | undefined): string {
  const last = (name ?? '').split(/[\\/]/).pop() ?? '';
  const bare = last.replace(/\.[A-Za-z0-9]{1,5}$/, '');
  // eslint-disable-next-line no-control-regex
  const clean = bare.replace(/[\u0000-\u001f\u007f<>]/g, '').replace(/\s+/g, ' ').trim().slice(0, 120);
  return clean || 'video';
}

/** The storage keys of a video's outputs. */
export const videoKeys = {
  folder: (videoId: number) => `videos/${videoId}/`,
  master: (videoId: number) => `videos/${videoId}/master.m3u8`,
  poster: (videoId: number) => `videos/${videoId}/poster.jpg`,
  caption: (videoId: number, lang: 'es' | 'en') => `videos/${videoId}/captions-${lang}.vtt`,
};

/**
 * A file of a video's HLS folder named in an address (`master.m3u8`, `720p/index.m3u8`,
 * `720p/seg-004.ts`): its storage key, or `null` for anything else (other folders, `..`, other types).
 */
export function hlsKey(videoId: number, path: string): string | null {
  if (path === 'master.m3u8') return `videos/${videoId}/master.m3u8`;
  const m = /^(\d{2,4}p)\/(index\.m3u8|seg-\d{3,5}\.ts)$/.exec(path);
  return m ? `videos/${videoId}/${m[1]}/${m[2]}` : null;
}

/** The name of the scratch folder where `workerId` converts video `videoId` (inside the data folder's `transcode/`). */
export function scratchName(videoId: number, workerId: string): string {
  return `${videoId}-${workerId.replace(/[^A-Za-z0-9]/g, '-')}`;
}

/** The types of the shipped lesson videos (`MEDIA_DIR`) that are converted like uploads when the academy is prepared. */
export const DEMO_VIDEO_TYPES = ['video/webm', 'video/mp4'] as const;

/**
 * The upload id of a shipped lesson video, made of its storage key (`video/clip-1.webm` →
 * `demo-video-clip-1-webm`): the same on every start, a plain file name, and never one tus gives (those
 * are 32 hex characters), so no upload request can reach it.
 */
export function demoUploadId(storageKey: string): string {
  return `demo-${storageKey.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 100)}`;
}

/** The upload id tus gives (`namingFunction`): 32 lowercase hex characters. */
export const UPLOAD_ID = /^[0-9a-f]{32}$/;

/** How many times a transcode is tried before the video is marked failed. */
export const MAX_TRANSCODE_ATTEMPTS = 3;
/** How long a worker's claim on a transcode lasts without being renewed (it renews while ffmpeg runs). */
export const TRANSCODE_LEASE_MS = 30_000;

/**
 * How long a video may stay `probing` before a worker probes it again: a probe takes seconds (ffprobe's
 * own limit is 30 s), so one this old was cut short by a process that died between the last byte and
 * the queue.
 */
export const PROBE_STALE_MS = 2 * 60_000;

/** A duration as the library shows it: `m:ss` or `h:mm:ss`. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** A size in bytes as people read it (`1.5 GB`, `820 MB`), in `locale`'s number format. */
export function formatBytes(bytes: number, locale: 'es' | 'en'): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let n = bytes;
  let u = 0;
  while (n >= 1024 && u < units.length - 1) {
    n /= 1024;
    u++;
  }
  const digits = n >= 100 || u === 0 ? 0 : 1;
  return `${new Intl.NumberFormat(locale === 'en' ? 'en-US' : 'es-419', { maximumFractionDigits: digits }).format(n)} ${units[u]}`;
}
