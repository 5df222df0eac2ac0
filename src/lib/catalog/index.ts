export * from './catalog';
export { loadCatalog, CatalogStore } from './catalog.server';
