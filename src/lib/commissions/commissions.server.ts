/**
 * IBO commissions, the database side. The ledger's entries are written by the database itself
 * (`commissions_refresh`, migration 0039) in the same transaction as every payment and refund; this
 * module reads them, sets the rates and records payouts.
 *
 * Back office (administrators):
 * - `loadCommissionRates(db, now)` → the rate of each kind in force at `now`, and the latest changes.
 * - `setCommissionRate(db, actorId, kind, rateBp, now?, step?)` → a new rate in force from `now` (orders
 *   paid before keep the rate they were paid at), with its audit event, in one transaction.
 * - `payableIbos(db, now)` → the IBOs with unpaid entries: pending, approved, reversed and payable sums.
 * - `recentPayouts(db, limit?)` → the latest payouts.
 * - `recordPayout(db, actorId, iboId, { key, reference }, now?, step?)` → one payout of all the IBO's
 *   approved entries and reversals not yet netted, the entries marked settled and the audit event, in one
 *   transaction or nothing; the same form's key again answers the first payout (`repeated`).
 *
 * The IBO's own reads (their `/mybusiness` pages; the IBO id always comes from the session):
 * - `iboSales(db, iboId, { from?, to?, page? }, now?)` → `SalesPage`: the orders the IBO referred, paid
 *   in [from, to), newest first, `SALES_PAGE_SIZE` a page, each with its lines (title, kind, what the
 *   line earned after the coupon, refunded, the rate, the commission due and its state). Read through
 *   `revenue_lines_ibo_paid_idx` and `commissions_order_idx`: one page costs the same for 20 or 20,000 orders
 *   but for the count.
 * - `iboCommissionTotals(db, iboId, now)` → `CommissionTotals` (cents): pending, approved, reversed (not
 *   yet netted), payable (approved + reversed) and paid (every payout). Reads the unpaid entries through
 *   the partial index `commissions_ibo_unpaid_idx` and the payouts through `commission_payouts_ibo_paid_idx`.
 * - `iboStatement(db, iboId, month)` → `Statement | null` (null for an unknown IBO): the entries earned,
 *   cancelled and reversed in the UTC month, the payouts of the month, and the totals with what was owed
 *   when the month began and when it ended. Through `commissions_ibo_at_idx`.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { queryRows } from '../db/client';
import { commissionPayouts, commissionRates, ibos, type CommissionPayout } from '../db/schema';
import { orderNumber } from '../commerce/checkout';
import { iboRef } from '../ibos/ibos';
import { recordAudit, userRef } from '../privacy/audit.server';
import { noStep, type Step } from '../faults/step';
import { approvedUpTo, COMMISSION_KINDS, holdEnds, lineState, monthRange, rateRef, type CommissionKind, type CommissionState, type CommissionTotals, type Statement, type StatementLine } from './commissions';

const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));
const instant = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));
const iso = (d: Date) => d.toISOString();

/* ───────────── rates ───────────── */

/** A kind's rate in force, or null when none was ever set (its lines earn nothing). */
export interface KindRate {
  kind: CommissionKind;
  rateBp: number | null;
  since: Date | null;
}

/** One change of a rate, with who made it. */
export interface RateChange {
  kind: CommissionKind;
  rateBp: number;
  effectiveFrom: Date;
  actorId: number | null;
}

/** The rate of each kind in force at `now`, and the latest `limit` changes (newest first). */
export async function loadCommissionRates(db: Db, now: Date, limit = 15): Promise<{ rates: KindRate[]; history: RateChange[] }> {
  const [current, history] = await Promise.all([
    queryRows<{ product_kind: CommissionKind; rate_bp: number; effective_from: unknown }>(
      db,
      sql`select distinct on (product_kind) product_kind, rate_bp, effective_from from commission_rates
          where effective_from <= ${iso(now)}::timestamptz order by product_kind, effective_from desc, id desc`,
    ),
    db.select().from(commissionRates).orderBy(desc(commissionRates.effectiveFrom), desc(commissionRates.id)).limit(limit),
  ]);
  const byKind = new Map(current.map((r) => [r.product_kind, r]));
  return {
    rates: COMMISSION_KINDS.map((kind) => {
      const r = byKind.get(kind);
      return { kind, rateBp: r ? num(r.rate_bp) : null, since: r ? instant(r.effective_from) : null };
    }),
    history: history.map((h) => ({ kind: h.productKind, rateBp: h.rateBp, effectiveFrom: h.effectiveFrom, actorId: h.actorId })),
  };
}

