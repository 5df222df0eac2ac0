/** Headers the middleware settles on every answer it gives. Pure. */
import { PRIVATE_CACHE_CONTROL } from './page-cache';

/** The response with header `name` set to `value` (a copy when its headers are immutable). */
export function withHeader(response: Response, name: string, value: string): Response {
  try {
    response.headers.set(name, value);
    return response;
  } catch {
    const headers = new Headers(response.headers);
    headers.set(name, value);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}

/** The response with `Cache-Control: private, no-store`. */
export function privately(response: Response): Response {
  return withHeader(response, 'cache-control', PRIVATE_CACHE_CONTROL);
}

/**
 * The response with `Cookie` among its `Vary` names: every answer rendered here may depend on the
 * request's cookies, so a shared cache keeps the visitors' copy apart from a cookie holder's.
 */
export function varyOnCookie(response: Response): Response {
  const vary = response.headers.get('vary');
  if (vary?.split(',').some((v) => ['cookie', '*'].includes(v.trim().toLowerCase()))) return response;
  return withHeader(response, 'vary', vary ? `${vary}, Cookie` : 'Cookie');
}
