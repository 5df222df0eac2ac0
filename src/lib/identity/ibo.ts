/**
 * IBO codes and prospects: the pure rules. An IBO code identifies an independent business owner;
 * entering one (welcome modal, /guest, or an affiliate link /:code) starts an IBO session, in which
 * courses are opened for a prospect whose name and e-mail the IBO gives.
 */
import { formText, nameText } from '../forms/forms';
import { z } from '../zod';

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

/** Most characters kept of a name or e-mail (names 32, e-mail 60). */
export const PROSPECT_LIMITS = { name: 32, email: 60 } as const;

/** The prospect form: name and last name required, e-mail valid, no control characters. Codes, not sentences. */
export const prospectSchema = z.object({
  firstName: nameText().trim().min(1, 'required').max(PROSPECT_LIMITS.name, 'tooLong'),
  lastName: nameText().trim().min(1, 'required').max(PROSPECT_LIMITS.name, 'tooLong'),
  email: formText().trim().toLowerCase().min(1, 'required').max(PROSPECT_LIMITS.email, 'tooLong').pipe(z.email('email')),
});
export type ProspectInput = z.infer<typeof prospectSchema>;

/** The e-mail alone, for the existing-customer look-up. */
export const prospectEmailSchema = prospectSchema.shape.email;

/**
 * Confirm is disabled unless name, last name and e-mail are filled, or an existing customer was
 * found by e-mail.
 */
export function canConfirmProspect(form: { firstName: string; lastName: string; email: string }, customerFound: boolean): boolean {
  if (customerFound) return true;
  return form.firstName.trim() !== '' && form.lastName.trim() !== '' && form.email.trim() !== '';
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
