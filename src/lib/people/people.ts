/**
 * The back office's people area without I/O: reading the search (name, e-mail or IBO code), a person's
 * id, the user types staff may set, the grant form (a course and a reason), and the rule that keeps
 * staff from blocking themselves or the academy's last administrator.
 */
import { USER_TYPE } from '../db/schema';
import { normalizeIboCode } from '../identity/ibo';
import { hasForbiddenCharacters } from '../forms/characters';

/** People listed on one page of the search. */
export const PEOPLE_PAGE_SIZE = 25;
/** Longest search accepted (a name, an address or a code is far shorter). */
export const SEARCH_MAX_LENGTH = 200;
/** Shortest and longest reason of a grant. */
export const REASON_MIN_LENGTH = 3;
export const REASON_MAX_LENGTH = 500;
/** Pages beyond this are not offered (a search that needs them is too broad). */
const MAX_PAGE = 400;

/** What a search asks: the typed text (trimmed, possibly empty: everyone, newest first) and the page. */
export interface PeopleSearch {
  q: string;
  page: number;
}

/** The search of a page's address; `invalid` for a text too long or holding control characters (the page says so, 400). */
export function readPeopleSearch(params: URLSearchParams): { ok: true; value: PeopleSearch } | { ok: false; problem: 'invalid' } {
  const raw = params.get('q') ?? '';
  if (raw.length > SEARCH_MAX_LENGTH || hasForbiddenCharacters(raw)) return { ok: false, problem: 'invalid' };
  const n = Number(params.get('page') ?? '1');
  const page = Number.isInteger(n) && n >= 1 ? Math.min(n, MAX_PAGE) : 1;
  return { ok: true, value: { q: raw.trim().replace(/\s+/g, ' '), page } };
}

/** The query string of a search's page (`?q=…&page=…`, empty for the first page of everyone). */
export function searchQuery(search: PeopleSearch, page = search.page): string {
  const q = new URLSearchParams();
  if (search.q) q.set('q', search.q);
  if (page > 1) q.set('page', String(page));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** How the database matches a search: the folded text for names and addresses, the code it may be, the `like` pattern. */
export interface SearchTerms {
  /** Lower-case text for the name and address (`%`, `_` and `\` escaped for `like`). */
  pattern: string;
  /** The text as an IBO code (upper case), or null when it cannot be one. */
  code: string | null;
}

/** Escapes `like`'s wildcards so a typed `%` or `_` is matched as itself. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The terms of a non-empty search. */
export function searchTerms(q: string): SearchTerms {
  return { pattern: `%${escapeLike(q.toLowerCase())}%`, code: normalizeIboCode(q) };
}

/** The page a total allows (`page` clamped to the last one) and how many there are. */
export function pageOf(total: number, page: number): { page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(total / PEOPLE_PAGE_SIZE));
  return { page: Math.min(Math.max(1, page), pages), pages };
}

/** A person's id from an address or a form: `invalid` for anything but a positive 32-bit integer in digits. */
export function readPersonId(raw: unknown): { ok: true; id: number } | { ok: false } {
  const text = typeof raw === 'number' ? String(raw) : raw;
  if (typeof text !== 'string' || !/^[1-9]\d{0,9}$/.test(text.trim())) return { ok: false };
  const id = Number(text.trim());
  return id <= 2_147_483_647 ? { ok: true, id } : { ok: false };
}

/** The user types staff may set, by name (the stored numbers are the original system's). */
export const PERSON_TYPES = ['learner', 'refused', 'admin', 'prospect'] as const;
export type PersonType = (typeof PERSON_TYPES)[number];

/** The name of a stored user type, or null for a number the academy does not know. */
export function personTypeOf(stored: number): PersonType | null {
  return PERSON_TYPES.find((t) => USER_TYPE[t] === stored) ?? null;
}

/** A posted user type (its name), or null when it is none of the academy's. */
export function readPersonType(raw: unknown): PersonType | null {
  return typeof raw === 'string' && (PERSON_TYPES as readonly string[]).includes(raw) ? (raw as PersonType) : null;
}

/** What is wrong with a grant's reason. */
export type ReasonProblem = 'required' | 'tooShort' | 'tooLong' | 'invalid';

/** A grant's reason (trimmed), or what is wrong with it. */
export function readReason(raw: unknown): { ok: true; reason: string } | { ok: false; problem: ReasonProblem } {
  if (typeof raw !== 'string' || raw.trim() === '') return { ok: false, problem: 'required' };
  if (raw.length > REASON_MAX_LENGTH * 4) return { ok: false, problem: 'tooLong' };
  if (hasForbiddenCharacters(raw, true)) return { ok: false, problem: 'invalid' };
  const reason = raw.trim();
  if ([...reason].length < REASON_MIN_LENGTH) return { ok: false, problem: 'tooShort' };
  if ([...reason].length > REASON_MAX_LENGTH) return { ok: false, problem: 'tooLong' };
  return { ok: true, reason };
}

/**
 * Why blocking `targetId` is refused: staff never block themselves, and the academy always keeps an
 * administrator who can log in (`activeAdministrators`: the administrators not blocked, the target included).
 */
export function blockRefused(actorId: number, targetId: number, targetIsAdministrator: boolean, activeAdministrators: number): 'self' | 'lastAdministrator' | null {
  if (actorId === targetId) return 'self';
  if (targetIsAdministrator && activeAdministrators <= 1) return 'lastAdministrator';
  return null;
}

/** The audit reference of a grant (its reason is staff's free text: kept in the grant, never in the audit's facts). */
export const grantRef = (grantId: number) => `grant:${grantId}`;
