/**
 * The header's mini cart: a button showing how many products
 * the cart holds that opens a panel listing them — name and price as the server prices them, a remove
 * button each — with the total and checkout.
 *
 * It shares the `$cart` store with the buy buttons, so adding a product anywhere updates the badge at
 * once and the panel the next time it is drawn. The count comes from the browser's own cookie, never
 * from the server's HTML (pages are kept for every visitor alike); names and prices come from the
 * `cart.view` action, and removing goes through `cart.remove`, so the server's cookie stays the truth.
 *
 * Before hydration (and without JavaScript) it is a plain link to the cart page.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { actions } from 'astro:actions';
import { useStore } from '@nanostores/react';
import type { Locale } from '~/i18n/locales';
import type { Plural } from '~/i18n/plural';
import { cartButtonLabel, cartKey, focusAfterRemoval, inCart, type MiniCartSummary } from '~/lib/commerce/mini-cart';
import type { CartItem } from '~/lib/commerce/cart';
import { $cart } from '~/lib/stores/cart';
import { announce } from '~/lib/stores/announcer';
import '~/styles/mini-cart.css';

/** The texts of the mini cart. */
export interface MiniCartText {
  /** The link's name before hydration and without JavaScript. */
  cart: string;
  /** 'Cart: {count} products', in one and other forms. */
  button: Plural;
  title: string;
  empty: string;
  remove: string;
  total: string;
  checkout: string;
  loading: string;
  failed: string;
  retry: string;
  /** Each kind of product, as the cart page names it. */
  kind: Record<CartItem['kind'], string>;
}

interface Props {
  locale: Locale;
  t: MiniCartText;
  /** The cart page (`/purchase`, `/en/purchase`): the link without JavaScript, and checkout. */
  cartHref: string;
  /** The cart icon (server-rendered). */
  children?: ReactNode;
}

/** One mini cart per page: fixed ids (`useId` may repeat across islands, each being its own React root). */
const PANEL_ID = 'mini-cart-panel';
const TITLE_ID = 'mini-cart-title';

type Load = { state: 'idle' } | { state: 'loading' } | { state: 'failed' } | { state: 'ready'; key: string; summary: MiniCartSummary };

