/**
 * Who may call what: the access levels an action (or a page) declares, and the one rule that says
 * whether a caller has it. Pure, and free of imports, so that actions, pages and the authorization
 * matrix's tests all read the same rule.
 *
 * - `public`: anyone, a visitor included.
 * - `ibo`: a session opened with an IBO code (guest or prospect).
 * - `learner`: a logged-in user.
 * - `iboOwner`: a logged-in user whose account owns an IBO (its business page; a session opened with
 *   the IBO's code is not the IBO's account and gets 401).
 * - the staff roles (`administrator`, `editor`, `support`, `finance`): a logged-in user holding that
 *   role; an administrator holds every staff role.
 *
 * The answer to a caller without the access: `unauthorized` (401) when they lack the kind of session the
 * access needs, which they can fix by signing in that way (logging in, entering an IBO code);
 * `forbidden` (403) when they are logged in the needed way but their account lacks the role.
 */

/** The staff roles of the back office. */
export const STAFF_ROLES = ['administrator', 'editor', 'support', 'finance'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** Every access level an action or a page may declare. */
export const ACCESS_LEVELS = ['public', 'ibo', 'learner', 'iboOwner', ...STAFF_ROLES] as const;
export type Access = (typeof ACCESS_LEVELS)[number];

/** The caller as the access rule sees them. */
export interface Caller {
  /** `visitor`: no session; `ibo`: a session opened with an IBO code; `user`: a logged-in user. */
  session: 'visitor' | 'ibo' | 'user';
  /** The staff roles the user's account holds (none for anyone else). */
  roles: readonly StaffRole[];
  /** The user's account owns an IBO (whatever its status: a suspended IBO's owner is told so on the page). */
  ownsIbo?: boolean;
}

/** The verdict of the access rule. */
export type AccessVerdict = 'allowed' | 'unauthorized' | 'forbidden';

/** The staff roles that grant each staff access: the role itself, and administrator. */
export const STAFF_GRANTS: Readonly<Record<StaffRole, readonly StaffRole[]>> = {
  administrator: ['administrator'],
  editor: ['editor', 'administrator'],
  support: ['support', 'administrator'],
  finance: ['finance', 'administrator'],
};

/** Whether `access` is one of the staff roles. */
export function isStaffRole(access: Access): access is StaffRole {
  return (STAFF_ROLES as readonly string[]).includes(access);
}

/** Whether `caller` may use something declared `access`, and if not, which refusal. */
export function accessVerdict(access: Access, caller: Caller): AccessVerdict {
  if (access === 'public') return 'allowed';
  if (access === 'ibo') return caller.session === 'ibo' ? 'allowed' : 'unauthorized';
  if (caller.session !== 'user') return 'unauthorized';
  if (access === 'learner') return 'allowed';
  if (access === 'iboOwner') return caller.ownsIbo === true ? 'allowed' : 'forbidden';
  return STAFF_GRANTS[access].some((role) => caller.roles.includes(role)) ? 'allowed' : 'forbidden';
}

/** The HTTP status of a refusal. */
export function accessRefusalStatus(verdict: Exclude<AccessVerdict, 'allowed'>): 401 | 403 {
  return verdict === 'unauthorized' ? 401 : 403;
}

/** A caller from the facts of a session (a user, an IBO, roles, the IBO the user owns); no session is a visitor. */
export function callerOf(session: { user: unknown; ibo: unknown; roles?: readonly StaffRole[]; ownIbo?: unknown } | null | undefined): Caller {
  if (session?.user) return { session: 'user', roles: session.roles ?? [], ...(session.ownIbo ? { ownsIbo: true } : {}) };
  if (session?.ibo) return { session: 'ibo', roles: [] };
  return { session: 'visitor', roles: [] };
}
