import { describe, expect, it } from 'vitest';
import { placeOf } from './place.server';

describe('placeOf', () => {
  it('finds the country of a public IPv4 address in the bundled table, with no request', () => {
    expect(placeOf('8.8.8.8')).toEqual({ kind: 'country', code: 'US' });
    expect(placeOf('190.24.1.1')).toEqual({ kind: 'country', code: 'CO' });
    expect(placeOf('::ffff:83.44.1.1')).toEqual({ kind: 'country', code: 'ES' });
  });

  it('calls a private or loopback address a local network, and an IPv6 or missing one unknown', () => {
    expect(placeOf('127.0.0.1')).toEqual({ kind: 'local' });
    expect(placeOf('192.168.0.10')).toEqual({ kind: 'local' });
    expect(placeOf('2001:db8::1')).toEqual({ kind: 'unknown' });
    expect(placeOf(null)).toEqual({ kind: 'unknown' });
  });
});
