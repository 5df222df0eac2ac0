/**
 * Reports: the affiliate-link visits counted per IBO and UTC day (the first step of the acquisition
 * funnel). Only a count: no visitor address, cookie or agent is kept. Part of the one schema
 * (`schema.ts` re-exports it).
 */
import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, primaryKey } from 'drizzle-orm/pg-core';
import { ibos } from './schema';

/** How many times an active IBO's affiliate link was followed on one UTC day (one upsert per visit). */
export const affiliateVisits = pgTable(
  'affiliate_visits',
  {
    iboId: integer()
      .notNull()
      .references(() => ibos.id, { onDelete: 'cascade' }),
    day: date({ mode: 'string' }).notNull(),
    visits: integer().notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.iboId, t.day] }),
    // The acquisition report reads a date range of every IBO: by day first.
    index('affiliate_visits_day_idx').on(t.day),
    check('affiliate_visits_positive_ck', sql`${t.visits} >= 0`),
  ],
);
