/** The cart as the browser sees it: read from the `cart` cookie, replaced by what the server answers. */
import { atom } from 'nanostores';
import Cookies from 'js-cookie';
import { CART_COOKIE, parseCart, type CartItem } from '../commerce/cart';

/** The products in the cart: the buy buttons and the header's mini cart share it (its badge is their count). */
export const $cart = atom<CartItem[]>(typeof document === 'undefined' ? [] : parseCart(Cookies.get(CART_COOKIE)));
