/**
 * Browser behaviour of the add-to-cart and buy forms: call the `cart.add` action without reloading,
 * update the shared cart store (the header's mini cart listens), announce the result, and go to the
 * cart page for "buy". Without JavaScript the forms post normally.
 */
import { actions } from 'astro:actions';
import { $cart } from '../stores/cart';
import { announce } from '../stores/announcer';

document.addEventListener('submit', async (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.hasAttribute('data-cart-form')) return;
  event.preventDefault();
  const submitter = (event as SubmitEvent).submitter as HTMLButtonElement | null;
  const data = new FormData(form);
  data.set('intent', submitter?.value ?? 'add');
  form.setAttribute('aria-busy', 'true');
  try {
    const { data: result, error } = await actions.cart.add(data);
    if (error || !result) {
      announce(error?.message ?? '');
      return;
    }
    $cart.set(result.items);
    if (data.get('intent') === 'buy') {
      location.assign(submitter?.dataset.buyUrl ?? '/purchase');
      return;
    }
    announce(result.message);
  } finally {
    form.removeAttribute('aria-busy');
  }
});
