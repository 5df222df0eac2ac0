import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CART_COOKIE } from '../commerce/cart';
import { REFERRAL_COOKIE } from '../identity/referral';
import { SESSION_COOKIE } from './page-cache/keys';
import { NOTICE_COOKIE, noticeSeen, SITE_COOKIES } from './site-cookies';

/** The cookie names of the privacy policy's table (the first column, in backticks). */
function policyCookies(locale: 'es' | 'en'): string[] {
  const text = readFileSync(join(process.cwd(), 'src/content/privacy', `${locale}.md`), 'utf8');
  return [...text.matchAll(/^\|\s*`([^`]+)`\s*\|/gm)].map((m) => m[1]!);
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return /\.(ts|tsx|astro)$/.test(e.name) && !/\.test\.ts$/.test(e.name) ? [path] : [];
  });
}

describe('the cookies the site sets', () => {
  it('are the ones the privacy policy lists, in both languages', () => {
    expect(policyCookies('es')).toEqual([...SITE_COOKIES]);
    expect(policyCookies('en')).toEqual([...SITE_COOKIES]);
  });

  it('include every cookie name the code knows', () => {
    expect([SESSION_COOKIE, CART_COOKIE, REFERRAL_COOKIE, NOTICE_COOKIE].sort()).toEqual([...SITE_COOKIES].sort());
  });

  it('are set only under those names (no cookie set in the source under another)', () => {
    const known = new Set(['SESSION_COOKIE', 'CART_COOKIE', 'REFERRAL_COOKIE', 'NOTICE_COOKIE']);
    const others: string[] = [];
    for (const file of sources(join(process.cwd(), 'src'))) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/cookies\.set\(\s*([^,\s)]+)/g)) if (!known.has(m[1]!) && m[1] !== 'raw') others.push(`${file}: ${m[1]}`);
      for (const m of text.matchAll(/document\.cookie\s*=\s*`([^=`$]+)=/g)) if (!(SITE_COOKIES as readonly string[]).includes(m[1]!)) others.push(`${file}: ${m[1]}`);
    }
    expect(others).toEqual([]);
  });

  it('tell a closed notice only by the exact cookie', () => {
    expect(noticeSeen('cart=1; notice=seen')).toBe(true);
    expect(noticeSeen('notice=seen2')).toBe(false);
    expect(noticeSeen(null)).toBe(false);
  });
});
