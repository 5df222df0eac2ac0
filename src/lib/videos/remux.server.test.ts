import { describe, expect, it } from 'vitest';
import { playlistSegments, topRung } from './remux.server';

describe('reading a converted video back for an archive', () => {
  it('takes the highest rung of the ladder', () => {
    expect(topRung('360,720')).toBe('720p');
    expect(topRung('720,360')).toBe('720p');
    expect(topRung('180')).toBe('180p');
    expect(topRung('')).toBeNull();
    expect(topRung(null)).toBeNull();
    expect(topRung('abc,-1')).toBeNull();
  });

  it("reads only the worker's own segment names from a playlist", () => {
    const playlist = '#EXTM3U\n#EXT-X-VERSION:3\n#EXTINF:4.0,\nseg-000.ts\n#EXTINF:2.0,\nseg-001.ts\n#EXT-X-ENDLIST\n';
    expect(playlistSegments(playlist)).toEqual(['seg-000.ts', 'seg-001.ts']);
    expect(playlistSegments(playlist.replace('seg-001.ts', '../../secrets.ts'))).toBeNull();
    expect(playlistSegments(playlist.replace('seg-001.ts', 'https://elsewhere.example/seg.ts'))).toBeNull();
    expect(playlistSegments('#EXTM3U\n#EXT-X-ENDLIST\n')).toBeNull();
  });
});
