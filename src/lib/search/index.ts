/** Course search for pages and endpoints. Islands import `./search.client` instead (no server code). */
export * from './search';
export { searchCourses, type SearchOptions } from './search.server';
