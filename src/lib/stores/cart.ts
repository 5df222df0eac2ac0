/** The cart as the browser sees it: read from the `cart` cookie, replaced by what the server answers. */
import { atom, computed } from 'nanostores';
import Cookies from 'js-cookie';
import { CART_COOKIE, parseCart, type CartItem } from '../commerce/cart';

/** The products in the cart. */
export const $cart = atom<CartItem[]>(typeof document === 'undefined' ? [] : parseCart(Cookies.get(CART_COOKIE)));

/** How many products the cart holds (the mini cart's badge). */
export const $cartCount = computed($cart, (items) => items.length);
