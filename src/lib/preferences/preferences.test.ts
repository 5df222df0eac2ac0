import { describe, expect, it, vi } from 'vitest';
import { boot, bootScript, type BootWindow } from './preferences';
import { NOTICE_COOKIE, NOTICE_SEEN, noticeSeen } from '../http/site-cookies';

function fakeWindow(opts: { lang: 'es' | 'en'; storage?: Record<string, string>; readyState?: string; cookie?: string }) {
  const store = new Map(Object.entries(opts.storage ?? {}));
  const hidden = [{ hidden: true }, { hidden: true }];
  const listeners: (() => void)[] = [];
  const replace = vi.fn();
  const w: BootWindow = {
    localStorage: {
      getItem: (k) => store.get(k) ?? null,
      removeItem: (k) => void store.delete(k),
    },
    document: {
      documentElement: { lang: opts.lang, className: '' },
      cookie: opts.cookie ?? '',
      querySelector: (sel) => {
        const m = /hreflang="(\w+)"/.exec(sel);
        const href = m?.[1] === 'en' ? '/en/about-us' : m?.[1] === 'es' ? '/about-us' : null;
        return href ? { getAttribute: () => href } : null;
      },
      querySelectorAll: () => hidden,
      addEventListener: (_t, cb) => void listeners.push(cb),
      readyState: opts.readyState ?? 'complete',
    },
    location: { replace, search: '?x=1', hash: '#top' },
  };
  return { w, store, hidden, replace, listeners };
}

describe('boot: stored tracking', () => {
  it.each(['{"a":1}', 'oops', '42', 'null', '"[]"'])('removes %s, which is not a list', (value) => {
    const f = fakeWindow({ lang: 'es', storage: { tracking: value } });
    boot(f.w);
    expect(f.store.has('tracking')).toBe(false);
  });

  it('keeps a list', () => {
    const f = fakeWindow({ lang: 'es', storage: { tracking: '[{"courseId":1}]' } });
    boot(f.w);
    expect(f.store.get('tracking')).toBe('[{"courseId":1}]');
  });
});

describe('boot: stored language', () => {
  it('sends a visitor who chose English from a Spanish page to the English one, keeping query and hash', () => {
    const f = fakeWindow({ lang: 'es', storage: { language: 'en' } });
    boot(f.w);
    expect(f.replace).toHaveBeenCalledWith('/en/about-us?x=1#top');
  });

  it('keeps only the path of an absolute alternate link', () => {
    const f = fakeWindow({ lang: 'es', storage: { language: 'en' } });
    f.w.document.querySelector = () => ({ getAttribute: () => 'https://academia.example:8443/en/about-us' });
    boot(f.w);
    expect(f.replace).toHaveBeenCalledWith('/en/about-us?x=1#top');
  });

  it('treats any stored value other than es as English', () => {
    const f = fakeWindow({ lang: 'es', storage: { language: 'fr' } });
    boot(f.w);
    expect(f.replace).toHaveBeenCalledWith('/en/about-us?x=1#top');
  });

  it('sends a visitor who chose Spanish from an English page to the Spanish one', () => {
    const f = fakeWindow({ lang: 'en', storage: { language: 'es' } });
    boot(f.w);
    expect(f.replace).toHaveBeenCalledWith('/about-us?x=1#top');
  });

  it('stays when the page is already in the stored language or nothing is stored', () => {
    for (const f of [fakeWindow({ lang: 'en', storage: { language: 'en' } }), fakeWindow({ lang: 'es' })]) {
      boot(f.w);
      expect(f.replace).not.toHaveBeenCalled();
    }
  });
});

describe('boot: footer sign-up link', () => {
  it('reveals elements needing a stored contact only when one is stored', () => {
    const without = fakeWindow({ lang: 'es' });
    boot(without.w);
    expect(without.hidden.every((h) => h.hidden)).toBe(true);
    const withContact = fakeWindow({ lang: 'es', storage: { contact: '{"id":1}' } });
    boot(withContact.w);
    expect(withContact.hidden.every((h) => !h.hidden)).toBe(true);
  });

  it('waits for the document when it is still loading', () => {
    const f = fakeWindow({ lang: 'es', storage: { contact: '{}' }, readyState: 'loading' });
    boot(f.w);
    expect(f.hidden[0]!.hidden).toBe(true);
    f.listeners.forEach((cb) => cb());
    expect(f.hidden[0]!.hidden).toBe(false);
  });
});

describe('boot: scripted page', () => {
  it('marks the page as scripted before paint', () => {
    const f = fakeWindow({ lang: 'es' });
    boot(f.w);
    expect(f.w.document.documentElement.className.split(' ')).toContain('js');
  });
});

describe('bootScript', () => {
  it('is self-contained code that runs on its own', () => {
    const f = fakeWindow({ lang: 'es', storage: { tracking: 'bad', language: 'en' } });
    new Function('window', bootScript)(f.w);
    expect(f.store.has('tracking')).toBe(false);
    expect(f.replace).toHaveBeenCalled();
  });

  it('survives storage that throws', () => {
    const w = fakeWindow({ lang: 'es' }).w;
    w.localStorage.getItem = () => {
      throw new Error('denied');
    };
    expect(() => boot(w)).not.toThrow();
  });
});

describe('boot: the cookie notice', () => {
  it.each([
    [`${NOTICE_COOKIE}=${NOTICE_SEEN}`, true],
    [`cart=%5B%5D; ${NOTICE_COOKIE}=${NOTICE_SEEN}`, true],
    [`${NOTICE_COOKIE}=${NOTICE_SEEN}; cart=x`, true],
    ['', false],
    [`${NOTICE_COOKIE}=no`, false],
    [`x${NOTICE_COOKIE}=${NOTICE_SEEN}`, false],
  ])('marks the page when the notice was closed (%j → %s), as the server reads it', (cookie, seen) => {
    const f = fakeWindow({ lang: 'es', cookie });
    boot(f.w);
    expect(f.w.document.documentElement.className.split(' ').includes('notice-seen')).toBe(seen);
    expect(noticeSeen(cookie)).toBe(seen);
  });
});
