/**
 * An IBO's team on the seeded database: the IBOs it sponsored and theirs, two levels deep and no
 * further, each with its own funnel figures over the period and the team's sum; never the IBO itself,
 * another team's IBOs, or anything of a third level.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../db/testing';
import type { DbHandle } from '../db/client';
import * as s from '../db/schema';
import { countAffiliateVisit } from '../identity/ibo.server';
import { makeIbos } from '../testing/ibos';
import { readBusinessPeriod } from './funnel';
import { iboTeam } from './team.server';

const databases = await testDatabases();
const at = (text: string) => new Date(`2034-${text}Z`);

describe.each(databases)("an IBO's team ($name)", (database) => {
  let handle: DbHandle;
  const id: Record<string, number> = {};

  beforeAll(async () => {
    handle = await database.create({ seed: true });
    const db = handle.db;
    // TOP sponsors A and B; A sponsors A1 (suspended); A1 sponsors A11 (a third level); OTHER sponsors X.
    Object.assign(
      id,
      await makeIbos(db, [
        { code: 'TOP' },
        { code: 'TEAMA', sponsor: 'TOP' },
        { code: 'TEAMB', sponsor: 'TOP' },
        { code: 'TEAMA1', sponsor: 'TEAMA', status: 'suspended' },
        { code: 'TEAMA11', sponsor: 'TEAMA1' },
        { code: 'OTHER' },
        { code: 'TEAMX', sponsor: 'OTHER' },
      ]),
    );
    for (const code of ['TOP', 'TEAMA', 'TEAMA', 'TEAMB', 'TEAMA1', 'TEAMA11', 'TEAMX']) await countAffiliateVisit(db, id[code]!, at('04-02T10:00:00'));
    await db.insert(s.contacts).values([
      { firstName: 'P', lastName: 'A', email: 'team-pa@example.com', iboId: id.TEAMA, createdAt: at('04-03T10:00:00') },
      { firstName: 'P', lastName: 'X', email: 'team-px@example.com', iboId: id.TEAMX, createdAt: at('04-03T10:00:00') },
    ]);
  });
  afterAll(async () => {
    await handle.close();
  });

  const period = (ibo: number) => {
    const r = readBusinessPeriod(new URLSearchParams('from=2034-04-01&to=2034-04-30'), at('12-31T00:00:00'), ibo);
    if (!r.ok) throw new Error(r.error);
    return r.period;
  };

  it('lists two levels of sponsored IBOs with their own figures, and sums them', async () => {
    const team = await iboTeam(handle.db, id.TOP!, period(id.TOP!));
    expect(team.members.map((m) => [m.code, m.level, m.sponsorCode, m.status, m.figures.visits, m.figures.prospects])).toEqual([
      ['TEAMA', 1, 'TOP', 'active', 2, 1],
      ['TEAMB', 1, 'TOP', 'active', 1, 0],
      ['TEAMA1', 2, 'TEAMA', 'suspended', 1, 0],
    ]);
    expect(team.sum).toEqual({ visits: 4, prospects: 1, registered: 0, buyers: 0, revenue: 0 });
  });

  it("shows a member its own team only, and nobody's team to an IBO that sponsored none", async () => {
    expect((await iboTeam(handle.db, id.TEAMA!, period(id.TEAMA!))).members.map((m) => m.code)).toEqual(['TEAMA1', 'TEAMA11']);
    expect((await iboTeam(handle.db, id.OTHER!, period(id.OTHER!))).members.map((m) => m.code)).toEqual(['TEAMX']);
    expect(await iboTeam(handle.db, id.TEAMB!, period(id.TEAMB!))).toEqual({ members: [], sum: { visits: 0, prospects: 0, registered: 0, buyers: 0, revenue: 0 } });
  });
});
