/**
 * The rules of the IBOs administrators manage, pure: what the IBO form accepts (a code an affiliate link
 * can carry, the company, its business line, a contact, the IBO's own account and its sponsor), the
 * sponsor rule (no loops), the list's search and pages, and the audit references. `ibos.server.ts` does
 * the I/O; the actions turn a problem into its sentence.
 */
import { displayName, hasForbiddenCharacters, hasForbiddenNameCharacters } from '../forms/characters';
import { z } from '../zod';

/** Longest code: the affiliate link's segment and the typed code share this bound. */
export const IBO_CODE_MAX = 32;
/** Longest company or contact name, e-mail and phone a form keeps. */
export const IBO_LIMITS = { company: 120, contactName: 80, email: 254, phone: 30 } as const;
/** IBOs per page of the list. */
export const IBO_PAGE_SIZE = 25;
/** Longest search text the list reads (a longer one is cut, never refused). */
export const IBO_SEARCH_MAX = 80;

export type IboStatus = 'active' | 'suspended';

/** What the IBO form gives. */
export interface IboDraft {
  code: string;
  companyName: string;
  businessId: number | null;
  contactName: string;
  contactEmail: string;
  contactPhone: string;
  /** The e-mail of the IBO's own account (an account that already exists). */
  accountEmail: string;
  /** The sponsor's code, or null for none. */
  sponsorCode: string | null;
}

/** The fields of the form, in the order they are checked. */
export const IBO_FIELDS = ['id', 'code', 'companyName', 'businessId', 'contactName', 'contactEmail', 'contactPhone', 'accountEmail', 'sponsorCode'] as const;
export type IboField = (typeof IBO_FIELDS)[number];

/** Why the form was refused, on which field (each problem has a sentence in `iboAdmin.problems`). */
export type IboProblemCode = 'required' | 'tooLong' | 'invalidCharacters' | 'codeShape' | 'email' | 'phone' | 'invalidId';
export interface IboProblem {
  field: IboField;
  problem: IboProblemCode;
}

export type IboRead<T> = { ok: true; value: T } | { ok: false; problem: IboProblem };

const str = (raw: unknown): string => (typeof raw === 'string' ? raw : typeof raw === 'number' ? String(raw) : '');

/**
 * A typed code as it is stored: trimmed, upper case (`horizonte01` → `HORIZONTE01`), letters A–Z and
 * digits only, 3 to 32 of them, at least one digit: exactly what an affiliate link `/{code}` is read as
 * (`looksLikeAffiliateCode`), so every code staff save can be shared as a link.
 */
export function readIboCode(raw: unknown): IboRead<string> {
  const text = str(raw).trim().toUpperCase();
  if (text === '') return { ok: false, problem: { field: 'code', problem: 'required' } };
  if (text.length > IBO_CODE_MAX) return { ok: false, problem: { field: 'code', problem: 'tooLong' } };
  if (!/^[A-Z0-9]{3,}$/.test(text) || !/\d/.test(text)) return { ok: false, problem: { field: 'code', problem: 'codeShape' } };
  return { ok: true, value: text };
}

/** An id from a hidden field or a select: exactly its digits; empty is `null`. */
export function readId(raw: unknown, field: IboField): IboRead<number | null> {
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) return { ok: true, value: null };
  const text = str(raw);
  if (!/^[1-9]\d{0,9}$/.test(text) || Number(text) > 2_147_483_647) return { ok: false, problem: { field, problem: 'invalidId' } };
  return { ok: true, value: Number(text) };
}

function line(raw: unknown, field: IboField, max: number, opts: { required: boolean; name?: boolean }): IboRead<string> {
  const text = str(raw).trim();
  if (text === '') return opts.required ? { ok: false, problem: { field, problem: 'required' } } : { ok: true, value: '' };
  if (text.length > max) return { ok: false, problem: { field, problem: 'tooLong' } };
  if (opts.name ? hasForbiddenNameCharacters(text) : hasForbiddenCharacters(text)) return { ok: false, problem: { field, problem: 'invalidCharacters' } };
  return { ok: true, value: text };
}

const emailShape = z.email();

function email(raw: unknown, field: IboField, required: boolean): IboRead<string> {
  const read = line(raw, field, IBO_LIMITS.email, { required });
  if (!read.ok || read.value === '') return read;
  const lower = read.value.toLowerCase();
  return emailShape.safeParse(lower).success ? { ok: true, value: lower } : { ok: false, problem: { field, problem: 'email' } };
}

