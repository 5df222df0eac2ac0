/**
 * The outcome of a staff form posted without JavaScript, for its page to draw: the server's sentence
 * (or the first field error in words) and whether it failed. Sets the status the failure deserves, so
 * bad input is never answered 200 or 500.
 */
import type { AstroGlobal } from 'astro';
import { isInputError } from 'astro:actions';
import { format, type Locale, messages } from '~/i18n';

/** What the page shows: a sentence, failed or not. */
export interface Outcome {
  message: string;
  failed: boolean;
}

type Result = { data?: { message?: string } | unknown; error?: { status: number; code: string; message: string } | undefined } | undefined;

/** Reads one or more actions' results (the first that ran) into a sentence; `max`: the longest value the forms' text fields take. */
export function readOutcome(Astro: AstroGlobal, locale: Locale, results: readonly Result[], labels: Record<string, string> = {}, max = 254): Outcome | null {
  const result = results.find((r) => r !== undefined);
  if (!result) return null;
  const { error } = result;
  if (!error) {
    const message = (result.data as { message?: string } | undefined)?.message;
    return message ? { message, failed: false } : null;
  }
  Astro.response.status = error.status;
  if (isInputError(error)) {
    const errors = messages(locale).forms.errors as Record<string, string>;
    const [field, codes] = Object.entries(error.fields as Record<string, string[]>)[0] ?? ['', []];
    const code = codes[0] ?? 'invalidOption';
    return { message: format(errors[code] ?? errors.invalidOption!, { field: labels[field] ?? field, max, min: 1 }), failed: true };
  }
  return { message: error.message, failed: true };
}
