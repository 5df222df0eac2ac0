import { describe, expect, it } from 'vitest';
import { hlsPlan } from './useHlsSource';

describe('hlsPlan', () => {
  it('plays natively where the browser says it can, through hls.js where it has Media Source Extensions', () => {
    expect(hlsPlan('maybe', () => false)).toBe('native');
    expect(hlsPlan('probably', () => true)).toBe('native');
    expect(hlsPlan('', () => true)).toBe('hls.js');
    expect(hlsPlan('', () => false)).toBe('unsupported');
  });
});
