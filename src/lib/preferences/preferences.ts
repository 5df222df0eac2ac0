/**
 * What the page does with the browser's stored preferences before it paints. `boot` runs as an
 * inline script (its source is embedded in the page), so it must stay self-contained: no imports,
 * no helpers from outside its own body.
 */

/** The parts of `window` that `boot` touches; tests pass a fake. */
export interface BootWindow {
  localStorage: Pick<Storage, 'getItem' | 'removeItem'>;
  document: {
    documentElement: { lang: string; className: string };
    cookie: string;
    querySelector(selector: string): { getAttribute(name: string): string | null } | null;
    querySelectorAll(selector: string): ArrayLike<{ hidden: boolean }>;
    addEventListener(type: 'DOMContentLoaded', cb: () => void): void;
    readyState: string;
  };
  location: { replace(url: string): void; search: string; hash: string };
}

/**
 * 1. Removes the stored `tracking` value unless it is a JSON list.
 * 2. Sends a visitor whose stored `language` differs from the page's to the same page in that
 *    language (`es` is Spanish, any other stored value English).
 * 3. Marks the page as scripted (`html.js`) before it paints, and `html.notice-seen` when the cookie
 *    notice was closed (the `notice=seen` cookie of `lib/http/site-cookies.ts`): the notice is in every
 *    page's HTML (pages are kept for everyone alike) and hidden here, before it paints.
 * 4. Reveals elements marked `data-needs-contact` when a `contact` value is stored (footer sign-up).
 */
export function boot(w: BootWindow): void {
  // Scripts run: styles may now collapse what scripts can open (the mobile menu) without a layout shift.
  w.document.documentElement.className += ' js';
  try {
    if (/(?:^|;\s*)notice=seen(?:;|$)/.test(w.document.cookie)) w.document.documentElement.className += ' notice-seen';
  } catch {
    /* cookies may be unreadable (a sandboxed frame): the notice stays, closable */
  }
  try {
    const ls = w.localStorage;
    const tracking = ls.getItem('tracking');
    if (tracking !== null) {
      let list = false;
      try {
        list = Array.isArray(JSON.parse(tracking));
      } catch {
        list = false;
      }
      if (!list) ls.removeItem('tracking');
    }
    const stored = ls.getItem('language');
    if (stored !== null && stored !== '') {
      const wanted = stored === 'es' ? 'es' : 'en';
      if (wanted !== w.document.documentElement.lang) {
        const alt = w.document.querySelector(`link[rel="alternate"][hreflang="${wanted}"]`);
        const href = alt && alt.getAttribute('href');
        if (href) {
          // Only the path: the link may carry the public origin, which need not be this server's.
          w.location.replace(href.replace(/^https?:\/\/[^/]+/, '') + w.location.search + w.location.hash);
          return;
        }
      }
    }
    const reveal = () => {
      if (ls.getItem('contact') === null) return;
      const els = w.document.querySelectorAll('[data-needs-contact]');
      for (let i = 0; i < els.length; i++) els[i]!.hidden = false;
    };
    if (w.document.readyState === 'loading') w.document.addEventListener('DOMContentLoaded', reveal);
    else reveal();
  } catch {
    /* storage may be unavailable (privacy modes): the page works without it */
  }
}

/** The inline script text that runs `boot` on the real window. */
export const bootScript = `(${boot.toString()})(window);`;
