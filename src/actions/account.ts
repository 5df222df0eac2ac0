/**
 * The logged-in person's own account: changing their profile (name, gender, birth date). A thin call
 * into `src/lib/identity`; the profile form posts here with or without JavaScript. Access, limits and
 * language are declared in `access.ts`.
 */
import { action, type Refusals } from './kit';
import { profileSchema, updateProfile } from '~/lib/identity';

/** The 429: "too many attempts, wait N minutes". */
const refusals: Refusals = { tooMany: (t) => t.identity.login.tooManyAttempts };

export const account = {
  /**
   * Stores the caller's profile on their own account (the session names it, never the form): 400 with
   * field codes for bad input (nothing stored), 401 without a learner's session, `{ updated: true }`
   * otherwise. Their sessions are told, so the header shows the new name on the next page.
   */
  updateProfile: action('account.updateProfile', {
    accept: 'form',
    input: profileSchema,
    refusals,
    handler: async (form, { runtime, person, unauthorized }) => {
      const outcome = await updateProfile(runtime.db, person.userId, form);
      if (outcome.status !== 'ok') throw unauthorized();
      return { updated: true as const, changed: outcome.changed };
    },
  }),
};
