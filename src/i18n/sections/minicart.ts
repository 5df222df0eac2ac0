/** Messages of the header's mini cart: the panel listing the cart, its total and checkout. */
import type { Shape } from '../types';

export const es = {
  miniCart: {
    /** The disclosure button's name: how many products the cart holds. */
    button: { one: 'Carrito: {count} producto', other: 'Carrito: {count} productos' },
    title: 'Tu carrito',
    empty: 'No hay productos en el carrito',
    remove: 'Quitar',
    total: 'Total (USD)',
    checkout: 'Ir a pagar',
    loading: 'Cargando el carrito…',
    failed: 'No pudimos cargar el carrito. Inténtalo de nuevo.',
    retry: 'Reintentar',
  },
} as const;

export const en: Shape<typeof es> = {
  miniCart: {
    button: { one: 'Cart: {count} product', other: 'Cart: {count} products' },
    title: 'Your cart',
    empty: 'No products in cart',
    remove: 'Remove',
    total: 'Total (USD)',
    checkout: 'Checkout',
    loading: 'Loading the cart…',
    failed: 'We could not load the cart. Please try again.',
    retry: 'Try again',
  },
};