export default function MiniCart({ locale, t, cartHref, children }: Props) {
  const items = useStore($cart);
  const [mounted, setMounted] = useState(false);
  const [open, setOpen] = useState(false);
  const [load, setLoad] = useState<Load>({ state: 'idle' });
  const [attempt, setAttempt] = useState(0);
  const [removing, setRemoving] = useState<string | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  /** After a removal: the remove button to focus (its index), or `null` for the panel's title. */
  const pendingFocus = useRef<number | null | undefined>(undefined);
  const key = cartKey(items);

  useEffect(() => setMounted(true), []);

  // Price the cart on the server whenever the panel is open and its products changed.
  const current = load.state === 'ready' && load.key === key;
  useEffect(() => {
    if (!open || current || items.length === 0) return;
    let live = true;
    setLoad((l) => (l.state === 'ready' ? l : { state: 'loading' }));
    actions.cart
      .view({ lang: locale })
      .then(({ data, error }) => {
        if (!live) return;
        if (error) return setLoad({ state: 'failed' });
        const served = cartKey(data.items);
        setLoad({ state: 'ready', key: served, summary: data });
        // The server dropped what the viewer may not see (a stale or forged cookie): the badge agrees.
        if (served !== cartKey($cart.get())) $cart.set(data.items);
      })
      .catch(() => live && setLoad({ state: 'failed' }));
    return () => {
      live = false;
    };
  }, [open, current, key, items.length, locale, attempt]);

  // Escape closes and gives focus back to the button; a click elsewhere closes.
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    const onClick = (e: MouseEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('click', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('click', onClick);
    };
  }, [open]);

  // After a removal, focus the next product's remove button, or the title when the cart is empty.
  useEffect(() => {
    const target = pendingFocus.current;
    if (target === undefined || !panel.current) return;
    pendingFocus.current = undefined;
    const buttons = panel.current.querySelectorAll<HTMLButtonElement>('button[data-remove]');
    (target === null ? panel.current.querySelector<HTMLElement>(`#${TITLE_ID}`) : buttons[target])?.focus();
  }, [key]);

  async function remove(item: CartItem, index: number, count: number) {
    const id = `${item.kind}-${item.id}`;
    setRemoving(id);
    try {
      const form = new FormData();
      form.set('kind', item.kind);
      form.set('id', String(item.id));
      form.set('lang', locale);
      const { data, error } = await actions.cart.remove(form);
      if (error) return announce(error.message);
      pendingFocus.current = focusAfterRemoval(count, index);
      $cart.set(data.items);
      announce(data.message);
    } catch {
      announce(t.failed);
    } finally {
      setRemoving(null);
    }
  }

  if (!mounted) {
    return (
      <div className="mini-cart">
        <a className="icon-button cart-link" href={cartHref} aria-label={t.cart}>
          {children}
          <span className="cart-count" data-cart-count hidden></span>
        </a>
      </div>
    );
  }

  const count = items.length;
  // Lines already priced and still in the cart: a removal shows at once, the total once the server re-prices.
  const summary = load.state === 'ready' ? load.summary : null;
  const lines = summary ? summary.lines.filter((l) => inCart(items, l)) : [];
  const pricing = open && count > 0 && !current && load.state !== 'failed';
  return (
    <div className="mini-cart" ref={root}>
      <button
        ref={button}
        type="button"
        className="icon-button cart-link"
        aria-expanded={open}
        aria-controls={PANEL_ID}
        aria-label={cartButtonLabel(locale, t, count)}
        onClick={() => setOpen((o) => !o)}
      >
        {children}
        <span className="cart-count" data-cart-count hidden={count === 0}>
          {count}
        </span>
      </button>
      <div ref={panel} id={PANEL_ID} className="mini-cart-panel" role="region" aria-labelledby={TITLE_ID} hidden={!open}>
        {/* Drawn only while open: the closed panel holds nothing to find twice on the page. */}
        {open && (
          <>
            <h2 id={TITLE_ID} className="mini-cart-title" tabIndex={-1}>
              {t.title}
            </h2>
            {load.state === 'failed' ? (
              <p className="mini-cart-note" role="alert">
                {t.failed}{' '}
                <button type="button" className="button button-small button-outline" onClick={() => setAttempt((a) => a + 1)}>
                  {t.retry}
                </button>
              </p>
            ) : count === 0 ? (
              <p className="mini-cart-note">{t.empty}</p>
            ) : (
              <>
                {lines.length > 0 && (
                  <ul className="mini-cart-lines">
                    {lines.map((l, i) => {
                      const id = `${l.kind}-${l.id}`;
                      return (
                        <li key={id} className="mini-cart-line">
                          <span className="mini-cart-name">
                            <strong>{l.name}</strong>
                            <span className="mini-cart-kind">{t.kind[l.kind]}</span>
                          </span>
                          <span className="mini-cart-price">{l.price}</span>
                          <button
                            type="button"
                            className="button button-small button-outline"
                            data-remove
                            aria-label={`${t.remove}: ${l.name}`}
                            disabled={removing === id}
                            onClick={() => void remove(l, i, lines.length)}
                          >
                            {t.remove}
                          </button>
                        </li>
                      );
                    })}
                  </ul>
                )}
                {pricing && (
                  <p className="mini-cart-note" role="status">
                    {t.loading}
                  </p>
                )}
                <p className="mini-cart-total">
                  <span>{t.total}</span>
                  <strong data-mini-cart-total>{current && summary ? summary.total : '…'}</strong>
                </p>
                <a className="button mini-cart-checkout" href={cartHref}>
                  {t.checkout}
                </a>
              </>
            )}
          </>
        )}
      </div>
    </div>
  );
}
