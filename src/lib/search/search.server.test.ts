import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq, sql } from 'drizzle-orm';
import { testDatabases } from '../db/testing';
import { queryRows, type DbHandle } from '../db/client';
import { courses, users } from '../db/schema';
import { loadViewer, VISITOR, type Viewer } from '../access';
import { searchCourses } from './search.server';

const databases = await testDatabases();

describe.each(databases)('searchCourses on $name', ({ create }) => {
  let handle: DbHandle;
  let buyer: Viewer;
  let learner: Viewer;

  beforeAll(async () => {
    handle = await create({ seed: true });
    const viewerOf = async (email: string) => {
      const [u] = await handle.db.select({ id: users.id }).from(users).where(eq(users.email, email));
      return loadViewer(handle.db, { kind: 'learner', userId: u!.id, contactId: null });
    };
    buyer = await viewerOf('buyer@academia.example'); // bought 10, 16 and 6
    learner = await viewerOf('learner@academia.example'); // bought nothing
  });
  afterAll(async () => {
    await handle?.close();
  });

  const search = (q: string, locale: 'es' | 'en' = 'es', viewer: Viewer = VISITOR, limit?: number) =>
    searchCourses(handle.db, { q, locale, viewer, limit });
  const ids = async (...args: Parameters<typeof search>) => (await search(...args)).map((r) => r.id);

  it('finds a course by a word of its name, ignoring case and accents on either side', async () => {
    for (const q of ['vision', 'Visión', 'VISION', 'visión']) {
      const found = await search(q);
      expect(found[0], q).toMatchObject({ id: 31, name: 'Real Vision básico', categoryName: 'Básico', thumbnail: '/images/courses/31.webp' });
      expect(found.map((r) => r.id), q).toContain(32);
    }
    expect((await search('finanzas'))[0]).toMatchObject({ id: 6, name: 'Finanzas personales esenciales' });
    expect((await search('fínanzas'))[0]).toMatchObject({ id: 6, name: 'Finanzas personales esenciales' });
    expect((await search('FINANZAS PERSONALES'))[0]!.id).toBe(6);
  });

  it('tolerates one typo', async () => {
    expect((await search('marketng'))[0]).toMatchObject({ id: 5, name: 'Marketing digital básico' });
    expect((await search('vison'))[0]!.id).toBe(31);
    expect((await search('finanzaz'))[0]!.id).toBe(6);
    expect((await search('lidrazgo'))[0]!.id).toBe(9);
  });

  it('answers in the requested language and also finds names of the other language, ranked lower', async () => {
    expect((await search('cruceros', 'es'))[0]).toMatchObject({ id: 20, name: 'Masterclass de venta de cruceros' });
    expect((await search('cruises', 'en'))[0]).toMatchObject({ id: 20, name: 'Cruise sales masterclass', categoryName: 'Trainings' });
    // An English word on the Spanish site still finds the course, named in Spanish.
    const crossed = await search('cruises', 'es');
    expect(crossed[0]).toMatchObject({ id: 20, name: 'Masterclass de venta de cruceros' });
    const direct = await search('cruceros', 'es');
    expect(crossed[0]!.score).toBeLessThan(direct[0]!.score);
    expect(await ids('leadership', 'es')).toEqual([9]);
  });

  it('finds descriptions too, below any name match', async () => {
    // "curso" is in no visible course name, but in descriptions.
    const found = await search('curso');
    expect(found.length).toBeGreaterThan(0);
    for (const r of found) expect(r.score).toBeLessThanOrEqual(0.5);
    // "vision" is in the name of 31 and 32 and in the description of 32: names rank first, basic before intermediate.
    const vision = await search('vision');
    expect(vision.slice(0, 2).map((r) => r.id)).toEqual([31, 32]);
  });

  it('ranks a match of the name in the requested language above fuzzy and other-language matches', async () => {
    const found = await search('venta');
    expect(found.slice(0, 2).map((r) => r.id).sort((a, b) => a - b)).toEqual([7, 20]);
    const scores = found.map((r) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect((await search('travel', 'en'))[0]!.score).toBeGreaterThan((await search('travel', 'es'))[0]!.score);
  });

  it('needs 3 characters and keeps to the limit', async () => {
    expect(await search('vi')).toEqual([]);
    expect(await search('  v  ')).toEqual([]);
    expect((await search('via')).length).toBeGreaterThan(0);
    expect(await search('via', 'es', VISITOR, 1)).toHaveLength(1);
    // The full results page may ask for more than the autocomplete's 20; a nonsense limit means the default.
    expect(await search('via', 'es', VISITOR, 50)).toEqual(await search('via', 'es', VISITOR, 20));
    expect((await search('via', 'es', VISITOR, 0)).length).toBeGreaterThan(0);
  });

  it('never returns the test course (12), not even for its own name', async () => {
    for (const q of ['prueba', 'Curso de prueba interno', 'Internal test course', 'interno']) {
      expect(await ids(q, 'es'), q).not.toContain(12);
      expect(await ids(q, 'en', buyer), q).not.toContain(12);
    }
  });

  it('never returns buyer-only courses (10, 16) to people who did not buy them', async () => {
    for (const viewer of [VISITOR, learner]) {
      for (const q of ['élite', 'Certificación Agente de Viajes Élite', 'mastermind', 'Mastermind: escala tu red', 'certification']) {
        const found = [...(await ids(q, 'es', viewer)), ...(await ids(q, 'en', viewer))];
        expect(found, q).not.toContain(10);
        expect(found, q).not.toContain(16);
      }
    }
  });

  it('returns buyer-only courses to the person who bought them', async () => {
    expect(await ids('élite', 'es', buyer)).toContain(10);
    expect((await search('mastermind', 'en', buyer))[0]).toMatchObject({ id: 16, name: 'Mastermind: scale your network' });
  });

  it('treats SQL, HTML and very long input as plain text', async () => {
    const before = await handle.db.select({ n: count() }).from(courses);
    for (const q of ["'; drop table courses; --", "vision' or '1'='1", '<script>alert(1)</script>', '%%%', '___', '\\\\\\', 'a'.repeat(1000), 'visión '.repeat(200)]) {
      const found = await search(q);
      expect(Array.isArray(found), q.slice(0, 20)).toBe(true);
      for (const r of found) expect([10, 12, 16]).not.toContain(r.id);
    }
    expect(await ids('%%%')).toEqual([]);
    expect(await ids('___')).toEqual([]);
    // A 1000-character query is cut to 100 characters: 'visión visión …' still finds Real Vision.
    expect(await ids('visión '.repeat(200))).toContain(31);
    const after = await handle.db.select({ n: count() }).from(courses);
    expect(after).toEqual(before);
  });

  it('searches a query holding a NUL or other control characters as if they were spaces (Trust #6)', async () => {
    await expect(search('abc\u0000def')).resolves.toEqual([]);
    expect((await search('fin\u0000anzas'))).toBeInstanceOf(Array);
    expect((await search('\u0000finanzas\u0007'))[0]).toMatchObject({ id: 6 });
  });

  it('leaves the pooled connection’s similarity threshold as it was', async () => {
    await search('marketng');
    const [row] = await queryRows<{ t: string }>(handle.db, sql`select current_setting('pg_trgm.word_similarity_threshold') as t`);
    expect(row!.t).toBe('0.6');
  });
});
