/**
 * Where kept pages live: bounded in-memory maps of whole pages (the same for everyone in one audience,
 * or for one person), of each reader's personal parts, and the clock that says whether a person's
 * page is still fresh. One embedded database serialises every query, so rendering for each request
 * would cap throughput; the catalogue snapshot already avoids the queries, and this avoids
 * re-rendering. Entries are kept per catalogue version, so a catalogue write shows at once. Pure.
 */
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
}

/** A bounded least-recently-used map of pages for one catalogue version. */
export class PageCache {
  private readonly entries = new Map<string, CachedPage>();
  private version = -1;

  constructor(private readonly capacity = 500) {}

  /** The page stored for `key` at catalogue `version`, if any. */
  get(key: string, version: number): CachedPage | undefined {
    if (version !== this.version) return undefined;
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  /** Stores a page rendered at catalogue `version` (older versions are dropped). */
  set(key: string, version: number, page: CachedPage): void {
    if (version !== this.version) {
      this.entries.clear();
      this.version = version;
    }
    this.entries.delete(key);
    this.entries.set(key, page);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
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
  readonly #changed = new Map<string, number>();

  constructor(private readonly capacity = 50_000) {}

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
    for (const key of ownerKeys(person)) {
      this.#changed.delete(key);
      this.#changed.set(key, at);
    }
    while (this.#changed.size > this.capacity) {
      const [oldest, time] = this.#changed.entries().next().value as [string, number];
      this.#changed.delete(oldest);
      this.#floor = Math.max(this.#floor, time);
    }
  }

  /** True when nothing of `owner` changed after `stamp` (a render's `now()`). */
  fresh(owner: PageOwner, stamp: number): boolean {
    if (this.#floor > stamp) return false;
    return ownerKeys(owner).every((key) => (this.#changed.get(key) ?? 0) <= stamp);
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
  readonly #kept = new Map<string, PersonalParts>();

  constructor(private readonly capacity = 20_000) {}

  get(key: string): PersonalParts | undefined {
    return this.#kept.get(key);
  }

  set(key: string, parts: PersonalParts): void {
    this.#kept.delete(key);
    this.#kept.set(key, parts);
    while (this.#kept.size > this.capacity) this.#kept.delete(this.#kept.keys().next().value as string);
  }

  get size(): number {
    return this.#kept.size;
  }
}
