/**
 * The back office's orders, pure rules: the list's filters (search, status, date range, product type,
 * coupon, referring IBO) and pages, what a refund of some lines (or all) amounts to, and the forms'
 * schemas. I/O is in `orders.server.ts` (reads) and `refunds.server.ts` (refunds).
 */
import { formText } from '~/lib/forms/forms';
import { z } from '~/lib/zod';
import { formLang as lang, recordId as id, formKey as requestKey } from '~/lib/forms/forms';

/** Orders per page of the list. */
export const ORDERS_PAGE_SIZE = 25;
/** The longest date range the list takes, in days (a year and a bit, so "the last twelve months" always fits). */
export const MAX_RANGE_DAYS = 400;
/** The longest refund reason, in characters. */
export const REASON_MAX_LENGTH = 500;

export const ORDER_STATUSES = ['pending', 'paid', 'failed', 'refunded'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const PRODUCT_KINDS = ['course', 'book', 'plan'] as const;
export type ProductKind = (typeof PRODUCT_KINDS)[number];

/** An order as an audit reference. */
export const orderRef = (orderId: number) => `order:${orderId}`;

/* ───────────── the list's filters ───────────── */

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/).refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v));

/** The list's filters from the page's query: a malformed value is no filter (the date range's own rule is `orderRange`). */
export const orderFilterSchema = z.object({
  q: z.string().trim().max(200).optional().catch(undefined),
  status: z.enum(ORDER_STATUSES).optional().catch(undefined),
  from: day.optional().catch(undefined),
  to: day.optional().catch(undefined),
  kind: z.enum(PRODUCT_KINDS).optional().catch(undefined),
  coupon: z
    .string()
    .trim()
    .max(64)
    .transform((v) => v.toUpperCase())
    .optional()
    .catch(undefined),
  ibo: z.string().trim().max(64).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
});
export type OrderFilter = z.infer<typeof orderFilterSchema>;

/** Reads the list's filters (empty values are no filter). */
export function readOrderFilter(params: URLSearchParams): OrderFilter {
  const raw = Object.fromEntries([...params.entries()].filter(([, v]) => v.trim() !== ''));
  return orderFilterSchema.parse(raw);
}

