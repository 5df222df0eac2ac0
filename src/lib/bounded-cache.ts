/**
 * A map that forgets: at most `maxSize` entries, the least recently used going first, and (with a
 * time to live) none unused for longer than `ttlMs`. Every in-process cache of the academy (sessions,
 * viewers, pages, personal parts, change stamps, the progress tracker's lessons and clocks) is one, so
 * a flood of keys can never grow a process's memory without bound. Time is passed in, so it is
 * testable without waiting. Pure, no imports.
 */

interface Entry<V> {
  value: V;
  at: number;
}

export interface BoundedCacheOptions<K, V> {
  /** Told of each entry pushed out by the size limit (not of deletes, expiries or `clear`). */
  onEvict?: (key: K, value: V) => void;
}

export class BoundedCache<K, V> {
  readonly #entries = new Map<K, Entry<V>>();
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
    this.#entries.delete(key);
    if (now - e.at > this.ttlMs) return undefined;
    e.at = now;
    this.#entries.set(key, e);
    return e.value;
  }

  /** The value as it is, its place in the order unchanged (and no time to live applied). */
  peek(key: K): V | undefined {
    return this.#entries.get(key)?.value;
  }

  /** Stores `value` as the most recently used, then forgets the expired and the least recently used beyond `maxSize`. */
  set(key: K, value: V, now = 0): void {
    this.#entries.delete(key);
    this.#entries.set(key, { value, at: now });
    // Map iteration is insertion order: the first entries are the least recently used.
    for (const [k, e] of this.#entries) {
      const expired = now - e.at > this.ttlMs;
      if (this.#entries.size <= this.maxSize && !expired) break;
      this.#entries.delete(k);
      if (!expired) this.#onEvict?.(k, e.value);
    }
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }

  /** Forgets every entry `drop` says so of (deleting while walking is safe). */
  deleteWhere(drop: (value: V, key: K) => boolean): void {
    for (const [k, e] of this.#entries) if (drop(e.value, k)) this.#entries.delete(k);
  }

  clear(): void {
    this.#entries.clear();
  }
}
