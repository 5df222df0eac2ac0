import { describe, expect, it } from 'vitest';
import { clock, hlsArguments, masterPlaylist, hlsKey, ladderFor, probeVerdict, readProgress, scratchName, titleOfFileName } from './videos';

const stream = (s: object) => ({ codec_type: 'video', width: 1280, height: 720, ...s });

describe('probeVerdict', () => {
  it('keeps the facts of a video with sound', () => {
    expect(probeVerdict({ streams: [stream({}), { codec_type: 'audio' }], format: { duration: '12.345' } })).toEqual({ ok: true, facts: { durationSeconds: 12.35, width: 1280, height: 720, hasAudio: true } });
  });
  it('refuses what ffprobe could not read, audio only (a cover picture is not a video), absurd sizes and durations', () => {
    expect(probeVerdict(null)).toEqual({ ok: false, failure: 'notVideo' });
    expect(probeVerdict({ streams: [] })).toEqual({ ok: false, failure: 'notVideo' });
    expect(probeVerdict({ streams: [{ codec_type: 'audio' }, stream({ disposition: { attached_pic: 1 } })], format: { duration: '3' } })).toEqual({ ok: false, failure: 'noVideoStream' });
    expect(probeVerdict({ streams: [stream({ width: 100000, height: 100000 })], format: { duration: '3' } })).toEqual({ ok: false, failure: 'badDimensions' });
    expect(probeVerdict({ streams: [stream({ width: 0 })], format: { duration: '3' } })).toEqual({ ok: false, failure: 'badDimensions' });
    expect(probeVerdict({ streams: [stream({})], format: { duration: '99999999' } })).toEqual({ ok: false, failure: 'badDuration' });
    expect(probeVerdict({ streams: [stream({})], format: {} })).toEqual({ ok: false, failure: 'badDuration' });
    expect(probeVerdict({ streams: 'x' })).toEqual({ ok: false, failure: 'unreadable' });
  });
});

describe('ladderFor', () => {
  it('makes 360p and 720p of a 720p or larger source, never above it', () => {
    expect(ladderFor(1920, 1080).map((r) => r.name)).toEqual(['360p', '720p']);
    expect(ladderFor(1280, 720)).toEqual([
      { name: '360p', width: 640, height: 360, videoKbps: 800 },
      { name: '720p', width: 1280, height: 720, videoKbps: 2800 },
    ]);
    expect(ladderFor(854, 480).map((r) => r.name)).toEqual(['360p']);
  });
  it('keeps a source smaller than 360p at its own (even) size', () => {
    expect(ladderFor(160, 90)).toMatchObject([{ name: '90p', width: 160, height: 90 }]);
    expect(ladderFor(161, 91)[0]).toMatchObject({ width: 162, height: 92 });
  });
});

describe('hlsArguments and masterPlaylist', () => {
  it('makes one HLS output per rung (with audio when there is some), with progress on stdout', () => {
    const args = hlsArguments('/in.mp4', '/out', ladderFor(1280, 720), true);
    expect(args.filter((a) => a.endsWith('/index.m3u8'))).toEqual(['/out/360p/index.m3u8', '/out/720p/index.m3u8']);
    expect(args.filter((a) => a === '0:a:0')).toHaveLength(2);
    expect(args).toContain('pipe:1');
    expect(hlsArguments('/in.mp4', '/out', ladderFor(160, 90), false)).not.toContain('0:a:0');
  });
  it('names each rung in the master playlist with its bandwidth and resolution', () => {
    expect(masterPlaylist(ladderFor(1280, 720), true)).toBe(
      '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-STREAM-INF:BANDWIDTH=984000,RESOLUTION=640x360\n360p/index.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=3124000,RESOLUTION=1280x720\n720p/index.m3u8\n',
    );
  });
});

describe('readProgress', () => {
  it('reads the percent from out_time_us, and 100 at the end', () => {
    expect(readProgress('frame=10\nout_time_us=5000000\nprogress=continue\n', 10)).toEqual({ percent: 50, ended: false });
    expect(readProgress('out_time_us=N/A\n', 10)).toEqual({ percent: null, ended: false });
    expect(readProgress('out_time_ms=20000000\nprogress=end\n', 10)).toEqual({ percent: 100, ended: true });
  });
});

describe('titleOfFileName and hlsKey', () => {
  it('keeps the name without folders, extension or markup', () => {
    expect(titleOfFileName('../../etc/passwd')).toBe('passwd');
    expect(titleOfFileName('C:\\Users\\ana\\Clase 1.mp4')).toBe('Clase 1');
    expect(titleOfFileName('<script>.mp4')).toBe('script');
    expect(titleOfFileName('')).toBe('video');
  });
  it('names only the files of a video folder', () => {
    expect(hlsKey(3, 'master.m3u8')).toBe('videos/3/master.m3u8');
    expect(hlsKey(3, '720p/seg-004.ts')).toBe('videos/3/720p/seg-004.ts');
    for (const bad of ['../4/master.m3u8', '720p/../../x', 'poster.jpg', '720p/index.m3u8/x', '/etc/passwd', 'captions-es.vtt']) expect(hlsKey(3, bad)).toBeNull();
  });
  it('shows durations as a clock', () => {
    expect(clock(5)).toBe('0:05');
    expect(clock(3725)).toBe('1:02:05');
  });
  it('names a scratch folder by its video and its worker, safely', () => {
    expect(scratchName(7, 'host-1:4242:ab12cd')).toBe('7-host-1-4242-ab12cd');
    expect(scratchName(7, '../../etc')).toBe('7-------etc');
  });
});
