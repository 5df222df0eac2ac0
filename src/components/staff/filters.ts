/**
 * The back office's list filters as data: each list page says which fields its GET form has, and
 * `ListFilters.astro` draws them all the same way (a labelled input or a select with its "any" choice,
 * then apply and clear). A filtered page is a link.
 */
export type FilterField =
  | { kind: 'search' | 'text' | 'date'; name: string; label: string; value: string | null | undefined; maxlength?: number }
  | { kind: 'select'; name: string; label: string; any: string; value: string | number | null | undefined; options: readonly { value: string | number; label: string }[] };

export interface FilterFormText {
  /** The form's accessible name. */
  label: string;
  apply: string;
  clear: string;
}
