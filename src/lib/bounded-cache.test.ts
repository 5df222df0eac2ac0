import { describe, expect, it } from 'vitest';
import { BoundedCache } from './bounded-cache';

describe('BoundedCache', () => {
  it('forgets the least recently used entry beyond its size', () => {
    const c = new BoundedCache<string, number>(2, 1000);
    c.set('a', 1, 0);
    c.set('b', 2, 0);
    expect(c.get('a', 1)).toBe(1);
    c.set('c', 3, 2);
    expect(c.get('b', 3)).toBeUndefined();
    expect(c.get('a', 3)).toBe(1);
    expect(c.get('c', 3)).toBe(3);
    expect(c.size).toBe(2);
  });

  it('forgets entries unused for longer than its time to live', () => {
    const c = new BoundedCache<string, number>(10, 1000);
    c.set('a', 1, 0);
    c.set('b', 2, 900);
    expect(c.get('a', 1500)).toBeUndefined();
    expect(c.get('b', 1500)).toBe(2);
    c.set('c', 3, 5000);
    expect(c.size).toBe(1);
  });

  it('keeps entries for ever without a time to live: only the size bounds it', () => {
    const c = new BoundedCache<string, number>(2);
    c.set('a', 1);
    expect(c.get('a', Number.MAX_SAFE_INTEGER)).toBe(1);
    c.set('b', 2);
    c.set('c', 3);
    expect([c.peek('a'), c.peek('b'), c.peek('c')]).toEqual([undefined, 2, 3]);
  });

  it('peeks without making an entry recently used', () => {
    const c = new BoundedCache<string, number>(2);
    c.set('a', 1);
    c.set('b', 2);
    expect(c.peek('a')).toBe(1);
    c.set('c', 3);
    // `a` was only peeked at: still the oldest, so it went.
    expect(c.peek('a')).toBeUndefined();
    expect(c.peek('b')).toBe(2);
  });

  it('setting a kept key again makes it the newest without growing', () => {
    const c = new BoundedCache<string, number>(2);
    c.set('a', 1);
    c.set('b', 2);
    c.set('a', 10);
    c.set('c', 3);
    expect(c.size).toBe(2);
    expect([c.peek('a'), c.peek('b'), c.peek('c')]).toEqual([10, undefined, 3]);
  });

  it('tells what the size limit pushed out, not what was deleted, cleared or expired', () => {
    const evicted: [string, number][] = [];
    const c = new BoundedCache<string, number>(2, 100, { onEvict: (k, v) => evicted.push([k, v]) });
    c.set('a', 1, 0);
    c.set('b', 2, 0);
    c.set('c', 3, 0);
    expect(evicted).toEqual([['a', 1]]);
    c.delete('b');
    c.set('d', 4, 500); // `c` expired: not an eviction
    c.clear();
    expect(evicted).toEqual([['a', 1]]);
    expect(c.size).toBe(0);
  });

  it('deletes what a test picks, leaving the rest in order', () => {
    const c = new BoundedCache<string, number>(10);
    for (const [k, v] of [['a', 1], ['b', 2], ['c', 3], ['d', 4]] as const) c.set(k, v);
    c.deleteWhere((v) => v % 2 === 0);
    expect(c.size).toBe(2);
    expect([c.peek('a'), c.peek('b'), c.peek('c'), c.peek('d')]).toEqual([1, undefined, 3, undefined]);
  });

  it('stays at its size under a flood of distinct keys', () => {
    const c = new BoundedCache<number, number>(100);
    for (let i = 0; i < 10_000; i++) c.set(i, i);
    expect(c.size).toBe(100);
    expect(c.peek(9_999)).toBe(9_999);
    expect(c.peek(9_899)).toBeUndefined();
  });

  it('refuses a size that keeps nothing', () => {
    for (const size of [0, -1, Number.NaN]) expect(() => new BoundedCache(size)).toThrow(RangeError);
  });
});