/** Called as a rate change reaches each step: the fault tests die there. */
export type RateStep = Step<'rate-written' | 'audit-written'>;

/**
 * Puts `rateBp` (0–10000, checked by the caller and by the table) in force for `kind` from `now`, with
 * its audit event, in one transaction. The same rate as the one in force writes nothing (`unchanged`).
 */
export async function setCommissionRate(db: Db, actorId: number, kind: CommissionKind, rateBp: number, now = new Date(), step: RateStep = noStep): Promise<{ unchanged: boolean }> {
  return db.transaction(async (tx) => {
    // One change of a kind's rate at a time: the one before is read under the lock.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${rateRef(kind)}))`);
    const [before] = await tx
      .select({ rateBp: commissionRates.rateBp })
      .from(commissionRates)
      .where(and(eq(commissionRates.productKind, kind), sql`${commissionRates.effectiveFrom} <= ${iso(now)}::timestamptz`))
      .orderBy(desc(commissionRates.effectiveFrom), desc(commissionRates.id))
      .limit(1);
    if (before?.rateBp === rateBp) return { unchanged: true };
    await tx.insert(commissionRates).values({ productKind: kind, rateBp, effectiveFrom: now, actorId, createdAt: now });
    await step('rate-written');
    await recordAudit(tx, { action: 'commissions.rateSet', actor: userRef(actorId), subject: rateRef(kind), before: { rateBp: before?.rateBp ?? null }, after: { rateBp, effectiveFrom: iso(now) }, at: now });
    await step('audit-written');
    return { unchanged: false };
  });
}

/* ───────────── payouts ───────────── */

/** An IBO with unpaid entries, and its sums (cents). */
export interface PayableIbo {
  id: number;
  code: string;
  companyName: string;
  status: 'active' | 'suspended';
  pending: number;
  approved: number;
  reversed: number;
  payable: number;
}

const UNPAID_SUMS = (cutoff: Date) => sql`
  coalesce(sum(c.amount_cents) filter (where c.line_paid_at > ${iso(cutoff)}::timestamptz), 0) as pending,
  coalesce(sum(c.amount_cents) filter (where c.line_paid_at <= ${iso(cutoff)}::timestamptz and c.kind <> 'reversed'), 0) as approved,
  coalesce(sum(c.amount_cents) filter (where c.line_paid_at <= ${iso(cutoff)}::timestamptz and c.kind = 'reversed'), 0) as reversed`;

/** The IBOs with unpaid entries at `now`, the largest payable first (at most `limit`). */
export async function payableIbos(db: Db, now: Date, limit = 200): Promise<PayableIbo[]> {
  const rows = await queryRows<{ id: number; code: string; company_name: string; status: 'active' | 'suspended'; pending: unknown; approved: unknown; reversed: unknown }>(
    db,
    sql`select i.id, i.code, i.company_name, i.status, s.pending, s.approved, s.reversed
        from (select c.ibo_id, ${UNPAID_SUMS(approvedUpTo(now))} from commissions c where c.payout_id is null group by c.ibo_id) s
        join ibos i on i.id = s.ibo_id
        where s.pending <> 0 or s.approved <> 0 or s.reversed <> 0
        order by s.approved + s.reversed desc, i.code limit ${limit}`,
  );
  return rows.map((r) => {
    const approved = num(r.approved);
    const reversed = num(r.reversed);
    return { id: num(r.id), code: r.code, companyName: r.company_name, status: r.status, pending: num(r.pending), approved, reversed, payable: approved + reversed };
  });
}

/** A payout as the back office lists it. */
export type PayoutLine = CommissionPayout & { code: string; companyName: string };

/** The latest `limit` payouts, newest first. */
export async function recentPayouts(db: Db, limit = 20): Promise<PayoutLine[]> {
  const rows = await db
    .select({ p: commissionPayouts, code: ibos.code, companyName: ibos.companyName })
    .from(commissionPayouts)
    .innerJoin(ibos, eq(ibos.id, commissionPayouts.iboId))
    .orderBy(desc(commissionPayouts.paidAt), desc(commissionPayouts.id))
    .limit(limit);
  return rows.map((r) => ({ ...r.p, code: r.code, companyName: r.companyName }));
}

