/**
 * IBO commissions, the pure rules: rates in hundredths of a percent, a line's commission in cents, the
 * hold (`COMMISSION_HOLD_DAYS`) that keeps a commission pending while its order may still be refunded,
 * each line's state, the statement's month, and the back office's forms.
 *
 * The ledger (`commissions` table) is written by the database in the same transaction as every payment
 * and refund (migration 0039): a line earns `commissionCents(net, rate)` at the rate in force when its
 * order was paid; a refund adds a negative entry (`cancelled` while nothing of the line was paid out,
 * `reversed` after). Nothing is ever swept: whether a commission is still pending or approved is read
 * from the order's payment time and the clock, so no crash can leave a state half moved.
 */
import type { Locale } from '~/i18n/locales';
import { formText } from '../forms/forms';
import { z } from '../zod';
import { formLang as lang, recordId as id, formKey as requestKey } from '~/lib/forms/forms';

/** Days after an order's payment during which its commission stays pending (the refund window). */
export const COMMISSION_HOLD_DAYS = 30;
const DAY_MS = 86_400_000;

/** The product kinds a rate is set for, in the back office's order. */
export const COMMISSION_KINDS = ['course', 'book', 'plan'] as const;
export type CommissionKind = (typeof COMMISSION_KINDS)[number];

/** 100 % in the rates' unit (hundredths of a percent). */
export const FULL_RATE = 10_000;

/** The commission on `netCents` at `rateBp` hundredths of a percent: rounded to the nearest cent, half up. */
export function commissionCents(netCents: number, rateBp: number): number {
  if (!Number.isSafeInteger(netCents) || !Number.isInteger(rateBp) || rateBp < 0 || rateBp > FULL_RATE) throw new RangeError('Not cents or not a rate');
  // The same arithmetic as `commissions_refresh` (integers only, so both agree to the cent).
  return Math.floor((Math.max(netCents, 0) * rateBp + FULL_RATE / 2) / FULL_RATE);
}

/** When a commission on an order paid at `paidAt` stops being pending. */
export const holdEnds = (paidAt: Date): Date => new Date(paidAt.getTime() + COMMISSION_HOLD_DAYS * DAY_MS);

/** The latest payment time whose commissions are approved at `now` (a payout settles the entries of lines paid by then). */
export const approvedUpTo = (now: Date): Date => new Date(now.getTime() - COMMISSION_HOLD_DAYS * DAY_MS);

/* ───────────── rates ───────────── */

/** What is wrong with a rate typed in the back office. */
export type RateProblem = 'required' | 'notNumber' | 'outOfRange' | 'tooPrecise';

/**
 * A percentage as typed ("20", "12.5", "12,5 %") in hundredths of a percent, or what is wrong with it:
 * a number from 0 to 100 with at most two decimals.
 */
export function readRate(raw: unknown): { ok: true; value: number } | { ok: false; problem: RateProblem } {
  if (typeof raw !== 'string' && typeof raw !== 'number') return { ok: false, problem: raw === undefined || raw === null ? 'required' : 'notNumber' };
  const text = String(raw).trim().replace(/\s*%$/, '').replace(',', '.');
  if (text === '') return { ok: false, problem: 'required' };
  if (text.length > 12 || !/^[+-]?\d+(\.\d+)?$/.test(text)) return { ok: false, problem: 'notNumber' };
  const [whole = '', fraction = ''] = text.replace(/^[+-]/, '').split('.');
  const negative = text.startsWith('-') && /[1-9]/.test(text);
  if (negative || Number(text) > 100) return { ok: false, problem: 'outOfRange' };
  if (fraction.replace(/0+$/, '').length > 2) return { ok: false, problem: 'tooPrecise' };
  return { ok: true, value: Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2)) };
}

/** A rate for people ("20 %", "12,5 %" in Spanish, "12.5%" in English). */
export function rateText(rateBp: number, locale: Locale): string {
  return new Intl.NumberFormat(locale === 'en' ? 'en-US' : 'es-ES', { style: 'percent', maximumFractionDigits: 2 }).format(rateBp / FULL_RATE);
}

/** A rate as the form's field shows it ("12.5"). */
export const rateInput = (rateBp: number): string => String(rateBp / 100);

/* ───────────── states ───────────── */

/** Where a line's commission is: see `lineState`. */
export type CommissionState = 'pending' | 'approved' | 'paid' | 'cancelled' | 'reversed';
export const COMMISSION_STATES = ['pending', 'approved', 'paid', 'cancelled', 'reversed'] as const satisfies readonly CommissionState[];

/** What the state of a line's commission is read from: its entries, summed. */
export interface LineEntries {
  /** When the order was paid. */
  paidAt: Date;
  /** The earned entries' sum (what the line earned, before any refund). */
  earnedCents: number;
  /** The sum of every entry: what the IBO is due on the line now. */
  dueCents: number;
  /** The entries' sum not yet settled by a payout. */
  unpaidCents: number;
  /** Whether an entry is `reversed` (a refund after a payout). */
  reversed: boolean;
  /** Whether every entry is settled. */
  settled: boolean;
}

/**
 * The state of a line's commission at `now`: `reversed` once a refund came after it was paid out;
 * `cancelled` when a refund took it all before; `paid` when a payout settled it; else `pending` during
 * the hold and `approved` after (a partial refund before payout only lowers the amount).
 */
