/** A library video's HLS files, poster and caption tracks, for the editors' preview (editor role, proved second factor). */
import { previewRoutes } from '~/lib/videos/preview.server';

export const prerender = false;
export const { GET, HEAD, ALL } = previewRoutes();
