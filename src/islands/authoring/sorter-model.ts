/**
 * The drag-and-drop outline's model, pure: the outline it orders, moving one item to another's place
 * (a lesson into another module too), the outline the server is sent, and the sentences screen readers
 * hear.
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
  /** A lesson taken over into another module (with `{module}`). */
  overModule: string;
  dropped: string;
  /** A lesson dropped into another module (with `{module}`). */
  droppedModule: string;
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

/** The drop target standing for the end of a module's lesson list (an empty module has no lesson to drop on). */
export const listTarget = (moduleKey: string) => `list:${moduleKey}`;

/** The module a lesson list target stands for, or `null` when `key` is no list target. */
function listModule(key: string): string | null {
  return key.startsWith('list:') ? key.slice(5) : null;
}

/** Whether `key` names one of the outline's modules (not a lesson, not a list target). */
export function isModule(outline: readonly SorterModule[], key: string): boolean {
  return outline.some((m) => m.key === key);
}

/**
 * The outline moved: modules reordered when `from` is a module; a lesson dropped on a lesson takes its
 * place (in that lesson's module, this one or another), and dropped on a module's list target goes to
 * the end of that module. Anything else leaves the outline as it was.
 */
export function reorder(outline: readonly SorterModule[], from: string, to: string): SorterModule[] {
  if (isModule(outline, from)) return moveTo(outline, from, to);
  const source = outline.findIndex((m) => m.lessons.some((l) => l.key === from));
  const listKey = listModule(to);
  const target = listKey !== null ? outline.findIndex((m) => m.key === listKey) : outline.findIndex((m) => m.lessons.some((l) => l.key === to));
  if (source < 0 || target < 0) return [...outline];
  if (source === target) return listKey !== null ? [...outline] : outline.map((m, i) => (i === source ? { ...m, lessons: moveTo(m.lessons, from, to) } : m));
  const lesson = outline[source]!.lessons.find((l) => l.key === from)!;
  return outline.map((m, i) => {
    if (i === source) return { ...m, lessons: m.lessons.filter((l) => l.key !== from) };
    if (i !== target) return m;
    const at = listKey !== null ? m.lessons.length : m.lessons.findIndex((l) => l.key === to);
    return { ...m, lessons: [...m.lessons.slice(0, at), lesson, ...m.lessons.slice(at)] };
  });
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
  if ((kind === 'over' || kind === 'dropped') && over && !isModule(outline, active)) {
    // A lesson over another module's lesson or list: where it would land there, and which module.
    const from = outline.findIndex((m) => m.lessons.some((l) => l.key === active));
    const listKey = listModule(over);
    const to = outline.findIndex((m) => (listKey !== null ? m.key === listKey : m.lessons.some((l) => l.key === over)));
    if (to >= 0 && to !== from) {
      const lessons = outline[to]!.lessons;
      const n = listKey !== null ? lessons.length + 1 : lessons.findIndex((l) => l.key === over) + 1;
      const module = `${format(labels.module, { n: to + 1 })}: ${outline[to]!.name}`;
      return format(kind === 'over' ? labels.overModule : labels.droppedModule, { name: item.name, n, total: lessons.length + 1, module });
    }
    if (listKey !== null) return format(labels[kind], { name: item.name, n: item.n, total: item.total });
  }
  const target = over ? placeOf(outline, over) : null;
  return format(labels[kind], { name: item.name, n: (target ?? item).n, total: item.total });
}
