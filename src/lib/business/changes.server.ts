/**
 * What changed of an IBO's business, as its kept pages check it. The database counts every change an
 * IBO's pages show in `ibo_changes`, in the same transaction as the write (migration 0040); a business
 * page is kept with the counts it began from (`businessStamp`, read before anything the page shows) and
 * answered again only while they are the same, so a change committed by any process, or by a process
 * killed just after, is never hidden by a kept page. The counts are merged into one row per IBO every
 * minute, by one process (`registerIboChangesMerge`); a merge keeps every sum as it was.
 */
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
import type { Scheduler } from '../jobs/jobs.server';

/** What a business page is kept with: the IBOs whose changes it shows, and their counts of changes. */
export interface BusinessStamp {
  /** The IBOs the account owns, their team two levels down (the team page sums theirs), and `0` (every IBO's: a commission rate). */
  ibos: number[];
  /** Each of their counts, with its IBO's id, as one text (`changeCounts`). */
  stamp: string;
}

/**
 * The counts of changes behind the business pages of account `userId` now, read before anything those
 * pages show. Checking the same IBOs later (`changeCounts`) is enough although a team may change
 * meanwhile: an IBO joining or leaving a team is a change of its sponsor, which is among them.
 */
export async function businessStamp(db: Db, userId: number): Promise<BusinessStamp> {
  const rows = await queryRows<{ id: unknown }>(
    db,
    sql`with mine as (select id from ibos where user_id = ${userId})
      select id from mine
      union select b1.id from ibos b1 where b1.sponsor_ibo_id in (select id from mine)
      union select b2.id from ibos b1 join ibos b2 on b2.sponsor_ibo_id = b1.id where b1.sponsor_ibo_id in (select id from mine)
      union select 0
      order by 1`,
  );
  const ibos = rows.map((r) => Number(r.id));
  return { ibos, stamp: await changeCounts(db, ibos) };
}

/**
 * The counts of changes of `ibos` as one text, each with its IBO's id: the same text later means no
 * change of theirs was committed in between (a count only grows, and a merge keeps it).
 */
export async function changeCounts(db: Db, ibos: readonly number[]): Promise<string> {
  if (ibos.length === 0) return '';
  const rows = await queryRows<{ ibo_id: unknown; n: unknown }>(
    db,
    sql`select ibo_id, sum(n) as n from ibo_changes where ibo_id in (${sql.join(ibos.map((id) => sql`${id}`), sql`, `)}) group by 1 order by 1`,
  );
  return rows.map((r) => `${String(r.ibo_id)}:${String(r.n)}`).join(',');
}

/** Merges each IBO's counted changes into one row (sums unchanged). */
export async function mergeIboChanges(db: Db): Promise<void> {
  await db.execute(sql`select ibo_changes_merge()`);
}

export const IBO_CHANGES_MERGE_INTERVAL_MS = 60_000;

/** The recurring merge, once a minute across every process. */
export function registerIboChangesMerge(scheduler: Scheduler, db: Db, intervalMs = IBO_CHANGES_MERGE_INTERVAL_MS): void {
  scheduler.every('ibo-changes-merge', intervalMs, () => mergeIboChanges(db));
}
