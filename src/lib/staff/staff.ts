/**
 * The rules of the staff back office, pure: which areas each role opens, the second factor (TOTP codes
 * and recovery codes), the forms' schemas and the rule that an academy always keeps an administrator.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { accessVerdict, callerOf, STAFF_GRANTS, STAFF_ROLES, type Caller, type StaffRole } from '../access/policy';
import { DEFAULT_LOCALE, LOCALES } from '~/i18n/locales';
import { z } from '~/lib/zod';

/** The name authenticator apps show beside the account. */
export const TOTP_ISSUER = 'Academia';
/** Seconds a TOTP code lasts. */
export const TOTP_PERIOD = 30;
/** Codes one step before or after the current one are accepted too (a phone's clock drifts). */
export const TOTP_WINDOW = 1;
/** How many recovery codes set-up hands out. */
export const RECOVERY_CODE_COUNT = 10;

/* ───────────── the areas of the back office ───────────── */

/** The areas of the back office, as data: the dashboard lists those a caller may open. */
export const STAFF_AREAS = [
  { key: 'staff', path: '/admin/staff', access: 'administrator' },
  { key: 'audit', path: '/admin/audit', access: 'administrator' },
  { key: 'certificates', path: '/admin/certificates', access: 'administrator' },
  { key: 'ibos', path: '/admin/ibos', access: 'administrator' },
  { key: 'commissions', path: '/admin/commissions', access: 'administrator' },
  { key: 'courses', path: '/admin/courses', access: 'editor' },
  { key: 'videos', path: '/admin/videos', access: 'editor' },
  { key: 'questions', path: '/admin/questions', access: 'editor' },
  { key: 'books', path: '/admin/books', access: 'editor' },
  { key: 'plans', path: '/admin/plans', access: 'editor' },
  { key: 'support', path: '/admin/support', access: 'support' },
  { key: 'people', path: '/admin/people', access: 'support' },
  { key: 'coupons', path: '/admin/coupons', access: 'finance' },
  { key: 'orders', path: '/admin/orders', access: 'finance' },
  { key: 'memberships', path: '/admin/memberships', access: 'finance' },
  // Each report asks its own role (`lib/reports` REPORT_ACCESS); the index opens for any of them.
  { key: 'reports', path: '/admin/reports', access: ['editor', 'finance'] },
] as const satisfies readonly { key: string; path: string; access: StaffRole | readonly StaffRole[] }[];
export type StaffArea = (typeof STAFF_AREAS)[number];

/** The roles that open an area (any one of them, or administrator). */
export const areaRoles = (area: StaffArea): readonly StaffRole[] => (typeof area.access === 'string' ? [area.access] : area.access);

/** The areas `caller` may open, in the dashboard's order. */
export function areasFor(caller: Caller): StaffArea[] {
  return STAFF_AREAS.filter((a) => areaRoles(a).some((role) => accessVerdict(role, caller) === 'allowed'));
}

/** What a staff page does for a session: render, send to the login, or refuse (403) with the way on, if any. */
export type StaffGate = 'allowed' | 'login' | 'forbidden' | 'code' | 'setup';

/** A session as the staff pages read it (`SessionInfo` has these). */
export interface StaffSession {
  user: unknown;
  ibo: unknown;
  roles?: readonly StaffRole[];
  staff?: { roles: readonly StaffRole[]; secondFactor: 'proved' | 'code' | 'setup' } | null;
}

/**
 * The gate of a page declared `access`: allowed, the login for no logged-in user, else a 403 that
 * says to prove the second factor (or set it up) when the account's stored roles would allow it.
 */
export function staffGate(session: StaffSession | null | undefined, access: StaffRole): StaffGate {
  const verdict = accessVerdict(access, callerOf(session));
  if (verdict === 'allowed') return 'allowed';
  if (verdict === 'unauthorized') return 'login';
  const held = session?.staff;
  if (held && held.secondFactor !== 'proved' && STAFF_GRANTS[access].some((r) => held.roles.includes(r))) return held.secondFactor;
  return 'forbidden';
}

/** The lowest access any staff page asks for: holding any role. */
export function anyRoleGate(session: StaffSession | null | undefined): StaffGate {
  const gates = STAFF_ROLES.map((r) => staffGate(session, r));
  return gates.find((g) => g === 'allowed') ?? gates.find((g) => g === 'code' || g === 'setup') ?? gates[0]!;
}

/** Whether `roles` make an account staff (any role at all). */
export const isStaff = (roles: readonly StaffRole[] | undefined): boolean => (roles?.length ?? 0) > 0;

/* ───────────── the second factor ───────────── */

/** A new random TOTP secret (160 bits, base32). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totp(secret: string, label = ''): TOTP {
  return new TOTP({ issuer: TOTP_ISSUER, label, algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD, secret: Secret.fromBase32(secret) });
}

/** The `otpauth://` URI an authenticator app reads (as a QR code or typed). */
export function otpauthUri(secret: string, accountLabel: string): string {
  return totp(secret, accountLabel).toString();
}

/** The code of `secret` at `at` (for tests and the demo). */
export function totpCode(secret: string, at = new Date()): string {
  return totp(secret).generate({ timestamp: at.getTime() });
}

