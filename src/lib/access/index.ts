export * from './access';
export { loadViewer, type Identity } from './access.server';
