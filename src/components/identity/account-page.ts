/**
 * What every page of a person's own account (profile, security, my data) starts from: the language of
 * the answer and its messages, the page's own address in that language, and the way to the login page
 * (which brings the person back) for a request that reaches the page without a logged-in person (the
 * middleware sends those to login first; the page checks again before it reads anything).
 */
import type { AstroGlobal } from 'astro';
import { messages, toLocale, type Locale } from '~/i18n';
import type { Messages } from '~/i18n/types';
import { loginUrl } from '~/lib/identity';
import { localePath } from '~/lib/paths';

/** The start of an account page. */
export interface AccountPage {
  locale: Locale;
  all: Messages;
  /** The page's address in the answer's language (where its forms post). */
  here: string;
  /** The answer for a request without a logged-in person: the login page, coming back here. */
  toLogin: () => Response;
}

/** The start of the account page at `path` (a path of `paths`, without the language). */
export function accountPage(Astro: AstroGlobal, path: string): AccountPage {
  const locale = toLocale(Astro.currentLocale);
  return {
    locale,
    all: messages(locale),
    here: localePath(locale, path),
    toLogin: () => Astro.redirect(loginUrl(locale, Astro.url.pathname)),
  };
}
