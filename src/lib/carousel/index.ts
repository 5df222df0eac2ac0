/**
 * Turns every `[data-carousel]` into a swiper carousel once it comes near the viewport, loading
 * swiper only then. Before that (and without JavaScript) the list scrolls natively.
 */
import { BREAKPOINTS } from './carousel';

export { BREAKPOINTS, BREAKPOINT_WIDTHS } from './carousel';

export function initCarousels(): void {
  const roots = [...document.querySelectorAll<HTMLElement>('[data-carousel]:not([data-ready])')];
  if (roots.length === 0) return;
  const start = async (el: HTMLElement) => {
    el.dataset.ready = '1';
    const [{ default: Swiper }, { Navigation, A11y, Keyboard }] = await Promise.all([import('swiper'), import('swiper/modules')]);
    await import('swiper/css');
    const section = el.closest('section');
    const prev = section?.querySelector<HTMLButtonElement>('[data-prev]');
    const next = section?.querySelector<HTMLButtonElement>('[data-next]');
    if (prev) prev.hidden = false;
    if (next) next.hidden = false;
    new Swiper(el, {
      modules: [Navigation, A11y, Keyboard],
      slidesPerView: 1.15,
      spaceBetween: 12,
      breakpoints: BREAKPOINTS,
      keyboard: { enabled: true, onlyInViewport: true },
      a11y: { enabled: true, slideRole: 'listitem', containerRole: 'region', containerRoleDescriptionMessage: null, itemRoleDescriptionMessage: null },
      watchSlidesProgress: true,
      ...(prev && next ? { navigation: { prevEl: prev, nextEl: next } } : {}),
    });
  };
  const io = new IntersectionObserver(
    (entries) => {
      for (const e of entries) {
        if (!e.isIntersecting) continue;
        io.unobserve(e.target);
        void start(e.target as HTMLElement);
      }
    },
    { rootMargin: '200px' },
  );
  for (const r of roots) io.observe(r);
}
