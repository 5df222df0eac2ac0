/**
 * What every back-office page starts from: its gate for the access it asks (a staff role, or `any` role
 * for the dashboard), answered 403 when refused (the page then draws why: no role, or the second factor
 * to prove), and the way to the login page, which brings the person back here (the middleware sends a
 * visitor there first; the page checks again before it reads anything).
 */
import type { AstroGlobal } from 'astro';
import { toLocale } from '~/i18n';
import type { StaffRole } from '~/lib/access/policy';
import { loginUrl } from '~/lib/identity';
import { anyRoleGate, staffGate, type StaffGate } from '~/lib/staff';

export interface StaffPage {
  gate: StaffGate;
  /** The answer for a request without a logged-in person: the login page, coming back here. */
  toLogin: () => Response;
}

export function staffPage(Astro: AstroGlobal, access: StaffRole | 'any'): StaffPage {
  const session = Astro.locals.session;
  const gate = access === 'any' ? anyRoleGate(session) : staffGate(session, access);
  if (gate !== 'allowed' && gate !== 'login') Astro.response.status = 403;
  const locale = toLocale(Astro.currentLocale);
  return { gate, toLogin: () => Astro.redirect(loginUrl(locale, Astro.url.pathname + Astro.url.search)) };
}
