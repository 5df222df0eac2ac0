import { describe, expect, it } from 'vitest';
import { allowsInlineScripts, CONTENT_SECURITY_POLICY, securityHeaders, unionPolicy } from './security';

describe('Content Security Policy', () => {
  it('lets no inline script run without its hash: no unsafe-inline for scripts', () => {
    expect(allowsInlineScripts(CONTENT_SECURITY_POLICY)).toBe(false);
    expect(CONTENT_SECURITY_POLICY).toMatch(/script-src 'self'(;|$)/);
    expect(securityHeaders(false)['Content-Security-Policy']).toBe(CONTENT_SECURITY_POLICY);
    // The policy this replaced.
    expect(allowsInlineScripts("default-src 'self'; script-src 'self' 'unsafe-inline'")).toBe(true);
    expect(allowsInlineScripts("script-src 'self' 'unsafe-inline' 'sha256-abc='")).toBe(false);
  });

  it('keeps framing, plugins and foreign sources out', () => {
    for (const d of ["frame-ancestors 'none'", "object-src 'none'", "base-uri 'self'", "form-action 'self'", "default-src 'self'"]) expect(CONTENT_SECURITY_POLICY).toContain(d);
  });

  it('merges the pages’ policies directive by directive', () => {
    const a = "default-src 'self';script-src 'self' 'sha256-AAA='; style-src 'self' 'unsafe-inline';";
    const b = "default-src 'self';script-src 'self' 'sha256-BBB='; style-src 'self' 'unsafe-inline';";
    expect(unionPolicy([a, b])).toBe("default-src 'self'; script-src 'self' 'sha256-AAA=' 'sha256-BBB='; style-src 'self' 'unsafe-inline'");
    expect(unionPolicy([])).toBeNull();
  });
});
