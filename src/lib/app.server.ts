/** Wiring for pages: the process's database, the cached catalogue and the request's viewer. */
import { getDb } from './db/client';
import { getCatalog } from './catalog/catalog.server';
import { loadViewer, type Identity } from './access/access.server';

/** Everything a catalogue page needs, for the person the session names (or a visitor). */
export async function catalogContext(identity: Identity | null) {
  const { db } = await getDb();
  const [catalog, viewer] = await Promise.all([getCatalog(db), loadViewer(db, identity)]);
  return { db, catalog, viewer };
}
