import { describe, expect, it } from 'vitest';
import { requestOrigin, requestProtocol, sameOrigin } from './origin';

describe('requestProtocol', () => {
  it('is https on a TLS socket whatever the headers say', () => {
    expect(requestProtocol({ 'x-forwarded-proto': 'http' }, true, true)).toBe('https:');
  });
  it('believes X-Forwarded-Proto only behind a trusted proxy', () => {
    expect(requestProtocol({ 'x-forwarded-proto': 'https' }, false, false)).toBe('http:');
    expect(requestProtocol({ 'x-forwarded-proto': 'https' }, false, true)).toBe('https:');
    expect(requestProtocol({ 'x-forwarded-proto': 'https, http' }, false, true)).toBe('https:');
    expect(requestProtocol({ 'x-forwarded-proto': 'gopher' }, false, true)).toBe('http:');
  });
});

describe('requestOrigin', () => {
  it('joins the scheme and the Host header', () => {
    expect(requestOrigin({ host: 'academia.example:8080' }, false, false)).toBe('http://academia.example:8080');
    expect(requestOrigin({ host: 'academia.example', 'x-forwarded-proto': 'https' }, false, true)).toBe('https://academia.example');
  });
  it('is null for a missing or malformed Host', () => {
    expect(requestOrigin({}, false, false)).toBeNull();
    expect(requestOrigin({ host: 'a.example/evil' }, false, false)).toBeNull();
    expect(requestOrigin({ host: 'user@a.example' }, false, false)).toBeNull();
    expect(requestOrigin({ host: 'a b' }, false, false)).toBeNull();
  });
});

describe('sameOrigin', () => {
  const site = 'http://academia.example:4321';
  it('accepts exactly the same scheme, host and port', () => {
    expect(sameOrigin('http://academia.example:4321', site)).toBe(true);
    expect(sameOrigin('http://ACADEMIA.example:4321', site)).toBe(true);
  });
  it('refuses another scheme, host, port, subdomain, or nothing', () => {
    expect(sameOrigin('https://academia.example:4321', site)).toBe(false);
    expect(sameOrigin('http://academia.example:4322', site)).toBe(false);
    expect(sameOrigin('http://evil.academia.example:4321', site)).toBe(false);
    expect(sameOrigin('http://academia.example', site)).toBe(false);
    expect(sameOrigin('null', site)).toBe(false);
    expect(sameOrigin('', site)).toBe(false);
    expect(sameOrigin(undefined, site)).toBe(false);
    expect(sameOrigin('not a url', site)).toBe(false);
    expect(sameOrigin(site, null)).toBe(false);
  });
});
