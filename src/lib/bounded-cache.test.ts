import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
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

  it('keeps and forgets exactly what a least-recently-used map does, under any mix of calls', () => {
    // The model: a Map reordered by deleting and setting again on every use.
    class Model {
      readonly m = new Map<number, { value: number; at: number }>();
      evicted: number[] = [];
      constructor(readonly max: number, readonly ttl: number) {}
      get(k: number, now: number) {
        const e = this.m.get(k);
        if (!e) return undefined;
        this.m.delete(k);
        if (now - e.at > this.ttl) return undefined;
        e.at = now;
        this.m.set(k, e);
        return e.value;
      }
      set(k: number, v: number, now: number) {
        this.m.delete(k);
        this.m.set(k, { value: v, at: now });
        for (const [key, e] of this.m) {
          const expired = now - e.at > this.ttl;
          if (this.m.size <= this.max && !expired) break;
          this.m.delete(key);
          if (!expired) this.evicted.push(key);
        }
      }
    }
    const op = fc.oneof(
      fc.record({ kind: fc.constant('get' as const), key: fc.integer({ min: 0, max: 7 }) }),
      fc.record({ kind: fc.constant('set' as const), key: fc.integer({ min: 0, max: 7 }), value: fc.integer() }),
      fc.record({ kind: fc.constant('delete' as const), key: fc.integer({ min: 0, max: 7 }) }),
      fc.record({ kind: fc.constant('dropOdd' as const) }),
      fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 40 }) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.constantFrom(50, Number.POSITIVE_INFINITY), fc.array(op, { maxLength: 60 }), (max, ttl, ops) => {
        const evicted: number[] = [];
        const c = new BoundedCache<number, number>(max, ttl, { onEvict: (k) => evicted.push(k) });
        const model = new Model(max, ttl);
        let now = 0;
        for (const o of ops) {
          if (o.kind === 'tick') now += o.ms;
          else if (o.kind === 'get') expect(c.get(o.key, now)).toBe(model.get(o.key, now));
          else if (o.kind === 'set') {
            c.set(o.key, o.value, now);
            model.set(o.key, o.value, now);
          } else if (o.kind === 'delete') {
            c.delete(o.key);
            model.m.delete(o.key);
          } else {
            c.deleteWhere((_, k) => k % 2 === 1);
            for (const k of [...model.m.keys()]) if (k % 2 === 1) model.m.delete(k);
          }
          expect(c.size).toBe(model.m.size);
          for (let k = 0; k < 8; k++) expect(c.peek(k)).toBe(model.m.get(k)?.value);
        }
        expect(evicted).toEqual(model.evicted);
      }),
    );
  });
});
