import { describe, expect, it } from 'vitest';
import { cacheableRequest, hasSessionCookie, ownPageKey, pageKey, PageCache, PersonStamps } from './page-cache';
import { keptPageKey } from './page-cache.server';
import { accessKey, VISITOR } from '../access/access';

const page = (body: string) => ({ status: 200, headers: [['content-type', 'text/html']] as [string, string][], body });

describe('PageCache', () => {
  it('serves a stored page for the same catalogue version only', () => {
    const cache = new PageCache();
    cache.set('/courses?', 1, page('v1'));
    expect(cache.get('/courses?', 1)?.body).toBe('v1');
    expect(cache.get('/courses?', 2)).toBeUndefined();
  });

  it('drops every page of an older version when a newer one is stored', () => {
    const cache = new PageCache();
    cache.set('/a?', 1, page('a'));
    cache.set('/b?', 2, page('b'));
    expect(cache.size).toBe(1);
    expect(cache.get('/a?', 2)).toBeUndefined();
  });

  it('keeps at most its capacity, evicting the least recently used', () => {
    const cache = new PageCache(2);
    cache.set('/a?', 1, page('a'));
    cache.set('/b?', 1, page('b'));
    cache.get('/a?', 1);
    cache.set('/c?', 1, page('c'));
    expect(cache.get('/b?', 1)).toBeUndefined();
    expect(cache.get('/a?', 1)?.body).toBe('a');
    expect(cache.size).toBe(2);
  });
});

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

describe('PersonStamps', () => {
  const ana = { userId: 1, contactId: 11 };
  const bea = { userId: 2, contactId: 22 };

  it('keeps a page fresh until something of its owner changes, by user or by contact', () => {
    const stamps = new PersonStamps();
    const stamp = stamps.now();
    expect(stamps.fresh(ana, stamp)).toBe(true);
    stamps.changed({ contactId: 22 });
    expect(stamps.fresh(ana, stamp)).toBe(true);
    expect(stamps.fresh(bea, stamp)).toBe(false);
    stamps.changed({ userId: 1 });
    expect(stamps.fresh(ana, stamp)).toBe(false);
    // A render that began after the change is fresh.
    expect(stamps.fresh(ana, stamps.now())).toBe(true);
  });

  it('a change while a page renders makes that page stale', () => {
    const stamps = new PersonStamps();
    const stamp = stamps.now();
    stamps.changed({ contactId: 11 });
    expect(stamps.fresh(ana, stamp)).toBe(false);
  });

  it('a change of everyone (a lost bus connection) makes every earlier page stale', () => {
    const stamps = new PersonStamps();
    const stamp = stamps.now();
    stamps.changed(null);
    expect(stamps.fresh(ana, stamp)).toBe(false);
    expect(stamps.fresh({ userId: 9, contactId: null }, stamp)).toBe(false);
    expect(stamps.fresh(ana, stamps.now())).toBe(true);
  });

  it('forgetting the oldest people never makes their old pages fresh again', () => {
    const stamps = new PersonStamps(2);
    const stamp = stamps.now();
    stamps.changed({ contactId: 11 });
    stamps.changed({ contactId: 22 });
    stamps.changed({ contactId: 33 });
    expect(stamps.fresh(ana, stamp)).toBe(false);
    const later = stamps.now();
    stamps.changed({ contactId: 44 });
    stamps.changed({ contactId: 55 });
    // Ana's change is forgotten; her page from before it is still stale, one from after it still fresh.
    expect(stamps.fresh(ana, stamp)).toBe(false);
    expect(stamps.fresh(ana, later)).toBe(true);
    // Bea's change (at 2) is forgotten too: a page stamped before it stays stale.
    expect(stamps.fresh(bea, 1)).toBe(false);
  });

  it('own pages of two people, or of one person under two names, never share a key', () => {
    const key = 'http://x/mylearning?';
    expect(ownPageKey(key, ana, 'es|a')).not.toBe(ownPageKey(key, bea, 'es|a'));
    expect(ownPageKey(key, ana, 'es|a')).not.toBe(ownPageKey(key, ana, 'es|b'));
    expect(ownPageKey(key, { userId: null, contactId: 11 }, 'es|a')).not.toBe(ownPageKey(key, { userId: 11, contactId: null }, 'es|a'));
  });
});
