/**
 * An IBO's team: the IBOs it sponsored (an administrator records the sponsor) and the ones they
 * sponsored, two levels deep, each with its funnel figures over a period, and the team's sum. Only
 * figures: no person of another IBO is ever read here. Members are found through `ibos_sponsor_idx`;
 * each figure through the index its funnel uses (see `funnel.server.ts`).
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { queryRows } from '../db/client';
import type { ReportFilter } from '../reports/reports';
import { inRange, num } from '../reports/reports.server';
import { NO_FIGURES, type FunnelFigures } from './funnel';

/** The most members a team page reads (a team past it shows its first members by level and code). */
export const TEAM_LIMIT = 500;

/** One IBO of the team, with its figures over the period. */
export interface TeamMember {
  iboId: number;
  code: string;
  companyName: string;
  status: 'active' | 'suspended';
  /** 1: sponsored by the IBO; 2: sponsored by one of those. */
  level: 1 | 2;
  sponsorCode: string;
  figures: FunnelFigures;
}

export interface Team {
  members: TeamMember[];
  /** The members' figures added up. */
  sum: FunnelFigures;
}


/** IBO `iboId`'s team over period `f`, its members by level then code. */
export async function iboTeam(db: Db, iboId: number, f: ReportFilter): Promise<Team> {
  const found = await queryRows<Record<string, unknown>>(
    db,
    sql`with l1 as (select b.id, b.code, b.company_name, b.status, 1 as level, ${iboId}::int as sponsor from ibos b where b.sponsor_ibo_id = ${iboId} and b.id <> ${iboId}),
      l2 as (select b.id, b.code, b.company_name, b.status, 2 as level, l1.id as sponsor from ibos b join l1 on b.sponsor_ibo_id = l1.id where b.id <> ${iboId}),
      team as (select * from l1 union all select * from l2 order by level, code limit ${TEAM_LIMIT})
    select t.id, t.code, t.company_name, t.status, t.level, s.code as sponsor_code,
      (select coalesce(sum(v.visits), 0) from affiliate_visits v where v.ibo_id = t.id and v.day between ${f.fromDay}::date and ${f.toDay}::date) as visits,
      (select count(*) from contacts ct where ct.ibo_id = t.id and ${inRange(sql`ct.created_at`, f)}) as prospects,
      (select count(*) from users u where u.referred_by_ibo_id = t.id and ${inRange(sql`u.created_at`, f)}) as registered,
      (select count(distinct o.user_id) from orders o where o.referring_ibo_id = t.id and o.status in ('paid', 'refunded') and ${inRange(sql`o.paid_at`, f)}) as buyers,
      (select coalesce(sum(r.gross - r.refunded), 0) from revenue_lines r where r.referring_ibo_id = t.id and ${inRange(sql`r.paid_at`, f)}) as revenue
    from team t join ibos s on s.id = t.sponsor
    order by t.level, t.code`,
  );
  const members = found.map(
    (r): TeamMember => ({
      iboId: num(r.id),
      code: String(r.code),
      companyName: String(r.company_name),
      status: r.status === 'suspended' ? 'suspended' : 'active',
      level: num(r.level) === 2 ? 2 : 1,
      sponsorCode: String(r.sponsor_code),
      figures: { visits: num(r.visits), prospects: num(r.prospects), registered: num(r.registered), buyers: num(r.buyers), revenue: num(r.revenue) },
    }),
  );
  const sum = members.reduce<FunnelFigures>((a, m) => ({ visits: a.visits + m.figures.visits, prospects: a.prospects + m.figures.prospects, registered: a.registered + m.figures.registered, buyers: a.buyers + m.figures.buyers, revenue: a.revenue + m.figures.revenue }), { ...NO_FIGURES });
  return { members, sum };
}
