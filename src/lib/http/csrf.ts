/** The cross-site change check (CSRF) of the middleware, on the same-origin rule of `origin.ts`. Pure. */
import { sameOrigin } from './origin';

/**
 * True when a state-changing request comes from another site: its `Origin` is not exactly `expected`
 * (scheme, host and port: `https://host` does not match a request made over `http://host`), or,
 * without an `Origin`, the browser says it is cross-site (`Sec-Fetch-Site`). Safe methods never are.
 */
export function crossSiteMutation(method: string, headers: Headers, expected: string | null): boolean {
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return false;
  const origin = headers.get('origin');
  if (origin !== null) return !sameOrigin(origin, expected);
  return headers.get('sec-fetch-site') === 'cross-site';
}
