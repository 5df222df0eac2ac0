import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DEFAULT_ALLOWED_HOSTS, hostAllowed, parseHost, publicOrigin, validHostPattern, type OriginSettings } from './public-origin';

const local: OriginSettings = { publicUrl: null, allowedHosts: DEFAULT_ALLOWED_HOSTS, port: 4321 };
const configured: OriginSettings = { publicUrl: 'https://academy.example', allowedHosts: DEFAULT_ALLOWED_HOSTS, port: 4321 };

describe('public origin (Trust #4, #5)', () => {
  it('is PUBLIC_URL whenever it is set, whatever the Host says', () => {
    for (const host of ['evil.example', 'localhost:4321', 'academy.example', null]) {
      expect(publicOrigin(configured, { host, protocol: 'http:' })).toBe('https://academy.example');
    }
    expect(publicOrigin(configured, null)).toBe('https://academy.example');
  });

  it('without PUBLIC_URL, is the request’s own origin only for an allowed host', () => {
    expect(publicOrigin(local, { host: 'localhost:4321', protocol: 'http:' })).toBe('http://localhost:4321');
    expect(publicOrigin(local, { host: '127.0.0.1:4400', protocol: 'http:' })).toBe('http://127.0.0.1:4400');
    expect(publicOrigin(local, { host: '[::1]:8080', protocol: 'https:' })).toBe('https://[::1]:8080');
    expect(publicOrigin(local, { host: 'LOCALHOST', protocol: 'http:' })).toBe('http://localhost');
  });

  it('falls back to http://localhost:PORT for a foreign or malformed Host, and when prerendering', () => {
    for (const host of ['evil.example', 'evil.example:4321', 'localhost.evil.example', 'localhost@evil.example', 'localhost/evil', 'localhost:4321/x', '', null, undefined, 'a b']) {
      expect(publicOrigin(local, { host, protocol: 'http:' }), String(host)).toBe('http://localhost:4321');
    }
    expect(publicOrigin({ ...local, port: 8080 }, null)).toBe('http://localhost:8080');
  });

  it('never names a host that is not allowed, whatever the Host header holds', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), fc.constantFrom<'http:' | 'https:'>('http:', 'https:'), (host, protocol) => {
        const origin = new URL(publicOrigin(local, { host, protocol }));
        expect(['localhost', '127.0.0.1', '[::1]']).toContain(origin.hostname);
      }),
    );
  });
});

describe('allowed hosts', () => {
  it('matches a name on any port, name:port on that port only, *.domain on its subdomains', () => {
    const s: OriginSettings = { publicUrl: null, allowedHosts: ['academy.example', 'admin.example:8443', '*.academy.example'], port: 4321 };
    expect(hostAllowed('academy.example', s)).toBe(true);
    expect(hostAllowed('academy.example:8080', s)).toBe(true);
    expect(hostAllowed('admin.example:8443', s)).toBe(true);
    expect(hostAllowed('admin.example', s)).toBe(false);
    expect(hostAllowed('www.academy.example', s)).toBe(true);
    expect(hostAllowed('evilacademy.example', s)).toBe(false);
    expect(hostAllowed('localhost', s)).toBe(false);
  });

  it('always allows PUBLIC_URL’s host (with or without its default port)', () => {
    const s: OriginSettings = { publicUrl: 'https://academy.example', allowedHosts: [], port: 4321 };
    expect(hostAllowed('academy.example', s)).toBe(true);
    expect(hostAllowed('academy.example:443', s)).toBe(true);
    expect(hostAllowed('academy.example:8443', s)).toBe(false);
    expect(hostAllowed('evil.example', s)).toBe(false);
  });

  it('reads a Host value strictly', () => {
    expect(parseHost('Example.COM:80')).toEqual({ hostname: 'example.com', port: '80' });
    expect(parseHost('[::1]')).toEqual({ hostname: '[::1]', port: '' });
    for (const bad of ['', ' ', 'a/b', 'a\\b', 'u@h', 'h?x', 'h#x', 'h:99999']) expect(parseHost(bad), bad).toBeNull();
    expect(validHostPattern('*.academy.example')).toBe(true);
    expect(validHostPattern('*.academy.example:80')).toBe(false);
    expect(validHostPattern('https://academy.example')).toBe(false);
  });
});

describe('answers remembered per settings (every request asks)', () => {
  it('gives the same answers asked again, after a flood of other hosts, and for each settings object its own', () => {
    const a: OriginSettings = { publicUrl: null, allowedHosts: ['a.example'], port: 4321 };
    const b: OriginSettings = { publicUrl: null, allowedHosts: ['b.example'], port: 4322 };
    for (let round = 0; round < 2; round++) {
      expect(hostAllowed('a.example', a)).toBe(true);
      expect(hostAllowed('a.example', b)).toBe(false);
      expect(publicOrigin(a, { host: 'a.example:8080', protocol: 'https:' })).toBe('https://a.example:8080');
      expect(publicOrigin(b, { host: 'a.example:8080', protocol: 'https:' })).toBe('http://localhost:4322');
      // The scheme is part of what is remembered.
      expect(publicOrigin(a, { host: 'a.example:8080', protocol: 'http:' })).toBe('http://a.example:8080');
      // More made-up hosts than are kept: each still gets the rule's answer.
      for (let i = 0; i < 600; i++) {
        expect(hostAllowed(`h${i}.a.example`, a)).toBe(false);
        expect(publicOrigin(a, { host: `h${i}.a.example`, protocol: 'http:' })).toBe('http://localhost:4321');
      }
    }
  });

  it('answers a 100 KB or NUL-holding Host as foreign, every time', () => {
    for (const host of ['a'.repeat(100_000), 'localhost\u0000.evil.example', `localhost:${'9'.repeat(400)}`]) {
      for (let i = 0; i < 2; i++) {
        expect(hostAllowed(host, local)).toBe(false);
        expect(publicOrigin(local, { host, protocol: 'http:' })).toBe('http://localhost:4321');
      }
    }
  });
});
