import { describe, expect, it } from 'vitest';
import { handshakeAllowed } from './realtime';

const host = 'academia.example:4321';

describe('handshakeAllowed: the socket follows the HTTP same-origin rule', () => {
  it('lets in a handshake from exactly its own origin', () => {
    expect(handshakeAllowed({ host, origin: 'http://academia.example:4321' }, false, false)).toBe(true);
    expect(handshakeAllowed({ host: 'academia.example', origin: 'https://academia.example' }, true, false)).toBe(true);
    expect(handshakeAllowed({ host, origin: 'http://academia.example:4321', 'sec-fetch-site': 'same-origin' }, false, false)).toBe(true);
  });

  it('refuses another scheme, host or port, even of the same site', () => {
    for (const origin of ['https://academia.example:4321', 'http://academia.example:4322', 'http://cursos.academia.example:4321', 'http://evil.example', 'null', '', 'not a url']) {
      expect(handshakeAllowed({ host, origin }, false, false), origin).toBe(false);
    }
    expect(handshakeAllowed({ host, origin: ['http://academia.example:4321', 'http://evil.example'] }, false, false)).toBe(false);
    expect(handshakeAllowed({ origin: 'http://academia.example:4321' }, false, false)).toBe(false);
  });

  it('without an Origin, refuses what the browser says comes from elsewhere and lets other clients in', () => {
    expect(handshakeAllowed({ host, 'sec-fetch-site': 'cross-site' }, false, false)).toBe(false);
    expect(handshakeAllowed({ host, 'sec-fetch-site': 'same-site' }, false, false)).toBe(false);
    expect(handshakeAllowed({ host, 'sec-fetch-site': 'same-origin' }, false, false)).toBe(true);
    expect(handshakeAllowed({ host, 'sec-fetch-site': 'none' }, false, false)).toBe(true);
    expect(handshakeAllowed({ host }, false, false)).toBe(true);
  });

  it('believes X-Forwarded-Proto only behind a trusted proxy', () => {
    const behindTls = { host: 'academia.example', origin: 'https://academia.example', 'x-forwarded-proto': 'https' };
    expect(handshakeAllowed(behindTls, false, true)).toBe(true);
    expect(handshakeAllowed(behindTls, false, false)).toBe(false);
    expect(handshakeAllowed({ ...behindTls, origin: 'http://academia.example' }, false, true)).toBe(false);
  });
});
