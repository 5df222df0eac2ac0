/**
 * An IBO's logo staff uploaded: the 400×400 WebP the server made of it (never the upload), from storage,
 * to anyone (a logo is shown in the header of its IBO's visitors). Its address
 * changes with its bytes, so it is kept for good. 404 for a name that is not one of ours or a file gone.
 */
import type { APIRoute } from 'astro';
import { toLocale } from '~/i18n';
import { serveUploadedImage } from '~/lib/media/uploaded-images.server';

export const prerender = false;

const answer = (method: 'GET' | 'HEAD'): APIRoute => ({ params, url, locals }) => serveUploadedImage(locals.runtime.storage, 'ibo-logo', params.name, method, toLocale(url.searchParams.get('lang') ?? undefined));

export const GET = answer('GET');
export const HEAD = answer('HEAD');
