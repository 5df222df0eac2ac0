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

/**
 * The counts of changes behind the business pages of account `userId`, as one text: those of the IBOs it
 * owns, of their team two levels down (the team page sums theirs), and of every IBO's (`0`, a commission
 * rate). Each IBO's count is written with its id, so a team that gained or lost an IBO reads differently
 * too. The same text later means nothing those pages show has changed.
 */
export async function businessStamp(db: Db, userId: number): Promise<string> {
  const [row] = await queryRows<{ stamp: unknown }>(
    db,
    sql`with mine as (select id from ibos where user_id = ${userId}),
      team as (
        select id from mine
        union select b1.id from ibos b1 where b1.sponsor_ibo_id in (select id from mine)
        union select b2.id from ibos b1 join ibos b2 on b2.sponsor_ibo_id = b1.id where b1.sponsor_ibo_id in (select id from mine)
        union select 0
      )
      select coalesce(string_agg(c.ibo_id || ':' || c.n, ',' order by c.ibo_id), '') as stamp
      from (select ibo_id, sum(n) as n from ibo_changes where ibo_id in (select id from team) group by 1) c`,
  );
  return `${userId}|${String(row?.stamp ?? '')}`;
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
