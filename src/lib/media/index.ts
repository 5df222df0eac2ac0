export * from './media';
export { serveMedia, serveStored, storedSlice, hlsFolder, resolveResourceFile, resolveCaptionFile, fileSlice, type ClientReady, type MediaFileTarget, type MediaRequest } from './media.server';
export { mediaRoutes } from './routes.server';
