/**
 * A map that forgets: at most `maxSize` entries, the least recently used going first, and (with a
 * time to live) none unused for longer than `ttlMs`. Every in-process cache of the academy (sessions,
 * viewers, pages, personal parts, change stamps, the progress tracker's lessons and clocks) is one, so
 * a flood of keys can never grow a process's memory without bound. Time is passed in, so it is
 * testable without waiting. Pure, no imports.
 */

/** An entry, linked from the least recently used to the most recently used. */
interface Entry<K, V> {
  key: K;
  value: V;
  at: number;
  older: Entry<K, V> | undefined;
  newer: Entry<K, V> | undefined;
}

export interface BoundedCacheOptions<K, V> {
  /** Told of each entry pushed out by the size limit (not of deletes, expiries or `clear`). */
  onEvict?: (key: K, value: V) => void;
}

export class BoundedCache<K, V> {
  // The order of use is a list through the entries themselves: a hit moves its entry to the newest end by
  // relinking it, which allocates nothing. (Deleting and setting the key again in the map on every hit, as
  // this did before, made the map's tables churn: under load, garbage that reached the old generation and
  // set off a full collection a second or so; `docs/benchmarks.md`, the ninth day's session.)
  readonly #entries = new Map<K, Entry<K, V>>();
  #oldest: Entry<K, V> | undefined;
  #newest: Entry<K, V> | undefined;
  readonly #onEvict: ((key: K, value: V) => void) | undefined;

  /**
   * @param maxSize the most entries kept (at least 1)
   * @param ttlMs how long an entry is kept unused (default: for ever, the size alone bounds it)
   */
  constructor(
    readonly maxSize: number,
    readonly ttlMs = Number.POSITIVE_INFINITY,
    opts: BoundedCacheOptions<K, V> = {},
  ) {
    if (!(maxSize >= 1)) throw new RangeError(`a bounded cache keeps at least one entry, not ${maxSize}`);
    this.#onEvict = opts.onEvict;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The value, made the most recently used; `undefined` when absent or unused for longer than `ttlMs` at `now`. */
  get(key: K, now = 0): V | undefined {
    const e = this.#entries.get(key);
    if (!e) return undefined;
    if (now - e.at > this.ttlMs) {
      this.#remove(e);
      return undefined;
    }
    e.at = now;
    this.#makeNewest(e);
    return e.value;
  }

  /** The value as it is, its place in the order unchanged (and no time to live applied). */
  peek(key: K): V | undefined {
    return this.#entries.get(key)?.value;
  }

  /** Stores `value` as the most recently used, then forgets the expired and the least recently used beyond `maxSize`. */
  set(key: K, value: V, now = 0): void {
    const kept = this.#entries.get(key);
    if (kept) {
      kept.value = value;
      kept.at = now;
      this.#makeNewest(kept);
    } else {
      const e: Entry<K, V> = { key, value, at: now, older: this.#newest, newer: undefined };
      if (this.#newest) this.#newest.newer = e;
      else this.#oldest = e;
      this.#newest = e;
      this.#entries.set(key, e);
    }
    // From the least recently used on: the expired, then whatever is beyond the size.
    for (let e = this.#oldest; e; ) {
      const expired = now - e.at > this.ttlMs;
      if (this.#entries.size <= this.maxSize && !expired) break;
      const next = e.newer;
      this.#remove(e);
      if (!expired) this.#onEvict?.(e.key, e.value);
      e = next;
    }
  }

  delete(key: K): void {
    const e = this.#entries.get(key);
    if (e) this.#remove(e);
  }

  /** Forgets every entry `drop` says so of (deleting while walking is safe). */
  deleteWhere(drop: (value: V, key: K) => boolean): void {
    for (let e = this.#oldest; e; ) {
      const next = e.newer;
      if (drop(e.value, e.key)) this.#remove(e);
      e = next;
    }
  }

  clear(): void {
    this.#entries.clear();
    this.#oldest = this.#newest = undefined;
  }

  #unlink(e: Entry<K, V>): void {
    if (e.older) e.older.newer = e.newer;
    else this.#oldest = e.newer;
    if (e.newer) e.newer.older = e.older;
    else this.#newest = e.older;
    e.older = e.newer = undefined;
  }

  #makeNewest(e: Entry<K, V>): void {
    if (this.#newest === e) return;
    this.#unlink(e);
    e.older = this.#newest;
    if (this.#newest) this.#newest.newer = e;
    else this.#oldest = e;
    this.#newest = e;
  }

  #remove(e: Entry<K, V>): void {
    this.#entries.delete(e.key);
    this.#unlink(e);
  }
}