/** Why a payout is refused. */
export type PayoutRefusal = 'suspended' | 'nothingDue' | 'keyUsed';

export type PayoutOutcome = { status: 'ok'; payout: CommissionPayout; code: string; repeated: boolean } | { status: 'unknown' } | { status: 'refused'; refusal: PayoutRefusal };

/** Called as a payout reaches each step: the fault tests die there. */
export type PayoutStep = Step<'payout-written' | 'entries-settled' | 'audit-written'>;

/**
 * Pays IBO `iboId` at `now` everything approved and not yet paid, net of reversals: one payout row, every
 * entry it covers marked with it, the audit event, in one transaction or nothing. The IBO's row is held
 * (FOR NO KEY UPDATE) throughout, so a refund's entry (whose trigger shares that row) is either in the
 * payout or written after it, never lost between the sum and the marks; and two forms of one IBO pay one
 * after the other. Refused, with nothing written: a suspended IBO (its commissions stay approved and are
 * paid once it is reinstated), nothing payable (a sum of zero or less: reversals carry over), a key used
 * for another IBO. The same key again for the same IBO answers the first payout.
 */
export async function recordPayout(db: Db, actorId: number, iboId: number, request: { key: string; reference: string }, now = new Date(), step: PayoutStep = noStep): Promise<PayoutOutcome> {
  return db.transaction(async (tx): Promise<PayoutOutcome> => {
    const [ibo] = await tx.select({ id: ibos.id, status: ibos.status, code: ibos.code }).from(ibos).where(eq(ibos.id, iboId)).for('no key update');
    if (!ibo) return { status: 'unknown' };
    const [earlier] = await tx.select().from(commissionPayouts).where(eq(commissionPayouts.requestKey, request.key));
    if (earlier) return earlier.iboId === iboId ? { status: 'ok', payout: earlier, code: ibo.code, repeated: true } : { status: 'refused', refusal: 'keyUsed' };
    if (ibo.status !== 'active') return { status: 'refused', refusal: 'suspended' };
    const cutoff = iso(approvedUpTo(now));
    const [due] = await queryRows<{ total: unknown; n: unknown }>(
      tx as unknown as Db,
      sql`select coalesce(sum(amount_cents), 0) as total, count(*) as n from commissions
          where ibo_id = ${iboId} and payout_id is null and line_paid_at <= ${cutoff}::timestamptz`,
    );
    const total = num(due?.total);
    if (total <= 0) return { status: 'refused', refusal: 'nothingDue' };
    const [payout] = await tx
      .insert(commissionPayouts)
      .values({ iboId, amountCents: total, entries: num(due?.n), requestKey: request.key, reference: request.reference, actorId, paidAt: now })
      .returning();
    await step('payout-written');
    await tx.execute(sql`update commissions set payout_id = ${payout!.id} where ibo_id = ${iboId} and payout_id is null and line_paid_at <= ${cutoff}::timestamptz`);
    await step('entries-settled');
    await recordAudit(tx, { action: 'commissions.payout', actor: userRef(actorId), subject: iboRef(iboId), after: { payout: payout!.id, amountCents: total, entries: num(due?.n) }, at: now });
    await step('audit-written');
    return { status: 'ok', payout: payout!, code: ibo.code, repeated: false };
  });
}

/* ───────────── the IBO's reads ───────────── */

/** Orders a page of an IBO's sales shows. */
export const SALES_PAGE_SIZE = 20;

/** One line of a sale. */
export interface SaleLine {
  lineId: number;
  title: { es: string; en: string };
  productKind: CommissionKind;
  /** What the line earned after the coupon. */
  grossCents: number;
  refundedCents: number;
  /** The rate it earned at (null: no rate was in force, it earned no commission). */
  rateBp: number | null;
  /** What the IBO is due on it now (every entry summed). */
  commissionCents: number;
  /** Null when it earned no commission. */
  state: CommissionState | null;
}

/** One order the IBO referred. */
export interface Sale {
  orderId: number;
  number: string;
  paidAt: Date;
  lines: SaleLine[];
  grossCents: number;
  refundedCents: number;
  commissionCents: number;
}

