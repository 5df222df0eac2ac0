/** Message interpolation, on its own so browser code can use it without loading both catalogues. */

/** Replaces `{name}` placeholders with values; unknown placeholders stay as they are. */
export function format(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));
}
