/**
 * Counts shown with a noun ("1 curso", "2 cursos"): a message is a `{ one, other }` pair and the
 * language's plural rules (`Intl.PluralRules`) choose the form. Spanish and English both have `one` (1)
 * and `other`; a category the pair has no form for (Spanish `many`, for round millions) reads as
 * `other`. Pure, and cheap enough for browser code (it imports no catalogue).
 */
import { format } from './format';
import type { Locale } from './locales';

/** A message that names a count: `{count}` in either form is replaced with the number. */
export interface Plural {
  readonly one: string;
  readonly other: string;
}

const rules = new Map<Locale, Intl.PluralRules>();

/** The form of `forms` for `count` in `locale`, with `{count}` (and any other `values`) filled in. */
export function plural(locale: Locale, forms: Plural, count: number, values: Record<string, string | number> = {}): string {
  let rule = rules.get(locale);
  if (!rule) rules.set(locale, (rule = new Intl.PluralRules(locale)));
  return format(rule.select(count) === 'one' ? forms.one : forms.other, { ...values, count });
}
