import { describe, expect, it } from 'vitest';
import { checkVtt, checkVttBytes, MAX_CAPTION_BYTES } from './webvtt';

const good = 'WEBVTT\n\n1\n00:00:00.000 --> 00:00:01.500\nHola <i>mundo</i>\n\n00:01.500 --> 00:03.000 line:90%\n<v Ana>Bienvenidos</v> <00:00:02.000>al curso\n';

describe('checkVtt', () => {
  it('accepts a track with identifiers, short timings, settings, voice and timestamp tags, and a NOTE', () => {
    expect(checkVtt(good)).toEqual({ ok: true, cues: 2 });
    expect(checkVtt('\uFEFFWEBVTT - subtítulos\r\n\r\nNOTE hecho a mano\r\n\r\n00:00.000 --> 00:01.000\r\n<c.amarillo>hola</c>\r\n')).toEqual({ ok: true, cues: 1 });
  });

  it('refuses a missing header, a cue before the blank line, and empty files', () => {
    expect(checkVtt('00:00.000 --> 00:01.000\nhola\n')).toMatchObject({ ok: false, problem: 'header', line: 1 });
    expect(checkVtt('WEBVTTX\n\n00:00.000 --> 00:01.000\nhola\n')).toMatchObject({ ok: false, problem: 'header' });
    expect(checkVtt('WEBVTT\n00:00.000 --> 00:01.000\nhola\n')).toMatchObject({ ok: false, problem: 'header', line: 2 });
    expect(checkVtt('  \n')).toMatchObject({ ok: false, problem: 'empty' });
    expect(checkVtt('WEBVTT\n\n')).toMatchObject({ ok: false, problem: 'noCues' });
  });

  it('refuses malformed timings, an end before its start, and cues out of order', () => {
    expect(checkVtt('WEBVTT\n\n00:00,000 --> 00:01,000\nhola\n')).toMatchObject({ ok: false, problem: 'timing', line: 3 });
    expect(checkVtt('WEBVTT\n\n00:00.000 --> 00:61.000\nhola\n')).toMatchObject({ ok: false, problem: 'timing' });
    expect(checkVtt('WEBVTT\n\n00:02.000 --> 00:01.000\nhola\n')).toMatchObject({ ok: false, problem: 'timing' });
    expect(checkVtt('WEBVTT\n\nid\nhola\n')).toMatchObject({ ok: false, problem: 'timing', line: 4 });
    expect(checkVtt('WEBVTT\n\n00:05.000 --> 00:06.000\na\n\n00:01.000 --> 00:02.000\nb\n')).toMatchObject({ ok: false, problem: 'order', line: 6 });
  });

  it('refuses script, HTML and CSS in any form', () => {
    for (const payload of ['<script>alert(1)</script>', '<img src=x onerror=alert(1)>', '<a href="javascript:alert(1)">x</a>', '<b onclick="x()">hola</b>', '<span>x</span>', '<svg/onload=alert(1)>', 'hola <i']) {
      expect(checkVtt(`WEBVTT\n\n00:00.000 --> 00:01.000\n${payload}\n`), payload).toMatchObject({ ok: false, problem: 'markup', line: 4 });
    }
    expect(checkVtt('WEBVTT\n\nSTYLE\n::cue { background: url(https://x.example/t) }\n\n00:00.000 --> 00:01.000\nhola\n')).toMatchObject({ ok: false, problem: 'style', line: 3 });
  });

  it('refuses bytes that are not UTF-8 or over the size limit', () => {
    expect(checkVttBytes(new Uint8Array([0x57, 0x45, 0xff, 0xfe]))).toMatchObject({ ok: false, problem: 'notUtf8' });
    expect(checkVttBytes(new Uint8Array(MAX_CAPTION_BYTES + 1).fill(0x41))).toMatchObject({ ok: false, problem: 'tooLarge' });
    expect(checkVttBytes(new Uint8Array())).toMatchObject({ ok: false, problem: 'empty' });
    expect(checkVttBytes(new TextEncoder().encode(good))).toEqual({ ok: true, cues: 2 });
  });
});