export function lineState(e: LineEntries, now: Date): CommissionState {
  if (e.reversed) return 'reversed';
  if (e.dueCents === 0 && e.earnedCents > 0) return 'cancelled';
  if (e.settled) return 'paid';
  return now.getTime() >= holdEnds(e.paidAt).getTime() ? 'approved' : 'pending';
}

/** An IBO's sums (cents): pending and approved unpaid commissions, reversals not yet netted, paid out. */
export interface CommissionTotals {
  pending: number;
  approved: number;
  /** Reversals (negative) the next payout nets out. */
  reversed: number;
  /** What the next payout would pay now: approved plus reversed. */
  payable: number;
  /** Every payout's sum. */
  paid: number;
}

/* ───────────── statements ───────────── */

/** The earliest month a statement is asked for. */
const FIRST_MONTH = '2000-01';

/** A statement's month ("2026-05"), when it is one from 2000 to the current month (UTC) at `now`; else null. */
export function readMonth(raw: unknown, now: Date): string | null {
  if (typeof raw !== 'string' || !/^\d{4}-(0[1-9]|1[0-2])$/.test(raw)) return null;
  const current = now.toISOString().slice(0, 7);
  return raw >= FIRST_MONTH && raw <= current ? raw : null;
}

/** The instants a month spans (UTC): from its first instant, up to the next month's. */
export function monthRange(month: string): { from: Date; to: Date } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return { from: new Date(Date.UTC(y, m - 1, 1)), to: new Date(Date.UTC(y, m, 1)) };
}

/** One line of a statement: an entry of the ledger, or a payout. */
export interface StatementLine {
  at: Date;
  kind: 'earned' | 'cancelled' | 'reversed' | 'payout';
  /** The order's number for an entry ("A-000042"), the payout's reference for a payout. */
  ref: string;
  /** The product's title (null for a payout). */
  title: { es: string; en: string } | null;
  productKind: CommissionKind | null;
  /** The rate of an entry (hundredths of a percent), null for a payout. */
  rateBp: number | null;
  /** The entry's amount (negative for a cancellation or reversal); a payout's amount paid (positive). */
  amountCents: number;
}

/** A month's statement of one IBO. */
export interface Statement {
  ibo: { id: number; code: string; companyName: string };
  month: string;
  lines: StatementLine[];
  totals: {
    /** What the IBO was owed (entries less payouts) when the month began. */
    opening: number;
    earned: number;
    cancelled: number;
    reversed: number;
    paid: number;
    /** What the IBO is owed when the month ends: opening + earned + cancelled + reversed − paid. */
    closing: number;
  };
}

/** The words of a statement's CSV and PDF (the `commissions.statement` section of the catalogue). */
export interface StatementWords {
  columns: { date: string; kind: string; ref: string; product: string; productKind: string; rate: string; amount: string };
  kinds: Record<StatementLine['kind'], string>;
  productKinds: Record<CommissionKind, string>;
  totals: Record<keyof Statement['totals'], string>;
}

/** The statement's file name ("comisiones-ABC123-2026-05.csv"), ASCII only. */
export function statementFileName(prefix: string, code: string, month: string, extension: 'csv' | 'pdf'): string {
  return `${prefix}-${code.replace(/[^A-Za-z0-9-]/g, '')}-${month}.${extension}`;
}

/* ───────────── the back office's forms ───────────── */


/** A rate set for a kind: the kind, the percentage (read by `readRate`, which says what is wrong in words). */
export const rateFormSchema = z.object({
  kind: z.enum(COMMISSION_KINDS, { error: 'invalidOption' }),
  rate: z.unknown(),
  lang,
});

/** The longest transfer reference a payout keeps. */
export const REFERENCE_MAX_LENGTH = 120;

/** A payout to one IBO: its id, the transfer's reference (may be empty), the form's key. */
export const payoutFormSchema = z.object({
  ibo: id,
  // Optional, not defaulted: a form's empty field reaches the schema as nothing only for an optional field.
  reference: formText().trim().max(REFERENCE_MAX_LENGTH, 'tooLong').optional(),
  key: requestKey,
  lang,
});

/** The audit trail's subject of a kind's rate. */
export const rateRef = (kind: CommissionKind) => `commission-rate:${kind}`;

/* ───────────── a statement as CSV ───────────── */

/** A statement as CSV rows (the caller adds `CSV_BOM`): a heading, one row per line, then the totals. */
export function statementCsvRows(st: Statement, words: StatementWords & { title: string; month: string; ibo: string }, locale: Locale): (string | number | { cents: number } | null)[][] {
  const c = words.columns;
  const rows: (string | number | { cents: number } | null)[][] = [
    [words.title],
    [words.ibo, st.ibo.code, st.ibo.companyName],
    [words.month, st.month],
    [],
    [c.date, c.kind, c.ref, c.product, c.productKind, c.rate, c.amount],
  ];
  for (const l of st.lines) {
    rows.push([
      l.at.toISOString().slice(0, 10),
      words.kinds[l.kind],
      l.ref,
      l.title ? l.title[locale] : '',
      l.productKind ? words.productKinds[l.productKind] : '',
      l.rateBp === null ? '' : rateText(l.rateBp, locale),
      { cents: l.kind === 'payout' ? -l.amountCents : l.amountCents },
    ]);
  }
  rows.push([]);
  for (const key of ['opening', 'earned', 'cancelled', 'reversed', 'paid', 'closing'] as const) rows.push([words.totals[key], null, null, null, null, null, { cents: key === 'paid' ? -st.totals.paid : st.totals[key] }]);
  return rows;
}
