/**
 * A strict WebVTT check for uploaded caption tracks, pure: the `WEBVTT` header, cue timings (well
 * formed, end after start, in order), and cue text holding only WebVTT's own cue tags (`c`, `i`, `b`,
 * `u`, `ruby`, `rt`, `v`, `lang`, timestamps). Anything that looks like HTML or script, `STYLE` blocks
 * (CSS), a file over the size limit or not UTF-8 is refused, naming the first problem and its line.
 */

/** The largest caption file accepted. */
export const MAX_CAPTION_BYTES = 512 * 1024;
/** The most cues a track may hold. */
export const MAX_CUES = 20_000;

/** Why a caption file is refused (keys of the `videos.captions.errors` messages). */
export type VttProblem = 'empty' | 'tooLarge' | 'notUtf8' | 'header' | 'timing' | 'order' | 'markup' | 'style' | 'noCues' | 'tooManyCues';

export type VttVerdict = { ok: true; cues: number } | { ok: false; problem: VttProblem; line: number };

const TIME = String.raw`(?:(\d{2,}):)?([0-5]\d):([0-5]\d)\.(\d{3})`;
const TIMING = new RegExp(String.raw`^${TIME}[ \t]+-->[ \t]+${TIME}(?:[ \t]+.*)?$`);
// Closing tags, class-only opening tags, `v`/`lang` with an annotation (no quotes or `=`: never an attribute), timestamps.
const CUE_TAG = /^<\/(?:c|i|b|u|ruby|rt|v|lang)>$|^<(?:c|i|b|u|ruby|rt)(?:\.[A-Za-z0-9_-]+)*>$|^<(?:v|lang)(?:\.[A-Za-z0-9_-]+)*[ \t][^<>"'=`]+>$|^<(?:\d{2,}:)?[0-5]\d:[0-5]\d\.\d{3}>$/;

function seconds(h: string | undefined, m: string, s: string, ms: string): number {
  return Number(h ?? 0) * 3600 + Number(m) * 60 + Number(s) + Number(ms) / 1000;
}

/** Decodes bytes as UTF-8, or null when they are not. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** Checks a caption file's bytes. */
export function checkVttBytes(bytes: Uint8Array): VttVerdict {
  if (bytes.byteLength === 0) return { ok: false, problem: 'empty', line: 0 };
  if (bytes.byteLength > MAX_CAPTION_BYTES) return { ok: false, problem: 'tooLarge', line: 0 };
  const text = decodeUtf8(bytes);
  if (text === null) return { ok: false, problem: 'notUtf8', line: 0 };
  return checkVtt(text);
}

/** Checks a caption file's text. */
export function checkVtt(input: string): VttVerdict {
  const text = input.replace(/^\uFEFF/, '');
  if (text.trim() === '') return { ok: false, problem: 'empty', line: 0 };
  if (text.length > MAX_CAPTION_BYTES) return { ok: false, problem: 'tooLarge', line: 0 };
  const lines = text.split(/\r\n|\r|\n/);
  if (!/^WEBVTT(?:[ \t].*)?$/.test(lines[0]!)) return { ok: false, problem: 'header', line: 1 };
  // The header block runs to the first blank line.
  let i = 1;
  while (i < lines.length && lines[i] !== '') {
    if (lines[i]!.includes('-->')) return { ok: false, problem: 'header', line: i + 1 };
    i++;
  }
  let cues = 0;
  let lastStart = -1;
  while (i < lines.length) {
    while (i < lines.length && lines[i]!.trim() === '') i++;
    if (i >= lines.length) break;
    const first = lines[i]!;
    // NOTE blocks are comments; STYLE holds CSS, which captions of this academy never need.
    if (/^NOTE(?:[ \t]|$)/.test(first) || /^REGION(?:[ \t]|$)/.test(first)) {
      while (i < lines.length && lines[i] !== '') i++;
      continue;
    }
    if (/^STYLE(?:[ \t]|$)/.test(first)) return { ok: false, problem: 'style', line: i + 1 };
    // An optional cue identifier, then the timing line.
    let timingLine = i;
    if (!first.includes('-->')) timingLine = i + 1;
    const timing = lines[timingLine];
    const m = timing === undefined ? null : TIMING.exec(timing);
    if (!m) return { ok: false, problem: 'timing', line: timingLine + 1 };
    const start = seconds(m[1], m[2]!, m[3]!, m[4]!);
    const end = seconds(m[5], m[6]!, m[7]!, m[8]!);
    if (!(end > start)) return { ok: false, problem: 'timing', line: timingLine + 1 };
    if (start < lastStart) return { ok: false, problem: 'order', line: timingLine + 1 };
    lastStart = start;
    i = timingLine + 1;
    while (i < lines.length && lines[i] !== '') {
      const line = lines[i]!;
      if (line.includes('-->')) return { ok: false, problem: 'timing', line: i + 1 };
      for (const tag of line.match(/<[^>]*>?/g) ?? []) if (!CUE_TAG.test(tag)) return { ok: false, problem: 'markup', line: i + 1 };
      i++;
    }
    cues++;
    if (cues > MAX_CUES) return { ok: false, problem: 'tooManyCues', line: timingLine + 1 };
  }
  return cues === 0 ? { ok: false, problem: 'noCues', line: lines.length } : { ok: true, cues };
}
