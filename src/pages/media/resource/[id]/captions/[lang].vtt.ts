/** A video resource's caption track (WebVTT) in one language, access-checked like the video itself. */
import { mediaRoutes, parseCaptionParams } from '~/lib/media';

export const prerender = false;
export const { GET, HEAD, ALL } = mediaRoutes(parseCaptionParams);
