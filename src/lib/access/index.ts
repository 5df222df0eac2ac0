export * from './access';
export { loadViewer, completedCourses, type Identity } from './access.server';
export { directStore, cachedStore, ViewerCache, type Store, type PersonRef } from './store.server';
export * from './policy';
