/**
 * An IBO's people, pure: who they are (the prospects the IBO registered, and the people who signed up
 * through the IBO's link and allowed it: `consent.ts`), the list's filters and pages read from the
 * page's query, each person's standing on a course, and the rule of a nudge (an e-mail from the academy
 * that encourages the person to go on): at most one a week per person from the same IBO, a day's
 * allowance per IBO, never to a person who asked for no more. The reads are in `people.server.ts`.
 */
import { formKey, formLang, recordId } from '~/lib/forms/forms';
import { readPage } from './business';
import { z } from '~/lib/zod';

/** The list's filters: everyone, stuck (a course begun and unfinished, and nothing done for a week), a course finished, an exam passed, bought. */
export const PEOPLE_SHOWS = ['all', 'stuck', 'finished', 'passed', 'bought'] as const;
export type PeopleShow = (typeof PEOPLE_SHOWS)[number];

/** Days without any activity after which a person with an unfinished course counts as stuck. */
export const STUCK_DAYS = 7;
/** People per page. */
export const PEOPLE_PAGE_SIZE = 20;
/** The longest search the list takes (a name or an address). */
export const MAX_SEARCH = 100;

/** The list's query: the filter, the page (from 1) and a search of names and addresses (`''`: none). */
export interface PeopleQuery {
  show: PeopleShow;
  page: number;
  q: string;
}

export type PeopleQueryError = 'badShow' | 'badPage' | 'badInput';
export type PeopleQueryResult = { ok: true; query: PeopleQuery } | { ok: false; error: PeopleQueryError };

/**
 * The list's query from the address (`show`, `page`, `q`; absent or empty: everyone, page 1, no
 * search). Refused 400: an unknown filter, a page that is not a whole number from 1, and any value with
 * control characters or longer than the search allows. An `ibo` is the page's business (see the page).
 */
export function readPeopleQuery(params: URLSearchParams): PeopleQueryResult {
  for (const [, value] of params) {
    // eslint-disable-next-line no-control-regex
    if (value.length > MAX_SEARCH || /[\u0000-\u001f\u007f]/.test(value)) return { ok: false, error: 'badInput' };
  }
  const show = params.get('show') || 'all';
  if (!(PEOPLE_SHOWS as readonly string[]).includes(show)) return { ok: false, error: 'badShow' };
  const page = readPage(params);
  if (page === null) return { ok: false, error: 'badPage' };
  return { ok: true, query: { show: show as PeopleShow, page, q: (params.get('q') ?? '').trim() } };
}

/** The address of the list with `query` (defaults left out), for links and the pager. */
export function peopleQueryString(query: Partial<PeopleQuery>): string {
  const p = new URLSearchParams();
  if (query.show && query.show !== 'all') p.set('show', query.show);
  if (query.q) p.set('q', query.q);
  if (query.page && query.page > 1) p.set('page', String(query.page));
  const text = p.toString();
  return text ? `?${text}` : '';
}

/** How a person is the IBO's: registered by the IBO as a prospect, or signed up through its link (and allowed it). */
export type Relation = 'registered' | 'signedUp';

/** A person's standing on one course they began. */
export interface CourseStanding {
  courseId: number;
  lessons: number;
  lessonsDone: number;
  startedAt: Date;
  passedAt: Date | null;
  certifiedAt: Date | null;
  /** Their best graded exam score (0–100) and how many graded attempts, if any. */
  bestScore: number | null;
  attempts: number;
}

/** The share of a course's lessons done, as a whole percent (0 for a course with no lessons). */
export function progressPercent(standing: Pick<CourseStanding, 'lessons' | 'lessonsDone'>): number {
  if (standing.lessons <= 0) return 0;
  return Math.min(100, Math.floor((standing.lessonsDone * 100) / standing.lessons));
}

/** The furthest a person got on a course: certified, passed, every lesson done, or under way. */
export function courseStage(standing: Pick<CourseStanding, 'lessons' | 'lessonsDone' | 'passedAt' | 'certifiedAt'>): 'certified' | 'passed' | 'finished' | 'learning' {
  if (standing.certifiedAt) return 'certified';
  if (standing.passedAt) return 'passed';
  if (standing.lessons > 0 && standing.lessonsDone >= standing.lessons) return 'finished';
  return 'learning';
}

/* ───────────── nudges ───────────── */

/** One nudge per person from the same IBO within this many days. */
export const NUDGE_COOLDOWN_DAYS = 7;
/** Nudges an IBO may send in a UTC day. */
export const NUDGES_PER_DAY = 30;

/** Why a nudge is not sent (each a sentence, a 4xx). */
export type NudgeRefusal = 'notYours' | 'stopped' | 'recent' | 'dailyLimit';

/** What decides a nudge: the person's last nudge from this IBO, whether they asked for none, and the IBO's nudges today. */
export interface NudgeFacts {
  visible: boolean;
  stoppedAt: Date | null;
  lastNudgeAt: Date | null;
  sentToday: number;
  now: Date;
}

/** Whether a nudge may go, or why not (a person not the IBO's first: nothing else of them is told). */
export function nudgeVerdict(f: NudgeFacts): { ok: true } | { ok: false; reason: NudgeRefusal } {
  if (!f.visible) return { ok: false, reason: 'notYours' };
  if (f.stoppedAt) return { ok: false, reason: 'stopped' };
  if (f.lastNudgeAt && f.now.getTime() - f.lastNudgeAt.getTime() < NUDGE_COOLDOWN_DAYS * 86_400_000) return { ok: false, reason: 'recent' };
  if (f.sentToday >= NUDGES_PER_DAY) return { ok: false, reason: 'dailyLimit' };
  return { ok: true };
}

/** The HTTP status of a nudge refused: not found for someone not the IBO's, 409 for one who opted out, 429 for the limits. */
export const NUDGE_REFUSAL_STATUS: Readonly<Record<NudgeRefusal, 404 | 409 | 429>> = { notYours: 404, stopped: 409, recent: 429, dailyLimit: 429 };

/** The start of `now`'s UTC day (the IBO's allowance counts from it). */
export function utcDayStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** The start of the UTC day after `now` (when what is counted in days, as *stuck*, turns). */
export function utcDayEnd(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

/* ───────────── the nudge form ───────────── */

/** The nudge form: the person (their contact id, as the list gave it), the form's one-time key, the page's language. */
export const nudgeFormSchema = z.object({
  person: recordId,
  key: formKey,
  lang: formLang,
});

/** The stop link's form: the contact and its token (as the mail gave them), the page's language. */
export const nudgeStopSchema = z.object({
  c: recordId,
  t: z.string({ error: 'invalidOption' }).regex(/^[A-Za-z0-9_-]{20,100}$/, 'invalidOption'),
  lang: formLang,
});
