export { openDatabase, queryRows, type Db, type DbHandle, type DbTarget } from './client';
export { migrate } from './migrate';
export { seed, isEmpty, dropEverything, type SeedSummary } from './seed/seed.server';
export * as schema from './schema';
