/**
 * IBO codes and prospects: the pure rules. An IBO code identifies an independent business owner;
 * entering one (welcome modal, /guest, or an affiliate link /:code) starts an IBO session, in which
 * courses are opened for a prospect whose name and e-mail the IBO gives (the prospect form's rules are in
 * `prospect.ts`: the code's form, in the home page's welcome modal and on /guest, does not bring the schema library along).
 */

/** The shape of an IBO code: letters, digits, dash and underscore, 3 to 32 characters. */
export const IBO_CODE_PATTERN = /^[A-Za-z0-9_-]{3,32}$/;

/** Normalises a typed code (trim, upper case); `null` when it cannot be a code at all. */
export function normalizeIboCode(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const code = raw.trim().toUpperCase();
  return IBO_CODE_PATTERN.test(code) ? code : null;
}

/**
 * Whether a one-segment address (`/:iboCodeParam`) is an affiliate code rather than a mistyped page:
 * letters and digits with at least one digit (every IBO code has one), so `/no-existe` is a 404.
 */
export function looksLikeAffiliateCode(segment: string): boolean {
  return /^[A-Za-z0-9]{3,32}$/.test(segment) && /\d/.test(segment);
}

/** What is wrong with a typed code, as a message key: `required` (shown as 'This field is requerido') or `invalid`. */
export function iboCodeProblem(raw: unknown): 'required' | 'invalid' | null {
  if (typeof raw !== 'string' || raw.trim() === '') return 'required';
  return normalizeIboCode(raw) === null ? 'invalid' : null;
}

/** A contact's own account, as the prospect rule sees it: none, a prospect's (user type 9), or a registered customer's. */
export type ContactAccount = { prospect: boolean; mainUserId: number | null } | null;

/**
 * Whether an IBO may use a person as its prospect (product rule): a prospect is a contact of the IBO
 * that brought them, and not a registered customer. So the person's contact, if any, must have been
 * registered by this IBO, and their account, if any, must be a prospect account this IBO created.
 * Anyone else (a learner, an administrator, another IBO's prospect) is never the IBO's to open
 * courses for, nor to read or write the progress of.
 */
export function isOwnProspect(ibo: { id: number; userId: number }, contact: { iboId: number | null } | null, account: ContactAccount): boolean {
  if (contact && contact.iboId !== ibo.id) return false;
  if (account && (!account.prospect || account.mainUserId !== ibo.userId)) return false;
  return contact !== null || account !== null;
}

/** The referral of a browser after visiting an affiliate link: the first IBO stays, the last one moves. */
export function nextReferral(current: { firstIboId: number; lastIboId: number } | null, iboId: number): { firstIboId: number; lastIboId: number } {
  return { firstIboId: current?.firstIboId ?? iboId, lastIboId: iboId };
}
