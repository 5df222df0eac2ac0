/** Handler: the built site's files (`dist/client`), for reads; the not-found page's own files are never served with 200. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PagePolicies, StaticSite } from '../static';
import type { Handler } from './exchange';

const ERROR_PAGE = /^\/(en\/)?404(\.html|\/)?$/;

export function staticFiles(site: StaticSite, policies: PagePolicies | undefined): Handler {
  return ({ req, res, url }) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const hit = ERROR_PAGE.test(url.pathname) ? null : site.resolve(url.pathname);
    if (!hit) return false;
    site.send(req, res, hit, url.pathname, 200, policies);
    return true;
  };
}

/** The not-found page of the address's language (404). */
export function notFound(req: IncomingMessage, res: ServerResponse, site: StaticSite, policies?: PagePolicies): void {
  const english = /^\/en(\/|$)/.test(req.url ?? '');
  const page = site.resolve(english ? '/en/404/' : '/404.html');
  if (!page) {
    res.statusCode = 404;
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.end('404');
    return;
  }
  site.send(req, res, page, english ? '/en/404' : '/404', 404, policies);
}