/**
 * The 30-second step a right `token` belongs to (within `TOTP_WINDOW` steps of `at`), or null for a
 * wrong one. The caller refuses a step not newer than the last one accepted: a code works once.
 */
export function acceptedStep(secret: string, token: string, at = new Date()): number | null {
  const delta = totp(secret).validate({ token, timestamp: at.getTime(), window: TOTP_WINDOW });
  if (delta === null) return null;
  return Math.floor(at.getTime() / 1000 / TOTP_PERIOD) + delta;
}

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten new recovery codes, `xxxx-xxxx-xxxx-xxxx` (about 78 bits each). */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    const bytes = randomBytes(16);
    const chars = [...bytes].map((b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]).join('');
    return chars.match(/.{4}/g)!.join('-');
  });
}

/** The stored form of a recovery code (dashes, spaces and case do not matter). */
export function hashRecoveryCode(code: string): string {
  return createHash('sha256').update(code.toLowerCase().replace(/[^a-z0-9]/g, '')).digest('hex');
}

/** What a person typed in the code field: six digits (TOTP), or a recovery code. */
export type TypedCode = { kind: 'totp'; token: string } | { kind: 'recovery'; code: string };

/** Reads the code field, or null when it is neither six digits nor the shape of a recovery code. */
export function readTypedCode(raw: string): TypedCode | null {
  const compact = raw.replace(/[\s-]/g, '').toLowerCase();
  if (/^\d{6}$/.test(compact)) return { kind: 'totp', token: compact };
  if (/^[a-z0-9]{16}$/.test(compact)) return { kind: 'recovery', code: compact };
  return null;
}

/* ───────────── the forms ───────────── */

const lang = z.enum(LOCALES).catch(DEFAULT_LOCALE);
const next = z.string().max(2048).optional().catch(undefined);
const code = z.string({ error: 'required' }).trim().min(1, 'required').max(40, 'tooLong');
const userId = z.coerce.number({ error: 'invalidOption' }).int('invalidOption').positive('invalidOption').max(2_147_483_647, 'invalidOption');
/** A staff role by name; anything else is not one of the list's options. */
export const roleField = z.enum(STAFF_ROLES, { error: 'invalidOption' });

/** The code asked after the password (a TOTP code or a recovery code). */
export const codeFormSchema = z.object({ code, lang, next });
/** The first code, confirming the secret shown at set-up. */
export const setupFormSchema = z.object({ code, lang });
/** Grant a role to an existing account, by its e-mail address. */
export const grantRoleSchema = z.object({ email: z.string({ error: 'required' }).trim().toLowerCase().min(1, 'required').max(254, 'tooLong').pipe(z.email('invalidEmail')), role: roleField, lang });
/** Remove a role from an account. */
export const revokeRoleSchema = z.object({ userId, role: roleField, lang });
/** Reset an account's second factor. */
export const resetFactorSchema = z.object({ userId, lang });

/* ───────────── the rules of staff changes ───────────── */

/** Why removing a role is refused: it is the last administrator's. */
export function removalRefused(role: StaffRole, holdsRole: boolean, administrators: number): 'notHeld' | 'lastAdministrator' | null {
  if (!holdsRole) return 'notHeld';
  if (role === 'administrator' && administrators <= 1) return 'lastAdministrator';
  return null;
}

/** The roles in the order the policy lists them, without repeats. */
export function orderedRoles(roles: Iterable<string>): StaffRole[] {
  const set = new Set(roles);
  return STAFF_ROLES.filter((r) => set.has(r));
}

/* ───────────── the audit log's filters ───────────── */

/** Events on one page of the audit log. */
export const AUDIT_PAGE_SIZE = 25;

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)))
  .optional()
  .catch(undefined);

/** The audit log's filters from the page's query (anything malformed is ignored, never a 500). */
export const auditFilterSchema = z.object({
  actor: z.string().trim().max(60).regex(/^[a-z]+(:\d+)?$/).optional().catch(undefined),
  action: z.string().trim().max(60).regex(/^[a-z.]+$/).optional().catch(undefined),
  from: day,
  to: day,
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});
export type AuditFilter = z.output<typeof auditFilterSchema>;

/** The filter read from a URL's query. */
export function readAuditFilter(params: URLSearchParams): AuditFilter {
  const raw = Object.fromEntries([...params.entries()].filter(([, v]) => v !== ''));
  return auditFilterSchema.parse(raw);
}

/** The instants a filter's days cover: `from` at 00:00 UTC, up to the end of `to`. */
export function auditRange(filter: AuditFilter): { since: Date | null; until: Date | null } {
  return {
    since: filter.from ? new Date(`${filter.from}T00:00:00Z`) : null,
    until: filter.to ? new Date(Date.parse(`${filter.to}T00:00:00Z`) + 24 * 60 * 60 * 1000) : null,
  };
}

/** The query string of a filter on page `page` (empty fields left out). */
export function auditQuery(filter: AuditFilter, page: number): string {
  const q = new URLSearchParams();
  for (const k of ['actor', 'action', 'from', 'to'] as const) if (filter[k]) q.set(k, filter[k]);
  if (page > 1) q.set('page', String(page));
  const s = q.toString();
  return s ? `?${s}` : '';
}
