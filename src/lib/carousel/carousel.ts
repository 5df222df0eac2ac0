/** Carousel settings shared by every course carousel (breakpoints: 1200, 1024, 768, 600, 360). */

/** Slides per view at each minimum width. */
export const BREAKPOINTS = {
  360: { slidesPerView: 1.15, spaceBetween: 12 },
  600: { slidesPerView: 2, spaceBetween: 16 },
  768: { slidesPerView: 2.5, spaceBetween: 16 },
  1024: { slidesPerView: 3, spaceBetween: 20 },
  1200: { slidesPerView: 4, spaceBetween: 20 },
} as const;

/** The breakpoints' minimum widths, smallest first. */
export const BREAKPOINT_WIDTHS = Object.keys(BREAKPOINTS).map(Number);
