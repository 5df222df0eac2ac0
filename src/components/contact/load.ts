/**
 * Everything a contact page shows, gathered in one call from its frontmatter: the language, the
 * message types from the database, and — after a form posted without JavaScript — the action's
 * result with the posted values and the HTTP status it deserves (400 bad input, 502 mail failure).
 */
import type { AstroGlobal } from 'astro';
import { actions } from 'astro:actions';
import { messages, toLocale, type Locale } from '~/i18n';
import {
  COUNTRIES,
  contactStateFromResult,
  contactValuesFrom,
  emptyContactValues,
  listContactTypes,
  type ContactFormState,
  type ContactTypeOption,
} from '~/lib/contact';
import { contactLayoutKey, contactLayouts, type ContactLayout, type ContactLayoutKey } from './layouts';

/** The props of `ContactPage.astro`. */
export interface ContactPageData {
  locale: Locale;
  layout: ContactLayout;
  types: ContactTypeOption[];
  countries: { code: string; name: string; dial: string }[];
  state: ContactFormState;
}

/** Loads a contact page in a layout; sets the response status when a posted form failed. */
export async function loadContactPage(Astro: AstroGlobal, key: ContactLayoutKey): Promise<ContactPageData> {
  const locale = toLocale(Astro.currentLocale);
  const t = messages(locale).contact;
  const { db } = Astro.locals.runtime;
  const types = await listContactTypes(db, locale);
  const countries = COUNTRIES.map((c) => ({ code: c.code, name: t.countries[c.code], dial: c.dial })).sort((a, b) =>
    a.name.localeCompare(b.name, locale),
  );

  const result = Astro.getActionResult(actions.contact.send);
  let submitted = emptyContactValues();
  if (result?.error && Astro.request.method === 'POST') {
    // Read a copy: the action read its own, and @astrojs/react reads the body again while rendering.
    submitted = contactValuesFrom(await Astro.request.clone().formData().catch(() => null));
  }
  const state = contactStateFromResult(result, submitted);
  if (result?.error) Astro.response.status = result.error.status;

  return { locale, layout: contactLayouts[contactLayoutKey.parse(key)], types, countries, state };
}
