/**
 * The learner's consent to be shown to an IBO ("my people"). Pure: the database side, with the same rule
 * as a SQL condition, is `consent.server.ts`.
 *
 * A person is related to IBO X when X registered them as a prospect (`contacts.ibo_id = X`) or they
 * signed up through X's link (`users.referred_by_ibo_id = X`). Their choice is `users.ibo_sharing`:
 * - null: never chosen; the default by relation applies: **on** for the IBO that registered them,
 *   **off** for an IBO whose link they only came through;
 * - true / false: their own choice (at sign-up, or on "My data", revocable at any time), for every IBO
 *   they are related to.
 *
 * The rule: a person is visible to X when they are related to X and
 * `coalesce(ibo_sharing, <the contact was registered by X>)`. A prospect with no account (no users row)
 * has no choice to make: always visible to the IBO that registered them, to nobody else.
 */

/** What the rule reads of one person: their contact and, when they have one, their account. */
export interface SharingFacts {
  /** `contacts.ibo_id`: the IBO whose session registered them as a prospect (null: none). */
  registeredByIboId: number | null;
  /** Their account, or null for a prospect without one. */
  account: {
    /** `users.referred_by_ibo_id`: the IBO whose link they signed up through (null: none). */
    referredByIboId: number | null;
    /** `users.ibo_sharing`: their choice (null: never chosen). */
    iboSharing: boolean | null;
  } | null;
}

/** True when the person is related to `iboId`: registered by it, or signed up through its link. */
export function relatedToIbo(facts: SharingFacts, iboId: number): boolean {
  return facts.registeredByIboId === iboId || facts.account?.referredByIboId === iboId;
}

/** What sharing with `iboId` is when the person never chose: on only when that IBO registered them. */
export function sharingByDefault(facts: Pick<SharingFacts, 'registeredByIboId'>, iboId: number): boolean {
  return facts.registeredByIboId === iboId;
}

/** Whether IBO `iboId` may see this person (their name, the e-mail the IBO typed, their progress). */
export function isVisibleToIbo(facts: SharingFacts, iboId: number): boolean {
  if (!relatedToIbo(facts, iboId)) return false;
  return facts.account?.iboSharing ?? sharingByDefault(facts, iboId);
}

/**
 * Whether the sign-up form's box starts ticked: when the IBO it names registered the person (an IBO
 * session that confirmed them as its prospect), else unticked.
 */
export function signUpBoxTicked(offer: { registeredByIbo: boolean }): boolean {
  return offer.registeredByIbo;
}

/**
 * What sign-up stores in `ibo_sharing`: the box's state when it was shown and an IBO is involved after
 * all (the referral or the claimed prospect); otherwise nothing (null), whatever a forged form says.
 */
export function sharingAtSignUp(form: { offered: boolean; ticked: boolean }, iboInvolved: boolean): boolean | null {
  return iboInvolved && form.offered ? form.ticked : null;
}

/** The switch's posted value (`share=true|false`) as a choice, or null when it is anything else. */
export function parseShare(value: unknown): boolean | null {
  if (value === true || value === 'true' || value === 'on') return true;
  if (value === false || value === 'false' || value === 'off') return false;
  return null;
}

/** A checkbox's posted value as ticked: `on` (what browsers send) or `true`. */
export function ticked(value: unknown): boolean {
  return value === 'on' || value === 'true' || value === true;
}
