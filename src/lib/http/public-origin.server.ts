/**
 * The public origin of the request being rendered, for pages, endpoints and actions: the rule of
 * `public-origin.ts` with this process's settings (read once from the environment).
 */
import { readOriginSettings } from '../config/config';
import { publicOrigin, type OriginSettings } from './public-origin';

let settings: OriginSettings | null = null;

/** This process's origin settings (`PUBLIC_URL`, `ALLOWED_HOSTS`, `PORT`), read on first use. */
export function originSettings(): OriginSettings {
  settings ??= readOriginSettings();
  return settings;
}

/**
 * The origin absolute URLs of this request use. `url` is the request's address as Astro sees it (its
 * scheme already follows a trusted proxy); a prerendered page has no request and gets the configured one.
 */
export function siteOrigin(url: URL, prerendered = false): string {
  return publicOrigin(originSettings(), prerendered ? null : { host: url.host, protocol: url.protocol === 'https:' ? 'https:' : 'http:' });
}
