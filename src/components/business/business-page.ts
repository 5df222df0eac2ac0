/**
 * What every page of the business area starts from: its gate, read with the IBO the account owns now
 * (a suspension counts at once), the login page for a visitor (which brings them back), the refusal's
 * status, and how it is kept. Everything here is one IBO's own: never in a shared cache, and kept only
 * for the owner who read it, with the counts of changes to the IBO's business read before anything
 * else (`businessStamp`); it is answered again while they read the same, until the UTC day ends (or
 * sooner, `keptUntil`), and every other answer (a refusal, a login) is not kept at all.
 */
import type { AstroGlobal } from 'astro';
import { messages, toLocale } from '~/i18n';
import { loadBusinessGate, type BusinessGate } from '~/lib/business';
import { readBusinessPeriod, type PeriodResult } from '~/lib/business/funnel';
import { loginUrl } from '~/lib/identity/account';
import { businessStamp } from '~/lib/business/changes.server';
import { utcDayEnd } from '~/lib/business/people';

export interface BusinessPage {
  gate: BusinessGate;
  /** The answer for a request without a logged-in person: the login page, coming back here. */
  toLogin: () => Response;
  /** The page's figures turn by the clock at `at` (a commission's hold ending): it is not kept past it. */
  keptUntil: (at: Date | null) => void;
}

export async function businessPage(Astro: AstroGlobal): Promise<BusinessPage> {
  const { db } = Astro.locals.runtime;
  const userId = Astro.locals.session?.user?.id;
  // Read first: whatever changes while the page is read makes these counts differ from the next ones.
  const clock = Astro.locals.runtime.businessClock?.();
  const stamp = userId === undefined ? null : await businessStamp(db, userId);
  const gate = await loadBusinessGate(db, Astro.locals.session);
  if (gate.kind === 'refused') Astro.response.status = gate.status;
  Astro.response.headers.set('Cache-Control', 'private, no-store');
  if (gate.kind === 'owner' && stamp !== null) {
    Astro.locals.ownPage = true;
    Astro.locals.businessPage = { ...stamp, until: utcDayEnd(new Date()).getTime(), clock };
  }
  const keptUntil = (at: Date | null) => {
    const kept = Astro.locals.businessPage;
    if (kept && at) kept.until = Math.min(kept.until, at.getTime());
  };
  const locale = toLocale(Astro.currentLocale);
  return { gate, keptUntil, toLogin: () => Astro.redirect(loginUrl(locale, Astro.url.pathname + Astro.url.search)) };
}

/** The period a page of the business area shows (funnel, team), as read and as its form shows it. */
export interface BusinessPeriod {
  /** Null unless the page is an active IBO's owner's. */
  read: PeriodResult | null;
  /** The form's days: the period read, or what was typed when it was refused. */
  value: { from: string; to: string };
  /** Why the period was refused, in the page's language (its status is set), or null. */
  refusal: string | null;
}

/** Reads the period of the page's address for an active IBO's owner (`readBusinessPeriod`), setting a refusal's status (400, or 403 for another IBO). */
export function businessPeriod(Astro: AstroGlobal, gate: BusinessGate, now: Date): BusinessPeriod {
  const read = gate.kind === 'owner' ? readBusinessPeriod(Astro.url.searchParams, now, gate.ibo.id) : null;
  if (read && !read.ok) Astro.response.status = read.status;
  const raw = (name: string) => Astro.url.searchParams.get(name)?.slice(0, 32) ?? '';
  const value = read?.ok ? { from: read.period.fromDay, to: read.period.toDay } : { from: raw('from'), to: raw('to') };
  const m = messages(toLocale(Astro.currentLocale));
  const refusal = read && !read.ok ? (read.error === 'otherIbo' ? m.businessFunnel.refusals.otherIbo : m.reports.refusals[read.error]) : null;
  return { read, value, refusal };
}
