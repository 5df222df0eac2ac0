import { describe, expect, it } from 'vitest';
import { PageCache, PersonStamps } from './store';

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
});
