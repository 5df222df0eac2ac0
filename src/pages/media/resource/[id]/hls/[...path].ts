/** A video resource's HLS files (master playlist, renditions, segments) from storage, access-checked like the video itself. */
import { mediaRoutes, parseHlsParams } from '~/lib/media';

export const prerender = false;
export const { GET, HEAD, ALL } = mediaRoutes(parseHlsParams);
