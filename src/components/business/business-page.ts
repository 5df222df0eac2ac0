/**
 * What every page of the business area starts from: its gate, read with the IBO the account owns now
 * (a suspension counts at once), the login page for a visitor (which brings them back), the refusal's
 * status, and never a cache: everything here is one IBO's own.
 */
import type { AstroGlobal } from 'astro';
import { toLocale } from '~/i18n';
import { loadBusinessGate, type BusinessGate } from '~/lib/business';
import { loginUrl } from '~/lib/identity/account';

export interface BusinessPage {
  gate: BusinessGate;
  /** The answer for a request without a logged-in person: the login page, coming back here. */
  toLogin: () => Response;
}

export async function businessPage(Astro: AstroGlobal): Promise<BusinessPage> {
  const gate = await loadBusinessGate(Astro.locals.runtime.db, Astro.locals.session);
  if (gate.kind === 'refused') Astro.response.status = gate.status;
  Astro.response.headers.set('Cache-Control', 'private, no-store');
  const locale = toLocale(Astro.currentLocale);
  return { gate, toLogin: () => Astro.redirect(loginUrl(locale, Astro.url.pathname + Astro.url.search)) };
}
