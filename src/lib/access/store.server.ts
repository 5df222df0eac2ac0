/**
 * What pages, endpoints and sockets read through: the database, the catalogue snapshot and the viewer
 * of an identity. The runtime's store keeps viewers for a short while (one query set per person per
 * `ttlMs` instead of per request) and forgets a person's as soon as what they may see changes
 * (a completed course, a purchase, a membership), in every process, through the bus.
 */
import { BoundedCache } from '../bounded-cache';
import type { Db } from '../db/client';
import { loadCatalog, type CatalogStore } from '../catalog/catalog.server';
import type { CatalogSnapshot } from '../catalog/catalog';
import { VISITOR, type Viewer } from './access';
import { loadViewer, type Identity } from './access.server';

export interface Store {
  readonly db: Db;
  /** The catalogue snapshot (the same object until the catalogue changes). */
  catalog(): Promise<CatalogSnapshot>;
  /** What the access rules know of `identity` (a visitor needs no query). */
  viewer(identity: Identity | null | undefined): Promise<Viewer>;
}

/** Reads straight from the database, the catalogue loaded once (scripts and tests). */
export function directStore(db: Db): Store {
  let catalog: Promise<CatalogSnapshot> | null = null;
  return {
    db,
    catalog: () => (catalog ??= loadCatalog(db)),
    viewer: (identity) => loadViewer(db, identity),
  };
}

/** Whose viewer changed: a user (purchases, memberships) or a contact (completed courses). */
export interface PersonRef {
  userId?: number | null;
  contactId?: number | null;
}

interface Kept {
  viewer: Promise<Viewer>;
  at: number;
  userId: number | null;
  contactId: number | null;
}

/**
 * Viewers kept per identity, least recently used dropped first. A kept viewer is at most `ttlMs` old,
 * which also bounds how late a membership's end is noticed.
 */
export class ViewerCache {
  readonly #kept: BoundedCache<string, Kept>;

  constructor(
    private readonly db: Db,
    private readonly opts: { ttlMs?: number; capacity?: number; now?: () => number } = {},
  ) {
    this.#kept = new BoundedCache(opts.capacity ?? 10_000);
  }

  get(identity: Identity | null | undefined): Promise<Viewer> {
    if (!identity || identity.kind === 'visitor') return Promise.resolve(VISITOR);
    const now = (this.opts.now ?? Date.now)();
    const key = `${identity.kind}:${identity.userId ?? ''}:${identity.contactId ?? ''}`;
    const hit = this.#kept.peek(key);
    if (hit && now - hit.at < (this.opts.ttlMs ?? 30_000)) {
      this.#kept.get(key); // the most recently used now; its age still runs from the read
      return hit.viewer;
    }
    const viewer = loadViewer(this.db, identity);
    const entry: Kept = { viewer, at: now, userId: identity.userId, contactId: identity.contactId };
    this.#kept.set(key, entry);
    viewer.catch(() => {
      if (this.#kept.peek(key) === entry) this.#kept.delete(key);
    });
    return viewer;
  }

  /** Forgets every kept viewer of a person. */
  forget(person: PersonRef): void {
    this.#kept.deleteWhere(
      (kept) => (typeof person.userId === 'number' && kept.userId === person.userId) || (typeof person.contactId === 'number' && kept.contactId === person.contactId),
    );
  }

  /** Forgets everything (after missed messages). */
  clear(): void {
    this.#kept.clear();
  }

  get size(): number {
    return this.#kept.size;
  }
}

/** A store over a catalogue store and a viewer cache (the runtime's). */
export function cachedStore(db: Db, catalog: CatalogStore, viewers: ViewerCache): Store {
  return { db, catalog: () => catalog.get(), viewer: (identity) => viewers.get(identity) };
}
