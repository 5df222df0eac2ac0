import { describe, expect, it } from 'vitest';
import { cacheableRequest, hasSessionCookie, keptPageKey, ownPageKey, pageKey, variedPageKey } from './keys';
import { accessKey, VISITOR } from '../../access/access';

describe('what may be cached', () => {
  it('only GET/HEAD without a posted action', () => {
    const u = new URL('http://x/courses?category=2');
    expect(cacheableRequest('GET', u)).toBe(true);
    expect(cacheableRequest('HEAD', u)).toBe(true);
    expect(cacheableRequest('POST', u)).toBe(false);
    expect(cacheableRequest('GET', new URL('http://x/courses?_action=cart.add'))).toBe(false);
  });

  it('keeps a page for each audience apart: visitors, and each access context', () => {
    const u = new URL('http://x/courses');
    const visitor = keptPageKey(u, 'visitor');
    const learner = keptPageKey(u, accessKey({ ...VISITOR, kind: 'learner', userId: 1, contactId: 1 }));
    const buyer = keptPageKey(u, accessKey({ ...VISITOR, kind: 'learner', userId: 2, contactId: 2, purchased: new Set([10]) }));
    expect(visitor).toBe(pageKey(u));
    expect(new Set([visitor, learner, buyer]).size).toBe(3);
    // Two people with the same access share one page; the order sets were filled in does not matter.
    const a = accessKey({ ...VISITOR, kind: 'learner', userId: 3, contactId: 3, completed: new Set([31, 2]) });
    const b = accessKey({ ...VISITOR, kind: 'learner', userId: 4, contactId: 4, completed: new Set([2, 31]) });
    expect(a).toBe(b);
    expect(a).not.toBe(accessKey({ ...VISITOR, kind: 'ibo', userId: null, contactId: 4, completed: new Set([2, 31]) }));
    expect(accessKey({ ...VISITOR, kind: 'ibo', userId: null, contactId: null })).not.toBe(accessKey({ ...VISITOR, kind: 'ibo', userId: null, contactId: 9 }));
  });

  it('keys a path with or without its trailing slash alike, and each language apart', () => {
    expect(pageKey(new URL('http://x/en/courses/'))).toBe(pageKey(new URL('http://x/en/courses')));
    expect(pageKey(new URL('http://x/en/'))).not.toBe(pageKey(new URL('http://x/')));
  });

  it('keeps a page made for one origin apart from every other origin (Trust #4)', () => {
    expect(pageKey(new URL('http://evil.example/en/courses-details/8'))).not.toBe(pageKey(new URL('http://localhost:4321/en/courses-details/8')));
    expect(pageKey(new URL('https://academy.example/courses'))).not.toBe(pageKey(new URL('http://academy.example/courses')));
  });

  it('keys the same query in any order alike', () => {
    expect(pageKey(new URL('http://x/courses?business=1&category=2'))).toBe(pageKey(new URL('http://x/courses?category=2&business=1')));
    expect(pageKey(new URL('http://x/courses?category=2'))).not.toBe(pageKey(new URL('http://x/courses?category=3')));
  });
});

describe('sessions and sharing', () => {
  it('recognises a session cookie among others, and only that name', () => {
    expect(hasSessionCookie(undefined)).toBe(false);
    expect(hasSessionCookie('cart=[]; language=en')).toBe(false);
    expect(hasSessionCookie('mysession=1')).toBe(false);
    expect(hasSessionCookie('session=abc')).toBe(true);
    expect(hasSessionCookie('cart=[]; session=abc')).toBe(true);
  });
});

describe('own pages', () => {
  const ana = { userId: 1, contactId: 11 };
  const bea = { userId: 2, contactId: 22 };

  it('own pages of two people, or of one person under two names, never share a key', () => {
    const key = 'http://x/mylearning?';
    expect(ownPageKey(key, ana, 'es|a')).not.toBe(ownPageKey(key, bea, 'es|a'));
    expect(ownPageKey(key, ana, 'es|a')).not.toBe(ownPageKey(key, ana, 'es|b'));
    expect(ownPageKey(key, { userId: null, contactId: 11 }, 'es|a')).not.toBe(ownPageKey(key, { userId: 11, contactId: null }, 'es|a'));
  });
});

describe('pages that vary on cookies', () => {
  it('key each value of the named cookies apart, and nothing else of the Cookie header', () => {
    const key = 'http://x/purchase?';
    const a = variedPageKey(key, ['cart'], 'theme=dark; cart=%5B%7B%22id%22%3A1%7D%5D');
    expect(a).not.toBe(variedPageKey(key, ['cart'], 'cart=[{"id":2}]'));
    expect(variedPageKey(key, ['cart'], 'cart=[{"id":1}]; theme=light')).toBe(a);
    expect(variedPageKey(key, ['cart'], undefined)).toBe(variedPageKey(key, ['cart'], 'cart='));
    expect(variedPageKey(key, ['cart'], 'xcart=1')).toBe(variedPageKey(key, ['cart'], null));
    // A value cannot pose as another cookie or another address.
    expect(variedPageKey(key, ['cart'], 'cart=1&other=2')).not.toBe(variedPageKey(key, ['cart', 'other'], 'cart=1; other=2'));
    expect(variedPageKey(key, ['cart'], 'cart=1')).toMatch(/^http:\/\/x\/purchase\?\|/);
  });
});
