/** A lesson resource's bytes (video or document), access-checked on every request, with HTTP Range. */
import { mediaRoutes, parseResourceParams } from '~/lib/media';

export const prerender = false;
export const { GET, HEAD, ALL } = mediaRoutes(parseResourceParams);
