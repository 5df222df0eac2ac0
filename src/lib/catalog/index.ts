export * from './catalog';
export { listCategories, listBusinesses, listPublicCourseCards } from './catalog.server';
