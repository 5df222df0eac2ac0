/**
 * What the forms' islands share (contact, account, checkout): field state checked with the form's own
 * schema (each field on leaving it, every field on submit, then live once touched), what was typed
 * before hydration kept, focus on the first field in error, and the labelled field block with its
 * ARIA links to hint and error.
 */
import { useEffect, useRef, useState, type ChangeEvent, type FocusEvent, type ReactNode } from 'react';
import { firstInvalid } from '~/lib/forms/forms';

/** Options of `useCheckedForm`. */
export interface CheckedFormOptions<F extends string, C extends string> {
  /** The form's fields in page order (the first one in error gets the focus). */
  order: readonly F[];
  /** The starting value of every input, by input name. */
  initialValues: Record<string, string>;
  /** Errors the server rendered (after a post without JavaScript). */
  initialErrors?: Partial<Record<F, C>> | undefined;
  /** Checks all values; answers the first error of each field. */
  check: (values: Record<string, string>) => Partial<Record<F, C>>;
  /** The field an input belongs to (the birth-date selects share one). */
  fieldOf?: (input: string) => F;
  /** The id of the element to focus for a field. */
  idOf: (field: F) => string;
  /** Called on every change a person makes (a form may clear an earlier outcome then). */
  onChange?: () => void;
}

/**
 * What a person typed or chose in a form's text controls and selects before its island hydrated: the
 * values (by input name) that differ from the ones the page started with. It is in the page but not in
 * the island's state, so the first render would set each control back under their eyes unless the
 * island takes it. Checkboxes and radios are left out.
 */
export function typedBeforeHydration(controls: Iterable<readonly [string, unknown]>, start: object): Record<string, string> {
  const starting = start as Readonly<Record<string, unknown>>;
  const typed: Record<string, string> = {};
  for (const [name, element] of controls) {
    if (!(element instanceof HTMLInputElement || element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement)) continue;
    if (element instanceof HTMLInputElement && (element.type === 'checkbox' || element.type === 'radio')) continue;
    if (element.value !== String(starting[name] ?? '')) typed[name] = element.value;
  }
  return typed;
}

/** Field state, error state and focus handling for a form checked with its schema. */
export function useCheckedForm<F extends string, C extends string>(opts: CheckedFormOptions<F, C>) {
  const fieldOf = opts.fieldOf ?? ((input: string) => input as F);
  const [values, setValues] = useState<Record<string, string>>(opts.initialValues);
  const [errors, setErrors] = useState<Partial<Record<F, C>>>(opts.initialErrors ?? {});
  const touched = useRef(new Set<F>(Object.keys(opts.initialErrors ?? {}) as F[]));
  const [focus, setFocus] = useState<{ target: string; n: number } | null>(null);
  const [enhanced, setEnhanced] = useState(false);
  /** The form's text controls and selects, by input name (see `control`). */
  const controls = useRef(new Map<string, HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>());

  useEffect(() => {
    // Runs once, after hydration: `opts` here is the first render's.
    const typed = typedBeforeHydration(controls.current, opts.initialValues);
    if (Object.keys(typed).length > 0) setValues((v) => ({ ...v, ...typed }));
    setEnhanced(true);
  }, []);
  useEffect(() => {
    if (focus) document.getElementById(focus.target)?.focus();
  }, [focus]);

  /** Moves the focus to an element (again, even if it was the last target). */
  const focusOn = (target: string) => setFocus((f) => ({ target, n: (f?.n ?? 0) + 1 }));

  const recheck = (field: F, next: Record<string, string>) => setErrors((e) => ({ ...e, [field]: opts.check(next)[field] }));

  /**
   * A change to `field` (with any values it moves along, such as a country's dialling code): checked
   * again at once when the field was left before, or when `checkNow` (a checkbox has no "leaving").
   */
  const update = (field: F, changes: Record<string, string>, checkNow = false) => {
    const next = { ...values, ...changes };
    setValues(next);
    opts.onChange?.();
    if (checkNow || touched.current.has(field)) recheck(field, next);
  };

  /** Starts again from `start` (after a successful send): no errors, nothing touched. */
  const reset = (start: Record<string, string>) => {
    setValues(start);
    setErrors({});
    touched.current.clear();
  };

  /** Props for an input, select or textarea named `name`. */
  const control = (name: string) => ({
    name,
    value: values[name] ?? '',
    ref: (element: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement | null) => {
      if (element) controls.current.set(name, element);
      else controls.current.delete(name);
    },
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) => update(fieldOf(name), { [name]: event.currentTarget.value }),
    onBlur: (event: FocusEvent<HTMLElement>) => {
      const field = fieldOf(name);
      touched.current.add(field);
      // Leaving for a submit button: the submit checks everything. A message shown now would move
      // the button from under the pointer before the click completes.
      const to = event.relatedTarget;
      if (to instanceof HTMLButtonElement && to.type === 'submit') return;
      // Leaving one birth-date select for the next one is not leaving the field.
      if (to instanceof HTMLElement && to.dataset.field === field && to !== event.currentTarget) return;
      recheck(field, values);
    },
  });

  /** Checks everything before sending; false (with errors shown and the focus moved) when something is wrong. */
  const checkAll = (): boolean => {
    for (const f of opts.order) touched.current.add(f);
    const found = opts.check(values);
    setErrors(found);
    const first = firstInvalid(opts.order, found);
    if (first !== undefined) focusOn(opts.idOf(first));
    return first === undefined;
  };

  /** Shows errors the server answered, focusing the first. */
  const showErrors = (found: Partial<Record<F, C>>): boolean => {
    setErrors(found);
    const first = firstInvalid(opts.order, found);
    if (first !== undefined) focusOn(opts.idOf(first));
    return first !== undefined;
  };

  return { values, setValues, update, reset, errors, control, checkAll, showErrors, focusOn, enhanced };
}

