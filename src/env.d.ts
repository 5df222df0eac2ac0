/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** The process's services (database, caches, bus, mailer, rate limits…): the server hands them to every request. */
    runtime: import('./lib/runtime/runtime.server').Runtime;
    /** Who the request belongs to, from the session cookie (null: a visitor). */
    identity: import('./lib/access/access.server').Identity | null;
    /** The session behind `identity` (user, IBO and prospect facts), or null. */
    session: import('./lib/identity/session.server').SessionInfo | null;
    /** The language of the page asked for (its address: `/en/…` English, else Spanish). */
    locale: import('./i18n').Locale;
    /** The messages of `locale`. */
    t: import('./i18n').Messages;
    /**
     * Set by a page whose HTML depends only on its address, the catalogue and the viewer's access (kind,
     * prospect or not, courses bought and completed, memberships): the page cache keeps one copy per
     * access context, and the header leaves the person's name to the browser.
     */
    sharedPage?: boolean;
    /**
     * Set by a shared page (`sharedPage`) whose HTML also depends on these cookies (the cart page on the
     * cart): kept once per value of them, never for a CDN.
     */
    pageVaries?: readonly string[];
    /**
     * Set by a page rendered for one person whose HTML depends only on its address, the catalogue and
     * what is stored of that person (progress, purchases, completions, their account): kept for that
     * person and answered again until something of theirs changes (`runtime.personStamps`).
     */
    ownPage?: boolean;
    /**
     * Set with `ownPage` by a page of an IBO's business: the IBOs whose changes it shows and their counts
     * of changes, read before anything it shows (`businessStamp`), and when its figures turn by the clock
     * alone; kept for its owner and answered again while the counts read the same, until then.
     */
    businessPage?: { ibos: readonly number[]; stamp: string; until: number; clock?: number | undefined };
    /** Set by the production server: resolves when the client has taken what was written (back-pressure for file streams). */
    clientReady?: () => Promise<void>;
    /** The request's id (`x-request-id`), shown on error pages and in error answers and logged with the error. */
    requestId?: string;
    /** Set by the production server: the origin (scheme, host, port) the request was addressed to, for the same-site check. */
    requestOrigin?: string | null;
    /** Set by the production server: writes an unexpected error through the server's logger. */
    logError?: (entry: import('./lib/http/errors').ErrorLogEntry) => void;
    /** Set by the middleware when a page could not be rendered because the database is busy: the busy page is rendered instead, in this language. */
    busyPage?: { error: unknown; locale: import('./i18n').Locale; retryHref: string };
    /** Set by a question form's action when it refuses the question: what was typed, for the page to show again. */
    questionDraft?: import('./lib/question-bank/question-bank').QuestionDraft;
    /** Set by an action refusing with 429: the seconds its answer's Retry-After header says. */
    retryAfterSeconds?: number;
    /** Set by the production server: counts a shared page-cache lookup (once per request). */
    pageCacheResult?: (result: 'hit' | 'miss') => void;
  }
}