export interface SalesPage {
  sales: Sale[];
  total: number;
  page: number;
  pages: number;
}

/** The orders IBO `iboId` referred, paid in [from, to), newest first: page `page` (see the file's header). */
export async function iboSales(db: Db, iboId: number, opts: { from?: Date | undefined; to?: Date | undefined; page?: number | undefined } = {}, now = new Date()): Promise<SalesPage> {
  const range = sql`l.referring_ibo_id = ${iboId} and l.last_of_order
    ${opts.from ? sql`and l.paid_at >= ${iso(opts.from)}::timestamptz` : sql``}
    ${opts.to ? sql`and l.paid_at < ${iso(opts.to)}::timestamptz` : sql``}`;
  const [counted] = await queryRows<{ n: unknown }>(db, sql`select count(*) as n from revenue_lines l where ${range}`);
  const total = num(counted?.n);
  const pages = Math.max(1, Math.ceil(total / SALES_PAGE_SIZE));
  const page = Math.min(Math.max(1, Math.trunc(opts.page ?? 1) || 1), pages);
  const orderRows = await queryRows<{ order_id: number; paid_at: unknown }>(
    db,
    sql`select l.order_id, l.paid_at from revenue_lines l where ${range} order by l.paid_at desc, l.order_id desc limit ${SALES_PAGE_SIZE} offset ${(page - 1) * SALES_PAGE_SIZE}`,
  );
  if (orderRows.length === 0) return { sales: [], total, page, pages };
  const ids = orderRows.map((o) => num(o.order_id));
  const idList = sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );
  const [lines, entries] = await Promise.all([
    queryRows<{ line_id: number; order_id: number; title_es: string; title_en: string; product_kind: CommissionKind; gross: unknown; refunded: unknown }>(
      db,
      sql`select line_id, order_id, title_es, title_en, product_kind, gross, refunded from revenue_lines where order_id in (${idList}) and referring_ibo_id = ${iboId} order by line_id`,
    ),
    queryRows<{ line_id: number; paid_at: unknown; rate_bp: number; due: unknown; earned: unknown; unpaid: unknown; reversed: boolean; settled: boolean }>(
      db,
      sql`select line_id, min(line_paid_at) as paid_at, min(rate_bp) as rate_bp, sum(amount_cents) as due,
            coalesce(sum(amount_cents) filter (where kind = 'earned'), 0) as earned,
            coalesce(sum(amount_cents) filter (where payout_id is null), 0) as unpaid,
            bool_or(kind = 'reversed') as reversed, bool_and(payout_id is not null) as settled
          from commissions where order_id in (${idList}) and ibo_id = ${iboId} group by line_id`,
    ),
  ]);
  const byLine = new Map(entries.map((e) => [num(e.line_id), e]));
  const sales = orderRows.map((o): Sale => {
    const orderId = num(o.order_id);
    const saleLines = lines
      .filter((l) => num(l.order_id) === orderId)
      .map((l): SaleLine => {
        const e = byLine.get(num(l.line_id));
        const state = e ? lineState({ paidAt: instant(e.paid_at), earnedCents: num(e.earned), dueCents: num(e.due), unpaidCents: num(e.unpaid), reversed: e.reversed === true, settled: e.settled === true }, now) : null;
        return { lineId: num(l.line_id), title: { es: l.title_es, en: l.title_en }, productKind: l.product_kind, grossCents: num(l.gross), refundedCents: num(l.refunded), rateBp: e ? num(e.rate_bp) : null, commissionCents: e ? num(e.due) : 0, state };
      });
    const sum = (f: (l: SaleLine) => number) => saleLines.reduce((a, l) => a + f(l), 0);
    return { orderId, number: orderNumber(orderId), paidAt: instant(o.paid_at), lines: saleLines, grossCents: sum((l) => l.grossCents), refundedCents: sum((l) => l.refundedCents), commissionCents: sum((l) => l.commissionCents) };
  });
  return { sales, total, page, pages };
}

/** When the first of IBO `iboId`'s pending commissions at `now` turns approved (its hold ends), or null when none is pending. */
export async function nextApproval(db: Db, iboId: number, now: Date): Promise<Date | null> {
  const [row] = await queryRows<{ first: unknown }>(
    db,
    sql`select min(c.line_paid_at) as first from commissions c where c.ibo_id = ${iboId} and c.payout_id is null and c.line_paid_at > ${iso(approvedUpTo(now))}::timestamptz`,
  );
  return row?.first === null || row?.first === undefined ? null : holdEnds(instant(row.first));
}

