import { describe, expect, it } from 'vitest';
import { robotsTxt, sitemapXml } from './sitemap';

describe('sitemap', () => {
  it('lists each path in both languages with hreflang alternates', () => {
    const xml = sitemapXml('https://academia.example', ['/', '/courses-details/1']);
    expect(xml).toContain('<loc>https://academia.example/</loc>');
    expect(xml).toContain('<loc>https://academia.example/en/</loc>');
    expect(xml).toContain('<loc>https://academia.example/en/courses-details/1</loc>');
    expect(xml.match(/<url>/g)).toHaveLength(4);
    expect(xml).toContain('hreflang="en" href="https://academia.example/en/courses-details/1"');
  });

  it('escapes what XML needs escaped', () => {
    expect(sitemapXml('https://a.example', ['/courses?category=2&business=1'])).toContain('category=2&amp;business=1');
  });
});

describe('robots.txt', () => {
  it('points at the sitemap and keeps personal pages out', () => {
    const txt = robotsTxt('https://academia.example');
    expect(txt).toContain('Sitemap: https://academia.example/sitemap.xml');
    expect(txt).toContain('Disallow: /mylearning');
    expect(txt).toContain('Disallow: /en/purchase');
    expect(txt).toContain('Disallow: /course-certificate');
    expect(txt).not.toContain('Disallow: /verify');
  });
});