/** Ids of a field's control, hint and error, from one prefix. */
export const fieldIds = (prefix: string, field: string) => ({ control: `${prefix}-${field}`, hint: `${prefix}-${field}-hint`, error: `${prefix}-${field}-error` });

/** ARIA attributes of a control with an optional hint and error. */
export function described(ids: { hint: string; error: string }, hasHint: boolean, error: string | undefined) {
  return {
    'aria-invalid': error ? (true as const) : undefined,
    'aria-describedby': [hasHint ? ids.hint : undefined, error ? ids.error : undefined].filter(Boolean).join(' ') || undefined,
  };
}

/** A labelled field: the label, the control, an optional hint, and the error sentence when there is one. */
export function Field(props: { ids: { control: string; hint: string; error: string }; label: string; hint?: string | undefined; error?: string | undefined; children: ReactNode; className?: string }) {
  return (
    <div className={`field ${props.className ?? ''}`.trim()}>
      <label htmlFor={props.ids.control}>{props.label}</label>
      {props.children}
      {props.hint && (
        <p className="field-hint" id={props.ids.hint}>
          {props.hint}
        </p>
      )}
      {props.error && (
        <p className="field-error" id={props.ids.error}>
          {props.error}
        </p>
      )}
    </div>
  );
}

/**
 * A form's status line: the refusal or good news of its last send, announced as it appears (`alert`;
 * `status` for good news when `politeOk`), and focusable so a send can move the focus to it.
 */
export function FormStatus(props: { id: string; status: { text: string; ok: boolean } | null; politeOk?: boolean }) {
  const { status } = props;
  return (
    <div id={props.id} className="form-status" role={props.politeOk && status?.ok ? 'status' : 'alert'} tabIndex={-1}>
      {status && <p className={status.ok ? 'form-status-ok' : 'form-status-error'}>{status.text}</p>}
    </div>
  );
}

/**
 * The modal titled 'Information' that shows a server's answer. Open while `message`
 * is set; closing it calls `onClose`.
 */
export function InfoDialog(props: { id: string; title: string; close: string; message: string | null; onClose: () => void; link?: { href: string; text: string } | null }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.message && !dialog.open) dialog.showModal();
    if (!props.message && dialog.open) dialog.close();
  }, [props.message]);
  return (
    <dialog ref={ref} className="notice-dialog info-dialog" aria-labelledby={`${props.id}-title`} aria-describedby={`${props.id}-text`} onClose={props.onClose}>
      <h2 id={`${props.id}-title`}>{props.title}</h2>
      <p id={`${props.id}-text`}>{props.message}</p>
      {props.link && (
        <p>
          <a href={props.link.href}>{props.link.text}</a>
        </p>
      )}
      <form method="dialog">
        <button className="button button-small" type="submit" autoFocus>
          {props.close}
        </button>
      </form>
    </dialog>
  );
}