/** IBO `iboId`'s sums at `now` (see the file's header). */
export async function iboCommissionTotals(db: Db, iboId: number, now: Date): Promise<CommissionTotals> {
  const [[unpaid], [paid]] = await Promise.all([
    queryRows<{ pending: unknown; approved: unknown; reversed: unknown }>(db, sql`select ${UNPAID_SUMS(approvedUpTo(now))} from commissions c where c.ibo_id = ${iboId} and c.payout_id is null`),
    queryRows<{ paid: unknown }>(db, sql`select coalesce(sum(amount_cents), 0) as paid from commission_payouts where ibo_id = ${iboId}`),
  ]);
  const approved = num(unpaid?.approved);
  const reversed = num(unpaid?.reversed);
  return { pending: num(unpaid?.pending), approved, reversed, payable: approved + reversed, paid: num(paid?.paid) };
}

/** IBO `iboId`'s statement of `month` ("2026-05", checked by `readMonth`), or null for an unknown IBO. */
export async function iboStatement(db: Db, iboId: number, month: string): Promise<Statement | null> {
  const [ibo] = await db.select({ id: ibos.id, code: ibos.code, companyName: ibos.companyName }).from(ibos).where(eq(ibos.id, iboId));
  if (!ibo) return null;
  const { from, to } = monthRange(month);
  const [entries, payouts, [before]] = await Promise.all([
    queryRows<{ at: unknown; kind: 'earned' | 'cancelled' | 'reversed'; order_id: number; product_kind: CommissionKind; rate_bp: number; amount_cents: unknown; title_es: string | null; title_en: string | null }>(
      db,
      sql`select c.at, c.kind, c.order_id, c.product_kind, c.rate_bp, c.amount_cents, i.title_es, i.title_en
          from commissions c left join order_items i on i.id = c.line_id
          where c.ibo_id = ${iboId} and c.at >= ${iso(from)}::timestamptz and c.at < ${iso(to)}::timestamptz order by c.at, c.id`,
    ),
    queryRows<{ paid_at: unknown; id: number; reference: string; amount_cents: unknown }>(
      db,
      sql`select paid_at, id, reference, amount_cents from commission_payouts where ibo_id = ${iboId} and paid_at >= ${iso(from)}::timestamptz and paid_at < ${iso(to)}::timestamptz order by paid_at, id`,
    ),
    queryRows<{ owed: unknown; paid: unknown }>(
      db,
      sql`select (select coalesce(sum(amount_cents), 0) from commissions where ibo_id = ${iboId} and at < ${iso(from)}::timestamptz) as owed,
                 (select coalesce(sum(amount_cents), 0) from commission_payouts where ibo_id = ${iboId} and paid_at < ${iso(from)}::timestamptz) as paid`,
    ),
  ]);
  const lines: StatementLine[] = [
    ...entries.map((e): StatementLine => ({
      at: instant(e.at),
      kind: e.kind,
      ref: orderNumber(num(e.order_id)),
      title: e.title_es === null ? null : { es: e.title_es, en: e.title_en ?? e.title_es },
      productKind: e.product_kind,
      rateBp: num(e.rate_bp),
      amountCents: num(e.amount_cents),
    })),
    ...payouts.map((p): StatementLine => ({ at: instant(p.paid_at), kind: 'payout', ref: p.reference || `#${num(p.id)}`, title: null, productKind: null, rateBp: null, amountCents: num(p.amount_cents) })),
  ].sort((a, b) => a.at.getTime() - b.at.getTime());
  const sumOf = (kind: StatementLine['kind']) => lines.filter((l) => l.kind === kind).reduce((a, l) => a + l.amountCents, 0);
  const opening = num(before?.owed) - num(before?.paid);
  const earned = sumOf('earned');
  const cancelled = sumOf('cancelled');
  const reversed = sumOf('reversed');
  const paid = sumOf('payout');
  return { ibo, month, lines, totals: { opening, earned, cancelled, reversed, paid, closing: opening + earned + cancelled + reversed - paid } };
}
