export * from './catalog';
export { getCatalog, loadCatalog, invalidateCatalog, catalogVersion, onCatalogChange, announceCatalogChange, listenForCatalogChanges } from './catalog.server';
