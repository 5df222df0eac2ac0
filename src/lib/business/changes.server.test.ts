/**
 * The counts of changes behind an IBO's kept business pages (migration 0040, `businessStamp`): every
 * kind of write an IBO's pages show changes the counts its owner's pages were kept with, in the same
 * transaction (a rolled-back write changes nothing); writes of other IBOs' business, and updates that
 * change nothing shown, leave them as they were; a team's pages see their team's changes two levels
 * down; the merge keeps every count.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { testDatabases } from '../db/testing';
import { queryRows, type DbHandle } from '../db/client';
import * as s from '../db/schema';
import { countAffiliateVisit } from '../identity/ibo.server';
import { setCommissionRate } from '../commissions/commissions.server';
import { makeIbos } from '../testing/ibos';
import { setIboSharing } from './consent.server';
import { businessStamp, changeCounts, mergeIboChanges } from './changes.server';

const databases = await testDatabases();

describe.each(databases)("the counts of changes to an IBO's business ($name)", (database) => {
  let handle: DbHandle;
  const ibo: Record<string, number> = {};
  const owner: Record<string, number> = {};
  /** MINE's prospect (registered by it), and a person who signed up through MINE's link. */
  let prospect = 0;
  let signUp = { userId: 0, contactId: 0 };
  let stranger = 0;
  let before: Record<string, string> = {};

  const stamps = async () => Object.fromEntries(await Promise.all(Object.keys(owner).map(async (code) => [code, (await businessStamp(handle.db, owner[code]!)).stamp] as const)));
  /** The IBOs whose owners' counts differ from `before`. */
  const changed = async () => {
    const now = await stamps();
    return Object.keys(now)
      .filter((code) => now[code] !== before[code])
      .sort();
  };
  const run = (q: ReturnType<typeof sql>) => handle.db.execute(q);

  beforeAll(async () => {
    handle = await database.create({ seed: true });
    const db = handle.db;
    // TOP sponsors MINE, MINE sponsors LEVEL2, LEVEL2 sponsors LEVEL3 (beyond TOP's two levels); OTHER stands apart.
    Object.assign(ibo, await makeIbos(db, [{ code: 'TOP' }, { code: 'MINE', sponsor: 'TOP' }, { code: 'LEVEL2', sponsor: 'MINE' }, { code: 'LEVEL3', sponsor: 'LEVEL2' }, { code: 'OTHER' }]));
    for (const [code, id] of Object.entries(ibo)) {
      const [row] = await db.select({ userId: s.ibos.userId }).from(s.ibos).where(eq(s.ibos.id, id));
      owner[code] = row!.userId;
    }
    const [p] = await db.insert(s.contacts).values({ firstName: 'Pía', lastName: 'Prospecta', email: 'pia.changes@example.com', iboId: ibo.MINE! }).returning({ id: s.contacts.id });
    prospect = p!.id;
    const [u] = await db.insert(s.users).values({ email: 'sal.changes@example.com', firstName: 'Sal', lastName: 'Link', referredByIboId: ibo.MINE! }).returning({ id: s.users.id });
    const [c] = await db.insert(s.contacts).values({ firstName: 'Sal', lastName: 'Link', email: 'sal.changes@example.com', userId: u!.id }).returning({ id: s.contacts.id });
    signUp = { userId: u!.id, contactId: c!.id };
    const [x] = await db.insert(s.contacts).values({ firstName: 'Nadie', lastName: 'Ajeno', email: 'nadie.changes@example.com' }).returning({ id: s.contacts.id });
    stranger = x!.id;
  });
  afterAll(async () => {
    await handle.close();
  });
  beforeEach(async () => {
    before = await stamps();
  });

  /** A lesson of course 1, its `n`-th. */
  const lesson = async (n: number) => (await queryRows<{ id: number }>(handle.db, sql`select st.id from subtopics st join topics tp on tp.id = st.topic_id where tp.course_id = 1 order by st.id offset ${n - 1} limit 1`))[0]!.id;

  it('reads the same while nothing changes, and differs per owner', async () => {
    expect(await stamps()).toEqual(before);
    expect(new Set(Object.values(before)).size).toBe(Object.keys(before).length);
  });

  it("a prospect registered, renamed or removed changes the registering IBO's pages and its sponsors' (two levels up), no one else's", async () => {
    const [p] = await handle.db.insert(s.contacts).values({ firstName: 'Nuevo', lastName: 'Prospecto', email: 'nuevo.changes@example.com', iboId: ibo.MINE! }).returning({ id: s.contacts.id });
    expect(await changed()).toEqual(['MINE', 'TOP']);
    before = await stamps();
    await handle.db.update(s.contacts).set({ lastName: 'Renombrado' }).where(eq(s.contacts.id, p!.id));
    expect(await changed()).toEqual(['MINE', 'TOP']);
    before = await stamps();
    await handle.db.delete(s.contacts).where(eq(s.contacts.id, p!.id));
    expect(await changed()).toEqual(['MINE', 'TOP']);
  });

  it("a lesson finished, by a prospect or a link sign-up, changes their IBO's pages; a stranger's progress changes none", async () => {
    const first = await lesson(1);
    await run(sql`insert into tracking (contact_id, course_id, subtopic_id, completed_at) values (${prospect}, 1, ${first}, now())`);
    expect(await changed()).toEqual(['MINE', 'TOP']);
    before = await stamps();
    await run(sql`insert into tracking (contact_id, course_id, subtopic_id, completed_at) values (${signUp.contactId}, 1, ${first}, now())`);
    expect(await changed()).toEqual(['MINE', 'TOP']);
    before = await stamps();
    await run(sql`insert into tracking (contact_id, course_id, subtopic_id, completed_at) values (${stranger}, 1, ${first}, now())`);
    expect(await changed()).toEqual([]);
  });

  it('a progress write that finishes nothing and starts no day changes nothing shown', async () => {
    const second = await lesson(2);
    await run(sql`insert into tracking (contact_id, course_id, subtopic_id) values (${prospect}, 1, ${second})`);
    before = await stamps();
    // The same day, the same lesson, still not finished: the kept enrolment and the day's activity read the same.
    await run(sql`update tracking set last_position = last_position + 5, played_seconds = played_seconds + 5, updated_at = now() where contact_id = ${prospect} and subtopic_id = ${second}`);
    expect(await changed()).toEqual([]);
  });

  it('an exam graded changes the pages of the IBO seeing its taker', async () => {
    const [ev] = await queryRows<{ id: number }>(handle.db, sql`select id from evaluations where course_id = 1 limit 1`);
    await run(sql`insert into exam_attempts (evaluation_id, contact_id, attempt_number, question_ids, deadline_at) values (${ev!.id}, ${signUp.contactId}, 1, '[]'::jsonb, now() + interval '1 hour')`);
    before = await stamps();
    await run(sql`update exam_attempts set submitted_at = now(), score = 90, passed = true where contact_id = ${signUp.contactId}`);
    expect(await changed()).toEqual(['MINE', 'TOP']);
  });

  it("a person's consent switched changes their IBO's pages", async () => {
    await setIboSharing(handle.db, signUp.userId, false);
    expect(await changed()).toEqual(['MINE', 'TOP']);
    before = await stamps();
    await setIboSharing(handle.db, signUp.userId, true);
    expect(await changed()).toEqual(['MINE', 'TOP']);
  });

  it("an order the IBO referred, paid, changes its pages (and a rolled-back one nobody's)", async () => {
    await run(sql`insert into orders (user_id, status, subtotal_cents, discount_cents, total_cents, idempotency_key, referring_ibo_id) values (${signUp.userId}, 'pending', 1500, 0, 1500, 'changes-order-1', ${ibo.OTHER!})`);
    expect(await changed()).toEqual(['OTHER']);
    before = await stamps();
    await run(sql`update orders set status = 'paid', paid_at = now() where idempotency_key = 'changes-order-1'`);
    expect(await changed()).toEqual(['OTHER']);
    before = await stamps();
    await handle.db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into orders (user_id, status, subtotal_cents, discount_cents, total_cents, idempotency_key, referring_ibo_id) values (${signUp.userId}, 'paid', 900, 0, 900, 'changes-order-2', ${ibo.MINE!})`);
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect(await changed()).toEqual([]);
  });

  it('a visit through a link changes the pages of its IBO and of the two levels above it, not of a third', async () => {
    await countAffiliateVisit(handle.db, ibo.LEVEL3!);
    expect(await changed()).toEqual(['LEVEL2', 'LEVEL3', 'MINE']);
    before = await stamps();
    await countAffiliateVisit(handle.db, ibo.OTHER!);
    expect(await changed()).toEqual(['OTHER']);
  });

  it("an IBO suspended, or moved to another sponsor, changes its pages and both teams'", async () => {
    await handle.db.update(s.ibos).set({ status: 'suspended' }).where(eq(s.ibos.id, ibo.LEVEL3!));
    expect(await changed()).toEqual(['LEVEL2', 'LEVEL3', 'MINE']);
    before = await stamps();
    await handle.db.update(s.ibos).set({ sponsorIboId: ibo.OTHER! }).where(eq(s.ibos.id, ibo.LEVEL3!));
    // Its old sponsor's pages change, and with them the team pages of the two levels above that sponsor.
    expect(await changed()).toEqual(['LEVEL2', 'LEVEL3', 'MINE', 'OTHER', 'TOP']);
  });

  it("a nudge and a payout change the IBO's pages; a commission rate every IBO's", async () => {
    await handle.db.insert(s.nudges).values({ iboId: ibo.MINE!, contactId: prospect, locale: 'es', requestKey: 'changes-nudge-0001' });
    expect(await changed()).toEqual(['MINE', 'TOP']);
    before = await stamps();
    const [admin] = await handle.db.select({ id: s.users.id }).from(s.users).where(eq(s.users.email, 'admin@academia.example'));
    await setCommissionRate(handle.db, admin!.id, 'book', 1250);
    expect(await changed()).toEqual(Object.keys(owner).sort());
  });

  it("reads a page's IBOs (its owner's, its team two levels down, everyone's), and their counts change when the team does", async () => {
    const kept = await businessStamp(handle.db, owner.TOP!);
    expect(kept.ibos).toEqual([0, ibo.TOP!, ibo.MINE!, ibo.LEVEL2!].sort((a, b) => a - b));
    expect(await changeCounts(handle.db, kept.ibos)).toBe(kept.stamp);
    // A new IBO of no team changes nothing of TOP's; joining MINE's team (TOP's second level) does, through MINE.
    await makeIbos(handle.db, [{ code: 'NEWCOMER' }]);
    expect(await changeCounts(handle.db, kept.ibos)).toBe(kept.stamp);
    await handle.db.update(s.ibos).set({ sponsorIboId: ibo.MINE! }).where(eq(s.ibos.code, 'NEWCOMER'));
    expect(await changeCounts(handle.db, kept.ibos)).not.toBe(kept.stamp);
    expect((await businessStamp(handle.db, owner.TOP!)).ibos).toHaveLength(5);
    before = await stamps();
  });

  it.runIf(database.name === 'pglite')('tells the embedded database\'s process of each committed change to a business, not of a rolled-back one', async () => {
    let told = 0;
    const stop = await handle.listen!('ibo_changes', () => void told++);
    try {
      await countAffiliateVisit(handle.db, ibo.MINE!);
      expect(told).toBe(1);
      await handle.db
        .transaction(async (tx) => {
          await tx.execute(sql`insert into affiliate_visits (ibo_id, day, visits) values (${ibo.OTHER!}, '2031-01-01', 1)`);
          throw new Error('rolled back');
        })
        .catch(() => undefined);
      expect(told).toBe(1);
      // A write that changes no IBO's business tells nothing.
      await run(sql`update courses set id = id where id = 1`);
      expect(told).toBe(1);
    } finally {
      await stop();
    }
    before = await stamps();
  });

  it('the merge leaves one row per IBO and every count as it was', async () => {
    const rows = async () => (await queryRows<{ n: unknown }>(handle.db, sql`select count(*) as n from ibo_changes`))[0]!.n;
    expect(Number(await rows())).toBeGreaterThan(Object.keys(ibo).length + 1);
    await mergeIboChanges(handle.db);
    expect(await stamps()).toEqual(before);
    const perIbo = await queryRows<{ ibo_id: number; n: unknown }>(handle.db, sql`select ibo_id, count(*) as n from ibo_changes group by 1 having count(*) > 1`);
    expect(perIbo).toEqual([]);
    // A change after the merge still shows.
    await countAffiliateVisit(handle.db, ibo.MINE!);
    expect(await changed()).toEqual(['MINE', 'TOP']);
  });
});
