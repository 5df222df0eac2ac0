/**
 * The personal parts of a page kept for an audience. A page the same for everyone with one access
 * context still names its reader in a few places (the header's user menu, the session summary the
 * browser's stores follow). Those places are marked `<!--personal:NAME-->…<!--/personal:NAME-->`; a kept
 * page is stored as a template without them, and each person's answer is the template filled with that
 * person's own parts, kept from the last page rendered for them. Works without JavaScript, shows no
 * other person's name, and costs a string join instead of a render.
 */

/** The marks around a personal part. */
export function personalMarks(name: string): [open: string, close: string] {
  return [`<!--personal:${name}-->`, `<!--/personal:${name}-->`];
}

const PART = /<!--personal:([a-z][a-z-]*)-->([\s\S]*?)<!--\/personal:\1-->/g;

/** A page with its personal parts taken out: `parts` around them, `names` of each gap (`parts.length === names.length + 1`). */
export interface PersonalTemplate {
  parts: string[];
  names: string[];
}

/** A person's own parts, by name. */
export type PersonalParts = Readonly<Record<string, string>>;

/** Splits a rendered page into its template and the personal parts it was rendered with. */
export function splitPersonal(body: string): { template: PersonalTemplate; parts: PersonalParts } {
  const template: PersonalTemplate = { parts: [], names: [] };
  const parts: Record<string, string> = {};
  let last = 0;
  for (const m of body.matchAll(PART)) {
    const [whole, name, inner] = m as unknown as [string, string, string];
    template.parts.push(body.slice(last, m.index));
    template.names.push(name);
    parts[name] = inner;
    last = m.index + whole.length;
  }
  template.parts.push(body.slice(last));
  return { template, parts };
}

/** The page for one person: `template` with their `parts`, or `null` when one is missing (render the page instead). */
export function fillPersonal(template: PersonalTemplate, parts: PersonalParts): string | null {
  let out = template.parts[0]!;
  for (let i = 0; i < template.names.length; i++) {
    const name = template.names[i]!;
    const inner = parts[name];
    if (inner === undefined) return null;
    const [open, close] = personalMarks(name);
    out += open + inner + close + template.parts[i + 1]!;
  }
  return out;
}
