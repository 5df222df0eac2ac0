import { describe, expect, it } from 'vitest';
import { sameSite } from './same-site';
import { fakeContext, fakeNext } from './context.testing';
import { messages } from '~/i18n';

describe('same-site step', () => {
  it('refuses a change sent from another site with a 403 in the page language, before anything runs', async () => {
    for (const [path, locale] of [['/en/cart', 'en'], ['/cart', 'es']] as const) {
      const { ctx } = fakeContext(path, { method: 'POST', headers: { origin: 'https://evil.example' }, locals: { requestOrigin: 'http://localhost:4321' } });
      const next = fakeNext();
      const r = (await sameSite(ctx, next))!;
      expect(r.status).toBe(403);
      expect(r.headers.get('content-language')).toBe(locale);
      expect(await r.text()).toBe(messages(locale).crossSite);
      expect(next.calls).toBe(0);
    }
  });

  it('lets through a change from the site itself, a read from anywhere, and a change the browser says is cross-site only when it is', async () => {
    const locals = { requestOrigin: 'http://localhost:4321' };
    for (const opts of [
      { method: 'POST', headers: { origin: 'http://localhost:4321' }, locals },
      { method: 'GET', headers: { origin: 'https://evil.example' }, locals },
      { method: 'POST', headers: { 'sec-fetch-site': 'same-origin' }, locals },
    ]) {
      const next = fakeNext();
      expect((await sameSite(fakeContext('/cart', opts).ctx, next))!.status).toBe(200);
      expect(next.calls).toBe(1);
    }
    expect((await sameSite(fakeContext('/cart', { method: 'POST', headers: { 'sec-fetch-site': 'cross-site' }, locals }).ctx, fakeNext()))!.status).toBe(403);
  });
});
