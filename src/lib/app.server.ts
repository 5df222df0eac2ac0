/** Wiring for pages: the runtime's store, the cached catalogue and the request's viewer. */
import type { Runtime } from './runtime/runtime.server';
import type { Identity } from './access/access.server';

/** Everything a catalogue page needs, for the person the session names (or a visitor). */
export async function catalogContext(locals: { runtime: Runtime; identity: Identity | null }) {
  const { store } = locals.runtime;
  const [catalog, viewer] = await Promise.all([store.catalog(), store.viewer(locals.identity)]);
  return { db: store.db, store, catalog, viewer };
}
