/**
 * An input error raised by a handler, for a rule its schema cannot check alone (one that needs the
 * runtime's database): answered exactly as Astro answers a schema's failure (`isInputError`, `fields`
 * with the error codes per field), so forms and islands show it like any other field error.
 */
import { ActionError } from 'astro:actions';

interface Issue {
  path: PropertyKey[];
  message: string;
}

export function inputError(issues: readonly Issue[]): ActionError {
  const fields: Record<string, string[]> = {};
  for (const issue of issues) {
    const key = issue.path[0];
    if (key !== undefined) (fields[String(key)] ??= []).push(issue.message);
  }
  const error = new ActionError({ code: 'BAD_REQUEST', message: 'invalid input' });
  // Astro serialises an error's own properties: these make the browser rebuild it as an input error.
  return Object.assign(error, { type: 'AstroActionInputError', issues: issues.map((i) => ({ ...i, path: i.path.map(String) })), fields });
}
