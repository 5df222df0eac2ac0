/** The editor's list of missing translations, in words ("Lesson "Pagos": missing in English"), each with the id of the item's place on the page. */
import { format, messages, type Locale } from '~/i18n';
import type { MissingText } from '~/lib/authoring/authoring';

export function missingLines(missing: readonly MissingText[], locale: Locale): { text: string; href: string }[] {
  const t = messages(locale).authoring.editor;
  return missing.map((m) => {
    const href = m.kind === 'course' ? (m.field === 'name' ? `#name-${m.lang}` : `#description-${m.lang}`) : m.kind === 'module' ? `#module-${m.where}` : m.kind === 'lesson' ? `#lesson-${m.where}` : '#outline-heading';
    const what = m.kind === 'course' ? `${t.kinds.course} (${t.fields[m.field]})` : `${t.kinds[m.kind]} (${t.fields[m.field]})`;
    return { text: format(t.missingItem, { what, other: m.other.trim() || '—', lang: t.langs[m.lang] }), href };
  });
}
