/** The production server's page cache: kept pages answered before Astro, per access context, with each reader's own parts, compressed once. */
import { describe, expect, it } from 'vitest';
import { brotliDecompressSync } from 'node:zlib';
import { personalMarks, type Rendered } from '../src/lib/http/page-cache';
import { createSession } from '../src/lib/identity/session.server';
import * as schema from '../src/lib/db/schema';
import { eq } from 'drizzle-orm';
import { serveTestApp, handle, runtime, base, raw, keepPage } from './app.testing';

serveTestApp();

describe('page cache', () => {
  it('answers a kept page before Astro runs, with the security headers, but never to a session', async () => {
    await keepPage(`${base}/kept?b=2&a=1`, { status: 200, headers: [['content-type', 'text/html']], body: '<p>kept</p>' });
    const hit = await fetch(`${base}/kept?a=1&b=2`);
    expect(await hit.text()).toBe('<p>kept</p>');
    expect(hit.headers.get('x-page-cache')).toBe('hit');
    expect(hit.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const withSession = await fetch(`${base}/kept?a=1&b=2`, { headers: { cookie: 'session=abc' } });
    expect(withSession.status).toBe(404);
    const posted = await fetch(`${base}/kept?a=1&b=2`, { method: 'POST' });
    expect(posted.headers.get('x-page-cache')).toBeNull();
    runtime.catalog.invalidate();
    expect((await fetch(`${base}/kept?a=1&b=2`)).status).toBe(404);
  });

  it("answers a session the page kept for its access context, privately, and never a visitor's page", async () => {
    const [user] = await handle.db.insert(schema.users).values({ email: 'kept@example.com', firstName: 'Kept', lastName: 'Page' }).returning();
    const { token } = await createSession(handle.db, { kind: 'user', userId: user!.id });
    const info = (await runtime.sessions.read(token))!;
    await keepPage(`${base}/kept-audience`, { status: 200, headers: [['content-type', 'text/html'], ['cache-control', 'public, s-maxage=30']], body: '<p>for visitors</p>' });
    const cookie = { cookie: `session=${token}` };
    // Nothing kept for this access context yet: Astro answers (here: not found), not the visitor's page.
    expect((await raw('/kept-audience', cookie)).status).toBe(404);
    await keepPage(`${base}/kept-audience`, { status: 200, headers: [['content-type', 'text/html'], ['cache-control', 'public, s-maxage=30']], body: '<p>for learners like this one</p>' }, info);
    const hit = await raw('/kept-audience', cookie);
    expect(hit.body.toString()).toBe('<p>for learners like this one</p>');
    expect(hit.headers['x-page-cache']).toBe('hit');
    expect(hit.headers['cache-control']).toBe('private, no-store');
    expect((await raw('/kept-audience')).body.toString()).toBe('<p>for visitors</p>');
    // Logged out (the session gone, every process told): the cookie no longer reaches the kept page.
    await handle.db.delete(schema.sessions).where(eq(schema.sessions.userId, user!.id));
    await runtime.sessionChanged({ userId: user!.id });
    expect((await raw('/kept-audience', cookie)).status).toBe(404);
  });

  it("fills a page kept for an access context with each reader's own parts, never another reader's", async () => {
    const made = await handle.db
      .insert(schema.users)
      .values([
        { email: 'ana.kept@example.com', firstName: 'Ana', lastName: 'Primera' },
        { email: 'bea.kept@example.com', firstName: 'Bea', lastName: 'Segunda' },
      ])
      .returning();
    const [ana, bea] = await Promise.all(made.map((u) => createSession(handle.db, { kind: 'user', userId: u.id })));
    const anaInfo = (await runtime.sessions.read(ana!.token))!;
    const beaInfo = (await runtime.sessions.read(bea!.token))!;
    const [open, close] = personalMarks('user');
    const rendered = (name: string): Rendered => ({ status: 200, headers: [['content-type', 'text/html']], body: `<header>${open}<span>${name}</span>${close}</header><main>catálogo</main>` });
    // Rendered for Ana: kept for everyone with her access (neither bought nor completed anything), her parts kept apart.
    await keepPage(`${base}/en/kept-template`, rendered('Ana Primera'), anaInfo);
    const forAna = await raw('/en/kept-template', { cookie: `session=${ana!.token}` });
    expect(forAna.headers['x-page-cache']).toBe('hit');
    expect(forAna.headers['cache-control']).toBe('private, no-store');
    expect(forAna.body.toString()).toBe(rendered('Ana Primera').body);
    // Bea has the same access, but her own parts are not known yet: the page is rendered for her (Astro answers), Ana's name never shown.
    const beaFirst = await raw('/en/kept-template', { cookie: `session=${bea!.token}` });
    expect(beaFirst.status).toBe(404);
    expect(beaFirst.body.toString()).not.toContain('Ana');
    // Once a page was rendered for Bea, the kept page answers her with her own name, and Ana with hers.
    await keepPage(`${base}/en/kept-template`, rendered('Bea Segunda'), beaInfo);
    const beaKept = await raw('/en/kept-template', { cookie: `session=${bea!.token}` });
    expect(beaKept.headers['x-page-cache']).toBe('hit');
    expect(beaKept.body.toString()).toBe(rendered('Bea Segunda').body);
    expect((await raw('/en/kept-template', { cookie: `session=${ana!.token}` })).body.toString()).toBe(rendered('Ana Primera').body);
    // The Spanish page's parts are another language's: Ana's English parts do not answer it.
    await keepPage(`${base}/kept-template`, rendered('Bea Segunda'), beaInfo);
    expect((await raw('/kept-template', { cookie: `session=${bea!.token}` })).headers['x-page-cache']).toBe('hit');
    expect((await raw('/kept-template', { cookie: `session=${ana!.token}` })).status).toBe(404);
  });

  it('sends a kept page compressed, compressing it once', async () => {
    const html = '<li>curso</li>'.repeat(2000);
    const kept = await keepPage(`${base}/kept-big`, { status: 200, headers: [['content-type', 'text/html'], ['vary', 'Cookie']], body: html });
    const first = await raw('/kept-big', { 'accept-encoding': 'br' });
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers.vary).toBe('Cookie, Accept-Encoding');
    expect(brotliDecompressSync(first.body).toString()).toBe(html);
    const once = kept.compressed?.br;
    expect(once).toBeDefined();
    await raw('/kept-big', { 'accept-encoding': 'br' });
    expect(kept.compressed?.br).toBe(once);
    const plain = await raw('/kept-big');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(html);
    expect(Number(plain.headers['content-length'])).toBe(Buffer.byteLength(html));
  });
});