/** The query of a filter at `page` (`''` when there is nothing to say). */
export function orderQuery(filter: Omit<OrderFilter, 'page'>, page = 1): string {
  const q = new URLSearchParams();
  for (const k of ['q', 'status', 'from', 'to', 'kind', 'coupon', 'ibo'] as const) {
    const v = filter[k];
    if (v) q.set(k, v);
  }
  if (page > 1) q.set('page', String(page));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** A date range as instants (`until` exclusive: the day after `to`), or why it is refused. */
export type RangeVerdict = { ok: true; since: Date | null; until: Date | null } | { ok: false; reason: 'reversed' | 'tooLong' };

/** The filter's date range: `from` after `to` is reversed; more than `MAX_RANGE_DAYS` days is too long. */
export function orderRange(filter: Pick<OrderFilter, 'from' | 'to'>): RangeVerdict {
  const since = filter.from ? new Date(`${filter.from}T00:00:00Z`) : null;
  const until = filter.to ? new Date(new Date(`${filter.to}T00:00:00Z`).getTime() + 86_400_000) : null;
  if (since && until) {
    if (until.getTime() <= since.getTime()) return { ok: false, reason: 'reversed' };
    if ((until.getTime() - since.getTime()) / 86_400_000 > MAX_RANGE_DAYS) return { ok: false, reason: 'tooLong' };
  }
  return { ok: true, since, until };
}

/** What the search box holds: an order (its number `A-000042` or id), else a piece of the buyer's e-mail. */
export function readSearch(q: string | undefined): { orderId: number | null; email: string | null } {
  const text = (q ?? '').trim();
  if (text === '') return { orderId: null, email: null };
  const m = /^(?:A-?|#)?0*([1-9][0-9]{0,9})$/i.exec(text);
  const id = m ? Number(m[1]) : NaN;
  if (Number.isSafeInteger(id) && id <= 2_147_483_647) return { orderId: id, email: null };
  return { orderId: null, email: text.toLowerCase() };
}

/** The number of pages `total` orders fill (at least one) and the page to show of them. */
export function pageOf(total: number, asked: number): { page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(total / ORDERS_PAGE_SIZE));
  return { page: Math.min(Math.max(1, asked), pages), pages };
}

/* ───────────── refunds ───────────── */

/**
 * What each line of an order was paid: its price less its share of the discount, the discount spread in
 * proportion to the prices (the cents left by rounding go to the first lines), so the shares add up to
 * the total charged.
 */
export function lineShares(items: readonly { id: number; priceCents: number }[], discountCents: number): Map<number, number> {
  const subtotal = items.reduce((a, i) => a + i.priceCents, 0);
  const shares = new Map<number, number>();
  if (subtotal === 0) return shares;
  const cuts = items.map((i) => Math.floor((i.priceCents * discountCents) / subtotal));
  let left = discountCents - cuts.reduce((a, c) => a + c, 0);
  items.forEach((item, n) => {
    const extra = left > 0 && cuts[n]! < item.priceCents ? 1 : 0;
    left -= extra;
    shares.set(item.id, item.priceCents - cuts[n]! - extra);
  });
  return shares;
}

/** Why a refund is refused (nothing written). */
export const REFUND_REFUSALS = ['unknown', 'notPaid', 'noCharge', 'unknownLine', 'alreadyRefunded', 'tooMuch', 'inProgress', 'gatewayRefused'] as const;
export type RefundRefusal = (typeof REFUND_REFUSALS)[number];

/** The HTTP status of each refusal. */
export const REFUND_REFUSAL_STATUS: Record<RefundRefusal, 400 | 404 | 409 | 502> = {
  unknown: 404,
  notPaid: 409,
  noCharge: 409,
  unknownLine: 400,
  alreadyRefunded: 409,
  tooMuch: 400,
  inProgress: 409,
  gatewayRefused: 409,
};

/** The order as a refund's plan needs it. */
export interface RefundableOrder {
  status: OrderStatus;
  totalCents: number;
  discountCents: number;
  items: readonly { id: number; priceCents: number }[];
  /** The lines already in a refund (made, or in flight). */
  refundedItemIds: ReadonlySet<number>;
  /** What was refunded (or is being refunded) of it so far. */
  refundedCents: number;
}

/** A refund to make: its lines with the share of each, and their sum. */
export type RefundPlan = { ok: true; lines: { itemId: number; amountCents: number }[]; amountCents: number } | { ok: false; reason: RefundRefusal };

/**
 * The refund of `chosen` lines of an order (`'all'`: every line not refunded yet): only a paid order,
 * only lines of it not refunded, and never more than was paid less what was refunded already.
 */
export function refundPlan(order: RefundableOrder, chosen: readonly number[] | 'all'): RefundPlan {
  if (order.status === 'refunded') return { ok: false, reason: 'alreadyRefunded' };
  if (order.status !== 'paid') return { ok: false, reason: 'notPaid' };
  const known = new Set(order.items.map((i) => i.id));
  const ids = chosen === 'all' ? order.items.map((i) => i.id).filter((id) => !order.refundedItemIds.has(id)) : [...new Set(chosen)];
  if (chosen !== 'all' && ids.length === 0) return { ok: false, reason: 'unknownLine' };
  if (ids.some((id) => !known.has(id))) return { ok: false, reason: 'unknownLine' };
  if (ids.length === 0 || ids.some((id) => order.refundedItemIds.has(id))) return { ok: false, reason: 'alreadyRefunded' };
  const shares = lineShares(order.items, order.discountCents);
  const lines = ids.map((itemId) => ({ itemId, amountCents: shares.get(itemId) ?? 0 })).filter((l) => l.amountCents > 0);
  const amountCents = lines.reduce((a, l) => a + l.amountCents, 0);
  if (amountCents <= 0) return { ok: false, reason: 'noCharge' };
  if (amountCents > order.totalCents - order.refundedCents) return { ok: false, reason: 'tooMuch' };
  return { ok: true, lines, amountCents };
}

/* ───────────── the forms ───────────── */

/** The form's idempotency key: drawn when the page is drawn, so a second submit of the same form is the same refund. */

/** A refund: the whole order, or the lines ticked, with a reason. */
export const refundFormSchema = z
  .object({
    id,
    scope: z.enum(['all', 'lines'], { error: 'invalidOption' }).default('lines'),
    // One checkbox sends a value, several an array; none, nothing.
    lines: z.preprocess((v) => (v === undefined || v === null || v === '' ? [] : Array.isArray(v) ? v : [v]), z.array(id).max(100, 'invalidOption')),
    reason: formText({ error: 'required', multiline: true }).trim().min(3, 'required').max(REASON_MAX_LENGTH, 'tooLong'),
    key: requestKey,
    lang,
  })
  .refine((f) => f.scope === 'all' || f.lines.length > 0, { path: ['lines'], message: 'required' });
export type RefundForm = z.infer<typeof refundFormSchema>;

/** Send the receipt again. */
export const resendFormSchema = z.object({ id, lang });
