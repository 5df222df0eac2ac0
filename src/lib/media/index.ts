export * from './media';
export { serveMedia, resolveResourceFile, resolveCaptionFile, mediaRoot, fileSlice, type ClientReady, type MediaFileTarget, type MediaRequest } from './media.server';
export { mediaRoutes } from './routes.server';
