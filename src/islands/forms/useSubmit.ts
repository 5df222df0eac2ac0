/**
 * Sending a checked form through its action, the same way in every form: every field checked first,
 * one send at a time (the form is busy meanwhile), the server's field errors shown on their fields
 * with the focus on the first, a refusal's sentence (or the words for an unreachable server) in the
 * form's status line with the focus on it, and what the form does once the action succeeded.
 */
import { useState, type SubmitEvent } from 'react';

/** A refusal as an action answers it (only what forms read). */
export interface Refusal {
  code: string;
  status: number;
  message: string;
  /** `AstroActionInputError` for an answer about the input, with its `fields`. */
  type?: string;
  fields?: Record<string, string[] | undefined>;
}

/** An action's answer: its data, or a refusal. */
export type ActionAnswer<D> = { data: D; error?: undefined } | { data?: undefined; error: Refusal };

/** What any action answers (`A['data']` is its data when there is no error). */
type AnyAnswer = { data?: unknown; error?: Refusal | undefined };

/** The form's status line: a sentence, good news or a refusal. */
export interface FormStatusLine {
  text: string;
  ok: boolean;
}

/** What `useSubmit` needs of `useCheckedForm`. */
export interface SubmittedForm<F extends string, C extends string> {
  checkAll: () => boolean;
  showErrors: (found: Partial<Record<F, C>>) => boolean;
  focusOn: (target: string) => void;
}

/** Options of `useSubmit`. */
export interface SubmitOptions<F extends string, C extends string, A extends AnyAnswer> {
  form: SubmittedForm<F, C>;
  /** Calls the action with what the form holds. */
  send: (data: FormData) => Promise<A>;
  /** The error code of each field, from an input refusal's `{ field: [message, …] }` map. */
  fieldErrors: (fields: Record<string, string[]>) => Partial<Record<F, C>>;
  /** The field errors a conflict (409: the e-mail address is taken) stands for. */
  conflict?: Partial<Record<F, C>>;
  /** The id of the status line (it gets the focus when it says something). */
  statusId: string;
  /** The sentence when the server cannot be reached (or answers a refusal without one). */
  connection: string;
  /** What the form does with the action's data: go on (nothing to answer), or a sentence to show. */
  done: (data: NonNullable<A['data']>) => FormStatusLine | void;
  /** What else a refusal with a sentence calls for (a new payment key), before the form is free again. */
  refused?: (refusal: Refusal) => Promise<void> | void;
  /** What the server said after a post without JavaScript. */
  initial?: FormStatusLine | null;
}

/** The field map of an input refusal, or undefined for any other refusal. */
function inputFields(error: Refusal): Record<string, string[]> | undefined {
  return error.type === 'AstroActionInputError' && error.fields ? (error.fields as Record<string, string[]>) : undefined;
}

/** Busy state, status line and the submit handler of a form sent through its action. */
export function useSubmit<F extends string, C extends string, A extends AnyAnswer>(opts: SubmitOptions<F, C, A>) {
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<FormStatusLine | null>(opts.initial ?? null);

  const say = (line: FormStatusLine) => {
    setStatus(line);
    opts.form.focusOn(opts.statusId);
  };

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setStatus(null);
    if (!opts.form.checkAll()) return;
    setBusy(true);
    try {
      const { data, error } = await opts.send(new FormData(event.currentTarget));
      if (!error) {
        const line = opts.done(data as NonNullable<A['data']>);
        if (line) say(line);
        return;
      }
      if (opts.conflict && error.code === 'CONFLICT' && opts.form.showErrors(opts.conflict)) return;
      const fields = inputFields(error);
      if (fields && opts.form.showErrors(opts.fieldErrors(fields))) return;
      // Announced at once: moved there only after `refused` (a new payment key fetched, say), the focus
      // left the field the person had already gone back to, and what they typed next went nowhere.
      say({ text: error.message || opts.connection, ok: false });
      await opts.refused?.(error);
    } catch {
      say({ text: opts.connection, ok: false });
    } finally {
      setBusy(false);
    }
  }

  return { busy, status, submit };
}
