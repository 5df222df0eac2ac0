/**
 * An IBO's business pages, kept for their owner: read again while nothing they show changed, they are
 * answered without rendering; a change of the IBO's business written straight to the database (as
 * another process would, telling no one) is shown at the next request; another IBO's change is not
 * one; no one else is ever answered with the owner's page. Skipped without a build (`npm run build`).
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts } from '../src/lib/db/schema';
import { queryRows } from '../src/lib/db/client';
import { countAffiliateVisit } from '../src/lib/identity/ibo.server';
import { makeIbos } from '../src/lib/testing/ibos';
import { siteBuilt, startBuiltSite, type BuiltSite } from './built-site.testing';

if (!siteBuilt) console.warn('The business page tests are skipped: they need a build (`npm run build`).');

describe.skipIf(!siteBuilt)("an IBO's business pages, kept for their owner", () => {
  let built: BuiltSite;

  beforeAll(async () => {
    built = await startBuiltSite({ env: { VIDEO_WORKER: '0' } });
  });
  afterAll(() => built?.close());

  const read = async (path: string, cookie: string) => {
    const r = await built.get(path, cookie);
    return { status: r.status, source: r.headers.get('x-page-cache'), cacheControl: r.headers.get('cache-control'), body: await r.text() };
  };
  /** The card of Lucía Gómez, the IBO's prospect with no activity yet. */
  const LUCIA = '/mybusiness/people?q=G%C3%B3mez';

  it('answers the owner from the page it kept until one of its people makes progress, which shows at the next request', async () => {
    const owner = await built.logIn('ibo.horizonte@academia.example', 'Horizonte2026');
    const first = await read(LUCIA, owner);
    expect(first.status).toBe(200);
    expect(first.source).toBe('miss');
    expect(first.cacheControl).toBe('private, no-store');
    expect(first.body).toContain('Lucía Gómez');
    expect(first.body).toContain('Sin actividad todavía');
    const again = await read(LUCIA, owner);
    expect(again.source).toBe('hit');
    expect(again.body).toBe(first.body);

    // Another IBO's business changes (a visit through its link): the page is still current.
    const { LONER } = await makeIbos(built.db.db, [{ code: 'LONER' }]);
    await countAffiliateVisit(built.db.db, LONER!);
    expect((await read(LUCIA, owner)).source).toBe('hit');

    // Lucía finishes a lesson, stored straight in the database: no bus message, no cache told.
    const [lucia] = await built.db.db.select({ id: contacts.id }).from(contacts).where(eq(contacts.email, 'lucia.gomez@example.com'));
    const [lesson] = await queryRows<{ id: number }>(built.db.db, sql`select st.id from subtopics st join topics tp on tp.id = st.topic_id where tp.course_id = 1 order by tp.position, st.position limit 1`);
    await built.db.db.execute(sql`insert into tracking (contact_id, course_id, subtopic_id, completed_at) values (${lucia!.id}, 1, ${lesson!.id}, now())`);
    const after = await read(LUCIA, owner);
    expect(after.source).toBe('miss');
    expect(after.body).toContain('Cursos: 1');
    expect(after.body).not.toContain('Sin actividad todavía');
    expect((await read(LUCIA, owner)).source).toBe('hit');
  });

  it("keeps each language's page apart, and answers no one else with the owner's", async () => {
    const owner = await built.logIn('ibo.horizonte@academia.example', 'Horizonte2026');
    await read(LUCIA, owner);
    const en = await read(`/en${LUCIA}`, owner);
    expect(en.status).toBe(200);
    expect(en.body).toContain('My people');
    expect(en.body).not.toContain('Mis personas');

    const learner = await built.logIn('learner@academia.example', 'Aprende2026');
    const refused = await read(LUCIA, learner);
    expect(refused.status).toBe(403);
    expect(refused.body).not.toContain('Lucía Gómez');
    const suspended = await built.logIn('ibo.rutas@academia.example', 'Rutas2026');
    const notice = await read(LUCIA, suspended);
    expect(notice.body).not.toContain('Lucía Gómez');
    expect(notice.source).not.toBe('hit');
    // A visitor, and a session cookie that is not one, are sent to log in.
    expect((await built.get(LUCIA)).status).toBe(302);
    expect((await built.get(LUCIA, 'session=forged')).status).not.toBe(200);

    // The owner's session ended: the kept page is not answered to its cookie.
    const out = await fetch(`${built.base}/_actions/auth.logout`, {
      method: 'POST',
      headers: { origin: built.base, cookie: owner, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ lang: 'es' }),
    });
    expect(out.status).toBeLessThan(400);
    const gone = await built.get(LUCIA, owner);
    expect(gone.status).toBe(302);
  });
});
