/**
 * The outcome of an account form posted without JavaScript, for its page to draw: the error of each
 * field, or the server's sentence, and what was typed (never a password). Sets the response status
 * the failure deserves (400, 409, 429 …), so bad input is never answered 200 or 500.
 */
import type { AstroGlobal } from 'astro';
import { isInputError } from 'astro:actions';
import { accountErrorsFromFields, type AccountErrors, type AccountField } from '~/lib/identity/account';

/** What a page shows after a failed post. */
export interface Posted<F extends AccountField> {
  errors: AccountErrors<F>;
  /** A failure that is no field's (wrong password, too many attempts, a spent link). */
  message: string | null;
  /** A typed value to show again (cut to a sane length). */
  text(name: string): string;
}

/** Longest typed value shown again: overlong input is still flagged, never echoed in full. */
const ECHO_LIMIT = 200;

/** Reads an action's failed result (if any) and the posted form. */
export async function readPosted<F extends AccountField>(
  Astro: AstroGlobal,
  result: { error?: { status: number; code: string; message: string } | undefined } | undefined,
): Promise<Posted<F>> {
  const error = result?.error;
  if (!error) return { errors: {}, message: null, text: () => '' };
  Astro.response.status = error.status;
  // Read a copy: the action read its own, and @astrojs/react reads the body again while rendering.
  const data = Astro.request.method === 'POST' ? await Astro.request.clone().formData().catch(() => null) : null;
  const text = (name: string) => {
    const v = data?.get(name);
    return typeof v === 'string' ? v.slice(0, ECHO_LIMIT) : '';
  };
  if (isInputError(error)) return { errors: accountErrorsFromFields<F>(error.fields as Record<string, string[]>), message: null, text };
  // An address already in use is the e-mail field's error.
  if (error.code === 'CONFLICT') return { errors: { email: 'emailTaken' } as AccountErrors<F>, message: null, text };
  return { errors: {}, message: error.message, text };
}
