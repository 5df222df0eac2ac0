/**
 * Reads shared by callers that ask at the same time, without ever answering a caller with a read that
 * began before it asked: a call made while a read of its key runs waits for the next read, which starts
 * as soon as the running one ends and answers every call made meanwhile. At most one read per key runs
 * and one waits, however many callers there are (a check made per request, under load, costs a few
 * reads instead of one per request), and what each caller gets was read after its call. Pure.
 */
export class NextRead<K, V> {
  readonly #reads = new Map<K, { running: Promise<V>; next: Promise<V> | undefined }>();

  constructor(private readonly read: (key: K) => Promise<V>) {}

  /** A read of `key` that begins now, or as soon as the one running ends. */
  get(key: K): Promise<V> {
    const reading = this.#reads.get(key);
    if (!reading) return this.#start(key);
    const ended = () => this.#start(key);
    return (reading.next ??= reading.running.then(ended, ended));
  }

  /** How many keys are being read (for tests). */
  get size(): number {
    return this.#reads.size;
  }

  #start(key: K): Promise<V> {
    const running = this.read(key);
    const reading = { running, next: undefined as Promise<V> | undefined };
    this.#reads.set(key, reading);
    const forget = () => {
      if (this.#reads.get(key) === reading && reading.next === undefined) this.#reads.delete(key);
    };
    running.then(forget, forget);
    return running;
  }
}
