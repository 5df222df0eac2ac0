/**
 * For tests: whether the kept report figures (migrations 0034–0036) still equal what a rebuild from the
 * rows they summarise gives. `learner_activity` is left out: its rebuild only sees each progress row's
 * last write, where the triggers saw every one.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';

export const KEPT_TABLES = { enrolments: 'contact_id, course_id', exam_item_results: 'attempt_id, question_id', revenue_lines: 'line_id' } as const;
export type KeptTable = keyof typeof KEPT_TABLES;

export async function keptRows(db: Db, table: KeptTable): Promise<unknown[]> {
  return ((await db.execute(sql.raw(`select * from ${table} order by ${KEPT_TABLES[table]}`))) as unknown as { rows: unknown[] }).rows;
}

class RolledBack extends Error {}

/** The kept tables whose rows differ from a rebuild (which is rolled back: nothing is changed). */
export async function keptFiguresDrift(db: Db): Promise<KeptTable[]> {
  const drift: KeptTable[] = [];
  for (const table of Object.keys(KEPT_TABLES) as KeptTable[]) {
    const kept = JSON.stringify(await keptRows(db, table));
    try {
      await db.transaction(async (tx) => {
        await tx.execute(sql.raw(`select ${table}_rebuild()`));
        if (JSON.stringify(await keptRows(tx as unknown as Db, table)) !== kept) drift.push(table);
        throw new RolledBack();
      });
    } catch (error) {
      if (!(error instanceof RolledBack)) throw error;
    }
  }
  return drift;
}
