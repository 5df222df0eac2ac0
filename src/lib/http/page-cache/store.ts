/**
 * Where kept pages live: bounded in-memory maps of whole pages (the same for everyone in one audience,
 * or for one person), of each reader's personal parts, and the clock that says whether a person's
 * page is still fresh. One embedded database serialises every query, so rendering for each request
 * would cap throughput; the catalogue snapshot already avoids the queries, and this avoids
 * re-rendering. Entries are kept per catalogue version, so a catalogue write shows at once. Pure.
 */
import { BoundedCache } from '../../bounded-cache';
import type { PersonalParts, PersonalTemplate } from './personal';

/** A cached page. */
export interface CachedPage {
  status: number;
  headers: [string, string][];
  body: string;
  /**
   * A page kept for a logged-in audience: the body without its personal parts, filled for each person
   * (`fillPersonal`). Such a page has no shared `body`, ETag or compressed copies.
   */
  template?: PersonalTemplate;
  /** The body's (weak) ETag, computed once when stored; also among `headers`. */
  etag?: string;
  /** The body compressed once per coding, on first demand (filled by the server). */
  compressed?: Partial<Record<'br' | 'gzip', Promise<Buffer>>>;
  /** A page kept for one person (`ownPageKey`): who, and `PersonStamps.now()` when its rendering began. */
  owner?: PageOwner;
  stamp?: number;
  /**
   * A page of an IBO's business kept for its owner: the IBOs whose changes it shows and their counts of
   * changes when it began (`PageCacheRuntime.changeCounts`), answered again only while they read the
   * same and before `until` (ms since the epoch: a day's end, a commission's hold ending); `clock`: the
   * embedded database's count of told changes when they were last known to read the same.
   */
  business?: { ibos: readonly number[]; stamp: string; until: number; clock?: number | undefined };
  /**
   * Not a page but a pointer: the page at this address depends on these cookies too, and each of its
   * versions is kept under `variedPageKey`. Never answered itself.
   */
  varies?: readonly string[];
}

/** A bounded least-recently-used map of pages for one catalogue version. */
export class PageCache {
  private readonly entries: BoundedCache<string, CachedPage>;
  private version = -1;

  constructor(capacity = 500) {
    this.entries = new BoundedCache(capacity);
  }

  /** The page stored for `key` at catalogue `version`, if any. */
  get(key: string, version: number): CachedPage | undefined {
    if (version !== this.version) return undefined;
    return this.entries.get(key);
  }

  /** Stores a page rendered at catalogue `version` (older versions are dropped). */
  set(key: string, version: number, page: CachedPage): void {
    if (version !== this.version) {
      this.entries.clear();
      this.version = version;
    }
    this.entries.set(key, page);
  }

  /** How many pages are stored. */
  get size(): number {
    return this.entries.size;
  }
}

/** Who an own page belongs to (a user, their contact, or an IBO session's prospect). */
export interface PageOwner {
  userId: number | null;
  contactId: number | null;
}

/**
 * When each person's data last changed, on a clock of this process: a page kept for one person
 * (`locals.ownPage`) is answered again only while nothing of theirs changed after it began rendering.
 * Changes come from this process (progress just committed) and from every process through the bus
 * (progress, completions, purchases). Bounded: a forgotten person counts as changed at the newest
 * forgotten time, so forgetting can only make a page older, never fresher.
 */
export class PersonStamps {
  #clock = 0;
  #floor = 0;
  /** A forgotten person counts as changed at the newest forgotten time. */
  readonly #changed: BoundedCache<string, number>;

  constructor(capacity = 50_000) {
    this.#changed = new BoundedCache(capacity, undefined, { onEvict: (_key, time) => (this.#floor = Math.max(this.#floor, time)) });
  }

  /** The time a render that starts now is stamped with. */
  now(): number {
    return this.#clock;
  }

  /** Something of this person changed (`null`: of everyone, as after a lost bus connection). */
  changed(person: Partial<PageOwner> | null): void {
    const at = ++this.#clock;
    if (person === null) {
      this.#changed.clear();
      this.#floor = at;
      return;
    }
    for (const key of ownerKeys(person)) this.#changed.set(key, at);
  }

  /** True when nothing of `owner` changed after `stamp` (a render's `now()`). */
  fresh(owner: PageOwner, stamp: number): boolean {
    if (this.#floor > stamp) return false;
    return ownerKeys(owner).every((key) => (this.#changed.peek(key) ?? 0) <= stamp);
  }
}

function ownerKeys(person: Partial<PageOwner>): string[] {
  const keys: string[] = [];
  if (typeof person.userId === 'number') keys.push(`u${person.userId}`);
  if (typeof person.contactId === 'number') keys.push(`c${person.contactId}`);
  return keys;
}

/**
 * Each person's personal parts (`personal.ts`), keyed by `personalKey` (language and session summary),
 * kept from the last page rendered for them. A changed name or a new session makes a new key, so
 * nothing needs forgetting; the oldest go first.
 */
export class PersonalPartsCache {
  readonly #kept: BoundedCache<string, PersonalParts>;

  constructor(capacity = 20_000) {
    this.#kept = new BoundedCache(capacity);
  }

  get(key: string): PersonalParts | undefined {
    return this.#kept.peek(key);
  }

  set(key: string, parts: PersonalParts): void {
    this.#kept.set(key, parts);
  }

  get size(): number {
    return this.#kept.size;
  }
}
