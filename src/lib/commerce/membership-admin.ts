/**
 * Memberships as finance staff run them, pure: the list's filters and pages, the states staff filter by
 * (active, cancelling at the period's end, ended), which change each state allows, how far an extension
 * may go, and the forms' schemas (every change carries a reason and the form's key, so a form posted
 * twice, or again after a crash, is one change).
 */
import { formText } from '~/lib/forms/forms';
import { hasForbiddenCharacters } from '~/lib/forms/characters';
import { z } from '~/lib/zod';
import { membershipState, renewalDue, type MembershipState, type MembershipTerm } from './membership';
import { formLang as lang, recordId as id, formKey as requestKey } from '~/lib/forms/forms';

/** The states the list filters by: `active` holds a membership whose renewal is being retried (grace) too. */
export const MEMBERSHIP_FILTER_STATES = ['active', 'cancelling', 'ended'] as const;
export type MembershipFilterState = (typeof MEMBERSHIP_FILTER_STATES)[number];

/** Memberships per page of the list. */
export const MEMBERSHIPS_PAGE_SIZE = 20;
/** Audit events per page of a membership's history. */
export const HISTORY_LIMIT = 50;
/** The longest extension at once, in days (a year and a day: a yearly plan's period, with room). */
export const MAX_EXTENSION_DAYS = 366;
/** The longest reason, in characters. */
export const REASON_MAX_LENGTH = 500;

/** A membership as an audit reference. */
export const membershipRef = (id: number) => `membership:${id}`;

/**
 * Where a membership stands for staff at `now`: as `membershipState` says, except that one whose period
 * ended with its renewal still to be tried (the renewal job runs every few minutes) is in `grace`, not
 * ended: it will be charged unless cancelled now.
 */
export function adminState(term: MembershipTerm, now: Date): MembershipState {
  const state = membershipState(term, now);
  return state === 'lapsed' && renewalDue(term, now) ? 'grace' : state;
}

/** The changes staff make to a membership. */
export const MEMBERSHIP_CHANGES = ['extend', 'cancelNow', 'cancelAtEnd', 'resume'] as const;
export type MembershipChange = (typeof MEMBERSHIP_CHANGES)[number];

/** Why a change is refused for a membership in its state (each a 409 in words). */
export type ChangeRefusal = 'ended' | 'grace' | 'alreadyCancelling' | 'notCancelling';

/**
 * Whether `change` may be made to a membership in `state`: an ended one takes none; one whose renewal
 * failed and is being retried (grace) may only be cancelled now (an extension or a cancellation at the
 * period's end would race the renewal's charge, whose answer may still be on its way); a cancellation
 * at the period's end is made once and undone once.
 */
export function refusalOf(change: MembershipChange, state: MembershipState): ChangeRefusal | null {
  if (state === 'lapsed') return 'ended';
  if (change === 'cancelNow') return null;
  if (state === 'grace') return 'grace';
  if (change === 'cancelAtEnd' && state === 'cancelled') return 'alreadyCancelling';
  if (change === 'resume' && state !== 'cancelled') return 'notCancelling';
  return null;
}

/** The row's term after `change` at `now` (for `extend`, by `days`): what the database is set to. */
export function changedTerm(term: MembershipTerm, change: MembershipChange, now: Date, days = 0): MembershipTerm {
  switch (change) {
    case 'extend':
      return { ...term, endsAt: new Date(term.endsAt.getTime() + days * 86_400_000) };
    case 'cancelAtEnd':
      return { ...term, cancelledAt: now };
    case 'resume':
      return { ...term, cancelledAt: null };
    case 'cancelNow':
      // Access ends now: no grace, no renewal.
      return { ...term, endsAt: term.endsAt < now ? term.endsAt : now, cancelledAt: now, graceUntil: null };
  }
}

/** The state staff filter by of a membership's state. */
export function filterStateOf(state: MembershipState): MembershipFilterState {
  if (state === 'cancelled') return 'cancelling';
  if (state === 'lapsed') return 'ended';
  return 'active';
}

/** Facts of a membership for its audit record (dates and states; nothing personal). */
export function termFacts(term: MembershipTerm, now: Date): Record<string, unknown> {
  return {
    state: membershipState(term, now),
    endsAt: term.endsAt.toISOString(),
    cancelledAt: term.cancelledAt?.toISOString() ?? null,
    graceUntil: term.graceUntil?.toISOString() ?? null,
  };
}

/* ───────────── the list's filters ───────────── */

const positiveInt = z.coerce.number().int().positive().max(2_147_483_647);

/** The list's filters from the page's query: anything malformed is ignored, never an error. */
export const membershipFilterSchema = z.object({
  q: z.string().trim().max(200).refine((q) => !hasForbiddenCharacters(q)).optional().catch(undefined),
  plan: positiveInt.optional().catch(undefined),
  state: z.enum(MEMBERSHIP_FILTER_STATES).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
});
export type MembershipFilter = z.infer<typeof membershipFilterSchema>;

/** Reads the list's filters (empty values are no filter). */
export function readMembershipFilter(params: URLSearchParams): MembershipFilter {
  const raw = Object.fromEntries([...params.entries()].filter(([, v]) => v.trim() !== ''));
  return membershipFilterSchema.parse(raw);
}

/** The query of a filter at `page` (`''` when there is nothing to say). */
export function membershipQuery(filter: Pick<MembershipFilter, 'q' | 'plan' | 'state'>, page = 1): string {
  const q = new URLSearchParams();
  if (filter.q) q.set('q', filter.q);
  if (filter.plan !== undefined) q.set('plan', String(filter.plan));
  if (filter.state) q.set('state', filter.state);
  if (page > 1) q.set('page', String(page));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** The pages `total` rows fill at `size` a page (at least one) and the page to show of them. */
export function pageOf(total: number, asked: number, size = MEMBERSHIPS_PAGE_SIZE): { page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(total / size));
  return { page: Math.min(Math.max(1, asked), pages), pages };
}

/** `%`, `_` and `\` of a search typed by staff, escaped for LIKE. */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/* ───────────── the forms ───────────── */

const reason = formText({ error: 'required' }).trim().min(1, 'required').max(REASON_MAX_LENGTH, 'tooLong');
/** The form's key: drawn when the page is drawn, so the same form posted twice is one change. */

/** Days to extend by, as typed: a whole number from 1 to `MAX_EXTENSION_DAYS`, else null (a 400 in words). */
export function readDays(raw: unknown): number | null {
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  if (!/^\d{1,4}$/.test(text)) return null;
  const n = Number(text);
  return n >= 1 && n <= MAX_EXTENSION_DAYS ? n : null;
}

/** Extend a membership by some days (read by `readDays`, which says what is wrong in the staff's words). */
export const extendFormSchema = z.object({ id, days: z.unknown(), reason, key: requestKey, lang });
/** Cancel now, cancel at the period's end, or undo that cancellation. */
export const changeFormSchema = z.object({ id, reason, key: requestKey, lang });
