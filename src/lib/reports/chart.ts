/**
 * The geometry of the reports' charts, pure: drawn by the server as SVG (`ReportChart.astro`), no
 * chart library in the browser. A chart never stands alone: the page puts its table beside it and a
 * sentence that says what it shows.
 */

/** A round top for an axis that holds `max` (1, 2, 2.5 or 5 times a power of ten), at least 1. */
export function niceMax(max: number): number {
  if (!Number.isFinite(max) || max <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

/** The gridlines of an axis from 0 to `top`: five steps. */
export const ticksOf = (top: number): number[] => [0, 1, 2, 3, 4, 5].map((i) => (top * i) / 5);

export interface Bar {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The view box every column chart is drawn in (it scales to the page's width). */
export const COLUMNS_VIEW = { width: 420, height: 220, left: 52, bottom: 26, top: 10, right: 6 } as const;

/**
 * Columns for series of values over the same buckets: one group per bucket, one column per series,
 * side by side; heights against the axis's round top.
 */
export function columns(series: readonly (readonly number[])[]): { top: number; groups: Bar[][]; ticks: { value: number; y: number }[] } {
  const v = COLUMNS_VIEW;
  const n = series[0]?.length ?? 0;
  const top = niceMax(Math.max(0, ...series.flat()));
  const plotW = v.width - v.left - v.right;
  const plotH = v.height - v.top - v.bottom;
  const slot = n > 0 ? plotW / n : plotW;
  const gap = slot > 6 ? slot * 0.2 : 0;
  const barW = (slot - gap) / Math.max(1, series.length);
  const yOf = (value: number) => v.top + plotH - (Math.max(0, value) / top) * plotH;
  const groups = Array.from({ length: n }, (_, i) =>
    series.map((s, j) => {
      const y = yOf(s[i] ?? 0);
      return { x: v.left + i * slot + gap / 2 + j * barW, y, width: Math.max(barW, 0.5), height: v.top + plotH - y };
    }),
  );
  return { top, groups, ticks: ticksOf(top).map((value) => ({ value, y: yOf(value) })) };
}

/** Which of `n` bucket labels to print under the columns so that at most `room` show (the first, then evenly). */
export function labelEvery(n: number, room: number): number {
  return n <= room ? 1 : Math.ceil(n / Math.max(1, room));
}

/** Horizontal bars' widths (0..100, percent of the longest) for a list of values. */
export function barWidths(values: readonly number[]): number[] {
  const top = Math.max(0, ...values);
  return values.map((v) => (top > 0 ? Math.round((Math.max(0, v) * 1000) / top) / 10 : 0));
}