/** Reads the whole form (every field unknown: whatever was posted), first problem first. */
export function readIboForm(input: Record<string, unknown>): IboRead<{ id: number | null; draft: IboDraft }> {
  const id = readId(input.id, 'id');
  if (!id.ok) return id;
  const code = readIboCode(input.code);
  if (!code.ok) return code;
  const companyName = line(input.companyName, 'companyName', IBO_LIMITS.company, { required: true, name: true });
  if (!companyName.ok) return companyName;
  const businessId = readId(input.businessId, 'businessId');
  if (!businessId.ok) return businessId;
  const contactName = line(input.contactName, 'contactName', IBO_LIMITS.contactName, { required: true, name: true });
  if (!contactName.ok) return contactName;
  const contactEmail = email(input.contactEmail, 'contactEmail', true);
  if (!contactEmail.ok) return contactEmail;
  const contactPhone = line(input.contactPhone, 'contactPhone', IBO_LIMITS.phone, { required: false });
  if (!contactPhone.ok) return contactPhone;
  if (contactPhone.value !== '' && !/^\+?[0-9][0-9 ()-]{5,}$/.test(contactPhone.value)) return { ok: false, problem: { field: 'contactPhone', problem: 'phone' } };
  const accountEmail = email(input.accountEmail, 'accountEmail', true);
  if (!accountEmail.ok) return accountEmail;
  let sponsorCode: string | null = null;
  if (str(input.sponsorCode).trim() !== '') {
    const sponsor = readIboCode(input.sponsorCode);
    if (!sponsor.ok) return { ok: false, problem: { field: 'sponsorCode', problem: sponsor.problem.problem } };
    sponsorCode = sponsor.value;
  }
  return {
    ok: true,
    value: {
      id: id.value,
      draft: {
        code: code.value,
        companyName: companyName.value,
        businessId: businessId.value,
        contactName: contactName.value,
        contactEmail: contactEmail.value,
        contactPhone: contactPhone.value,
        accountEmail: accountEmail.value,
        sponsorCode,
      },
    },
  };
}

/**
 * Whether making `sponsorId` the sponsor of IBO `iboId` closes a loop: `chainOf(x)` is x's sponsor (or
 * null). A loop is the IBO itself, or the IBO found up the proposed sponsor's line. `limit` bounds the
 * walk (a loop already stored elsewhere cannot make it run for ever).
 */
export function sponsorLoops(iboId: number | null, sponsorId: number, sponsorOf: ReadonlyMap<number, number | null>, limit = 10_000): boolean {
  if (iboId === null) return false;
  let at: number | null = sponsorId;
  for (let steps = 0; at !== null && steps < limit; steps++) {
    if (at === iboId) return true;
    at = sponsorOf.get(at) ?? null;
  }
  return at !== null;
}

/** The list's search: a text (name, code, company, e-mail), a status, a page. Malformed parts are ignored. */
export const iboListFilterSchema = z.object({
  q: z
    .string()
    .catch('')
    .default('')
    .transform((v) => displayName(v).trim().slice(0, IBO_SEARCH_MAX)),
  status: z.enum(['active', 'suspended']).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
});
export type IboListFilter = z.infer<typeof iboListFilterSchema>;

/** The filter of a list address's query. */
export function readIboListFilter(params: URLSearchParams): IboListFilter {
  return iboListFilterSchema.parse({ q: params.get('q') ?? undefined, status: params.get('status') ?? undefined, page: params.get('page') ?? undefined });
}

/** The query of a list address (`?q=…&status=…&page=…`, empty parts left out). */
export function iboListQuery(filter: Partial<IboListFilter>, page?: number): string {
  const params = new URLSearchParams();
  if (filter.q) params.set('q', filter.q);
  if (filter.status) params.set('status', filter.status);
  if (page && page > 1) params.set('page', String(page));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** A `LIKE` pattern that matches `text` anywhere, its own `%`, `_` and `\` taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** An IBO as an audit reference. */
export const iboRef = (id: number) => `ibo:${id}`;

/** The facts an audit event keeps of an IBO (no personal data: ids, the code, states). */
export function iboFacts(row: { code: string; businessId: number | null; sponsorIboId: number | null; userId: number; status: IboStatus; imageUrl?: string | null }): Record<string, unknown> {
  return { code: row.code, business: row.businessId, sponsor: row.sponsorIboId === null ? null : iboRef(row.sponsorIboId), account: `user:${row.userId}`, status: row.status, logo: row.imageUrl ?? null };
}
