/**
 * The prospect form (an IBO opens courses for a person it names): the pure rules, shared by the form in
 * the browser and the action. Kept apart from the IBO code's rules (`ibo.ts`), whose form is in the
 * home page's welcome modal and on /guest and must not bring the schema library along.
 */
import { formText, nameText } from '../forms/forms';
import { z } from '../zod';

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
