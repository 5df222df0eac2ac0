/**
 * The drag-and-drop outline's model, pure: the outline it orders, moving one item to another's place,
 * the outline the server is sent, and the sentences screen readers hear.
 */
import { format } from '~/i18n/format';

export interface SorterItem {
  key: string;
  name: string;
}
export interface SorterModule extends SorterItem {
  lessons: SorterItem[];
}

/** The sentences of the island (with `{name}`, `{n}`, `{total}`). */
export interface SorterLabels {
  handle: string;
  saving: string;
  saved: string;
  instructions: string;
  connection: string;
  module: string;
  picked: string;
  over: string;
  dropped: string;
  cancelled: string;
}

/** `list` with the item keyed `from` moved to the place of the item keyed `to` (unchanged when either is absent). */
export function moveTo<T extends { key: string }>(list: readonly T[], from: string, to: string): T[] {
  const i = list.findIndex((x) => x.key === from);
  const j = list.findIndex((x) => x.key === to);
  if (i < 0 || j < 0 || i === j) return [...list];
  const out = [...list];
  const [item] = out.splice(i, 1);
  out.splice(j, 0, item!);
  return out;
}

/** The outline moved: modules reordered when `from` is a module, else lessons inside the module holding both. */
export function reorder(outline: readonly SorterModule[], from: string, to: string): SorterModule[] {
  if (outline.some((m) => m.key === from)) return moveTo(outline, from, to);
  return outline.map((m) => (m.lessons.some((l) => l.key === from) && m.lessons.some((l) => l.key === to) ? { ...m, lessons: moveTo(m.lessons, from, to) } : m));
}

/** What `authoring.arrangeOutline` is sent. */
export function arrangement(outline: readonly SorterModule[]): { module: string; lessons: string[] }[] {
  return outline.map((m) => ({ module: m.key, lessons: m.lessons.map((l) => l.key) }));
}

/** Where an item is: its name, its place (1-based) and how many share its list. */
export function placeOf(outline: readonly SorterModule[], key: string): { name: string; n: number; total: number } | null {
  const m = outline.findIndex((x) => x.key === key);
  if (m >= 0) return { name: outline[m]!.name, n: m + 1, total: outline.length };
  for (const mod of outline) {
    const l = mod.lessons.findIndex((x) => x.key === key);
    if (l >= 0) return { name: mod.lessons[l]!.name, n: l + 1, total: mod.lessons.length };
  }
  return null;
}

/** The sentence for an item picked up, moved over another's place, dropped there, or put back. */
export function announcement(labels: SorterLabels, outline: readonly SorterModule[], kind: 'picked' | 'over' | 'dropped' | 'cancelled', active: string, over?: string | null): string {
  const item = placeOf(outline, active);
  if (!item) return '';
  const target = over ? placeOf(outline, over) : null;
  return format(labels[kind], { name: item.name, n: (target ?? item).n, total: item.total });
}
