/**
 * An IBO's funnel figures (see `funnel.ts`), each read by the database through an index that starts with
 * the IBO: visits (`affiliate_visits`, per IBO and day), prospects (`contacts_ibo_created_idx`), sign-ups
 * through the link (`users_referred_created_idx`), buyers (`orders_referring_paid_idx`: people with a
 * paid order the IBO referred, refunded ones included, as in the acquisition report) and revenue (the
 * kept `revenue_lines` by `revenue_lines_ibo_paid_idx`: what the lines earned after coupons, less what
 * was refunded of them). Instants are UTC.
 */
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
import { fillBuckets, type ReportFilter } from '../reports/reports';
import { bucketOf, inRange, num } from '../reports/reports.server';
import { BUSINESS_FUNNEL_STEPS, NO_FIGURES, type FunnelBucket, type FunnelFigures } from './funnel';

const FIELDS = [...BUSINESS_FUNNEL_STEPS, 'revenue'] as const;

/** The five figures of `iboId`, each as a `(key, figure, value)` row of one statement; `key` groups them (a bucket, or the whole period). */
function figureRows(iboId: number, f: ReportFilter, key: (column: SQL) => SQL, dayKey: SQL): SQL {
  return sql`
    select ${dayKey} as key, 'visits' as figure, sum(v.visits) as value from affiliate_visits v
      where v.ibo_id = ${iboId} and v.day between ${f.fromDay}::date and ${f.toDay}::date group by 1
    union all
    select ${key(sql`ct.created_at`)}, 'prospects', count(*) from contacts ct where ct.ibo_id = ${iboId} and ${inRange(sql`ct.created_at`, f)} group by 1
    union all
    select ${key(sql`u.created_at`)}, 'registered', count(*) from users u where u.referred_by_ibo_id = ${iboId} and ${inRange(sql`u.created_at`, f)} group by 1
    union all
    select ${key(sql`o.paid_at`)}, 'buyers', count(distinct o.user_id) from orders o
      where o.referring_ibo_id = ${iboId} and o.status in ('paid', 'refunded') and ${inRange(sql`o.paid_at`, f)} group by 1
    union all
    select ${key(sql`r.paid_at`)}, 'revenue', sum(r.gross - r.refunded) from revenue_lines r where r.referring_ibo_id = ${iboId} and ${inRange(sql`r.paid_at`, f)} group by 1`;
}

type FigureRow = { key: string; figure: (typeof FIELDS)[number]; value: unknown };

/** The period's totals (buyers counted once over the whole period). */
export async function iboFunnelTotals(db: Db, iboId: number, f: ReportFilter): Promise<FunnelFigures> {
  const found = await queryRows<FigureRow>(db, figureRows(iboId, f, () => sql`'all'`, sql`'all'`));
  const totals: FunnelFigures = { ...NO_FIGURES };
  for (const r of found) totals[r.figure] = num(r.value);
  return totals;
}

/** The period cut into its buckets (every bucket present, empty ones at 0; buyers counted per bucket). */
export async function iboFunnelSeries(db: Db, iboId: number, f: ReportFilter): Promise<FunnelBucket[]> {
  const dayBucket = sql`to_char(date_trunc(${sql.raw(`'${f.bucket}'`)}, v.day::timestamp), 'YYYY-MM-DD')`;
  const found = await queryRows<FigureRow>(db, figureRows(iboId, f, (column) => bucketOf(column, f.bucket), dayBucket));
  const byBucket = new Map<string, FunnelBucket>();
  for (const r of found) {
    const b = byBucket.get(r.key) ?? { bucket: r.key, ...NO_FIGURES };
    b[r.figure] = num(r.value);
    byBucket.set(r.key, b);
  }
  return fillBuckets(f, [...byBucket.values()], FIELDS);
}

/** What the funnel page shows: the period's buckets and totals, and the totals of the period before. */
export interface IboFunnel {
  series: FunnelBucket[];
  totals: FunnelFigures;
  previous: FunnelFigures;
}

export async function iboFunnel(db: Db, iboId: number, period: ReportFilter, previous: ReportFilter): Promise<IboFunnel> {
  const [series, totals, before] = await Promise.all([iboFunnelSeries(db, iboId, period), iboFunnelTotals(db, iboId, period), iboFunnelTotals(db, iboId, previous)]);
  return { series, totals, previous: before };
}
