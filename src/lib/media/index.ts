export * from './media';
export { serveMedia, resolveResourceFile, resolveCaptionFile, fileSlice, type ClientReady, type MediaFileTarget, type MediaRequest } from './media.server';
export { mediaRoutes } from './routes.server';
