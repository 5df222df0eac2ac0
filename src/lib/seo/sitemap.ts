/** sitemap.xml and robots.txt, built from the route registry. Pure. */
import { alternates } from '../paths';

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A sitemap listing every path in both languages, each with its hreflang alternates. */
export function sitemapXml(origin: string, pathsList: readonly string[]): string {
  const urls = pathsList.flatMap((path) => {
    const alts = alternates(path);
    return alts.map(
      (a) =>
        `  <url>\n    <loc>${escape(new URL(a.href, origin).href)}</loc>\n${alts
          .map((x) => `    <xhtml:link rel="alternate" hreflang="${x.locale}" href="${escape(new URL(x.href, origin).href)}"/>`)
          .join('\n')}\n  </url>`,
    );
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join('\n')}\n</urlset>\n`;
}

/** robots.txt: everything public is crawlable; personal and cart pages are not. */
export function robotsTxt(origin: string): string {
  // Not /verify: crawlers must read its noindex, which a Disallow would hide.
  const privatePaths = ['/mylearning', '/myshopping', '/profile', '/purchase', '/api/', '/course-generate', '/course-certificate'];
  const lines = ['User-agent: *', 'Allow: /', ...privatePaths.flatMap((p) => [`Disallow: ${p}`, `Disallow: /en${p}`]), '', `Sitemap: ${new URL('/sitemap.xml', origin).href}`];
  return `${lines.join('\n')}\n`;
}
