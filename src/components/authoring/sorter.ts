/** What the drag-and-drop island of the course editor is handed: the outline's keys and names, and its sentences. */
import { messages, type Locale } from '~/i18n';
import { pick } from '~/lib/catalog';
import type { CourseDoc } from '~/lib/authoring/authoring';
import type { SorterLabels, SorterModule } from '~/islands/authoring/sorter-model';

/** The draft's outline as the island shows it: keys and names in the page's language (the other one when missing). */
export function sorterOutline(doc: CourseDoc, locale: Locale): SorterModule[] {
  const other = locale === 'es' ? 'en' : 'es';
  const name = (row: { nameEs: string; nameEn: string }, fallback: string) => pick(row, 'name', locale) || pick(row, 'name', other) || fallback;
  return doc.modules.map((m) => ({ key: m.key, name: name(m, m.key), lessons: m.lessons.map((l) => ({ key: l.key, name: name(l, l.key) })) }));
}

/** The island's sentences in `locale`. */
export function sorterLabels(locale: Locale): SorterLabels {
  const t = messages(locale);
  const e = t.authoring.editor;
  return { handle: e.dragHandle, saving: e.saveOrder, saved: e.orderSaved, instructions: e.outlineLead, connection: t.forms.connection, module: e.module, ...e.announce };
}
