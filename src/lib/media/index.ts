export * from './media';
export { serveMedia, serveStored, hlsFolder, resolveResourceFile, resolveResourceHls, resolveCaptionFile, streamSlice, type ClientReady, type MediaFileTarget, type MediaRequest } from './media.server';
export { mediaRoutes } from './routes.server';
export { stockMedia, type StockReport } from './stock.server';
