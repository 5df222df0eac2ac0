/** What the seed modules share: the transaction they write in, and upserts that update every listed column. */
import { sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from '../client';

/** The transaction the whole seed runs in. */
export type { Tx };

/** `excluded.<column>` for every listed column, for `onConflictDoUpdate` (columns are snake_case in SQL). */
export function excluded<T extends PgTable>(_table: T, keys: (keyof T['_']['columns'] & string)[]): Record<string, SQL> {
  return Object.fromEntries(keys.map((k) => [k, sql.raw(`excluded."${k.replace(/[A-Z]/g, (m) => `_${m.toLowerCase()}`)}"`)]));
}
