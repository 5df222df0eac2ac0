/**
 * The edits an editor makes to a course's document, pure: each takes the document and answers the
 * changed copy, or why it is refused. Items are named by their key (`m12`: the live module 12; `n…`: a
 * module, lesson or resource added in this draft). A key the document does not hold (another course's
 * module, a forged one) is refused, never created.
 */
import { LIMITS, type CourseDoc, type DocLesson, type DocModule, type DocResource } from './authoring';

/** Why an edit is refused. */
export type EditProblem = 'unknownModule' | 'unknownLesson' | 'unknownResource' | 'notAPermutation' | 'tooMany' | 'edge';
export type EditResult = { ok: true; doc: CourseDoc } | { ok: false; problem: EditProblem };

const ok = (doc: CourseDoc): EditResult => ({ ok: true, doc });
const no = (problem: EditProblem): EditResult => ({ ok: false, problem });

/** A new item's key: `n` and random hex (`newKey()` in the server, a fixed one in tests). */
export type KeyMaker = () => string;

/** Texts in both languages. */
export interface Names {
  es: string;
  en: string;
}

const withModules = (doc: CourseDoc, modules: DocModule[]): CourseDoc => ({ ...doc, modules });
const findModule = (doc: CourseDoc, key: string) => doc.modules.findIndex((m) => m.key === key);
function findLesson(doc: CourseDoc, key: string): { m: number; l: number } | null {
  for (const [m, mod] of doc.modules.entries()) {
    const l = mod.lessons.findIndex((x) => x.key === key);
    if (l >= 0) return { m, l };
  }
  return null;
}
function mapLesson(doc: CourseDoc, key: string, change: (l: DocLesson) => DocLesson): EditResult {
  const at = findLesson(doc, key);
  if (!at) return no('unknownLesson');
  return ok(withModules(doc, doc.modules.map((m, i) => (i === at.m ? { ...m, lessons: m.lessons.map((l, j) => (j === at.l ? change(l) : l)) } : m))));
}

/** Moves the item at `from` one place up or down; `edge` when it is already first or last. */
function step<T>(list: readonly T[], from: number, direction: 'up' | 'down'): T[] | null {
  const to = direction === 'up' ? from - 1 : from + 1;
  if (to < 0 || to >= list.length) return null;
  const out = [...list];
  [out[from], out[to]] = [out[to]!, out[from]!];
  return out;
}

/** `list` in the order of `keys`, when `keys` names each item exactly once. */
function inOrder<T extends { key: string }>(list: readonly T[], keys: readonly string[]): T[] | null {
  if (keys.length !== list.length || new Set(keys).size !== keys.length) return null;
  const byKey = new Map(list.map((x) => [x.key, x]));
  const out = keys.map((k) => byKey.get(k));
  return out.every((x) => x !== undefined) ? (out as T[]) : null;
}

/* ───────────── modules ───────────── */

export function addModule(doc: CourseDoc, names: Names, newKey: KeyMaker): EditResult {
  if (doc.modules.length >= LIMITS.modules) return no('tooMany');
  return ok(withModules(doc, [...doc.modules, { key: newKey(), id: null, nameEs: names.es, nameEn: names.en, lessons: [] }]));
}

export function renameModule(doc: CourseDoc, key: string, names: Names): EditResult {
  const i = findModule(doc, key);
  if (i < 0) return no('unknownModule');
  return ok(withModules(doc, doc.modules.map((m, j) => (j === i ? { ...m, nameEs: names.es, nameEn: names.en } : m))));
}

/** Removes a module and its lessons (learners' progress on them no longer counts once published). */
export function removeModule(doc: CourseDoc, key: string): EditResult {
  const i = findModule(doc, key);
  if (i < 0) return no('unknownModule');
  return ok(withModules(doc, doc.modules.filter((_, j) => j !== i)));
}

export function stepModule(doc: CourseDoc, key: string, direction: 'up' | 'down'): EditResult {
  const i = findModule(doc, key);
  if (i < 0) return no('unknownModule');
  const moved = step(doc.modules, i, direction);
  return moved ? ok(withModules(doc, moved)) : no('edge');
}

/** Puts the modules in the order of `keys` (each module's key once). */
export function orderModules(doc: CourseDoc, keys: readonly string[]): EditResult {
  const modules = inOrder(doc.modules, keys);
  return modules ? ok(withModules(doc, modules)) : no('notAPermutation');
}

/* ───────────── lessons ───────────── */

export function addLesson(doc: CourseDoc, moduleKey: string, names: Names, newKey: KeyMaker): EditResult {
  const i = findModule(doc, moduleKey);
  if (i < 0) return no('unknownModule');
  if (doc.modules[i]!.lessons.length >= LIMITS.lessons) return no('tooMany');
  const lesson: DocLesson = { key: newKey(), id: null, nameEs: names.es, nameEn: names.en, summaryEs: '', summaryEn: '', resources: [] };
  return ok(withModules(doc, doc.modules.map((m, j) => (j === i ? { ...m, lessons: [...m.lessons, lesson] } : m))));
}

export function editLesson(doc: CourseDoc, key: string, texts: { names: Names; summary: Names }): EditResult {
  return mapLesson(doc, key, (l) => ({ ...l, nameEs: texts.names.es, nameEn: texts.names.en, summaryEs: texts.summary.es, summaryEn: texts.summary.en }));
}

export function removeLesson(doc: CourseDoc, key: string): EditResult {
  const at = findLesson(doc, key);
  if (!at) return no('unknownLesson');
  return ok(withModules(doc, doc.modules.map((m, i) => (i === at.m ? { ...m, lessons: m.lessons.filter((_, j) => j !== at.l) } : m))));
}

/** One place up or down inside its module. */
export function stepLesson(doc: CourseDoc, key: string, direction: 'up' | 'down'): EditResult {
  const at = findLesson(doc, key);
  if (!at) return no('unknownLesson');
  const moved = step(doc.modules[at.m]!.lessons, at.l, direction);
  return moved ? ok(withModules(doc, doc.modules.map((m, i) => (i === at.m ? { ...m, lessons: moved } : m)))) : no('edge');
}

/**
 * Moves a lesson to place `index` of module `moduleKey` (another module of this course, or its own).
 * A module this document does not hold (another course's) is refused.
 */
export function moveLesson(doc: CourseDoc, key: string, moduleKey: string, index: number): EditResult {
  const at = findLesson(doc, key);
  if (!at) return no('unknownLesson');
  const target = findModule(doc, moduleKey);
  if (target < 0) return no('unknownModule');
  const lesson = doc.modules[at.m]!.lessons[at.l]!;
  const without = doc.modules.map((m, i) => (i === at.m ? { ...m, lessons: m.lessons.filter((_, j) => j !== at.l) } : m));
  const into = without[target]!;
  if (target !== at.m && into.lessons.length >= LIMITS.lessons) return no('tooMany');
  const place = Math.max(0, Math.min(Math.trunc(index), into.lessons.length));
  const lessons = [...into.lessons.slice(0, place), lesson, ...into.lessons.slice(place)];
  return ok(withModules(doc, without.map((m, i) => (i === target ? { ...m, lessons } : m))));
}

/**
 * The whole outline in one go, as drag and drop leaves it: for each module (in its new order) the keys
 * of its lessons. Every module and every lesson of the document must be named exactly once.
 */
export function arrangeOutline(doc: CourseDoc, outline: readonly { module: string; lessons: readonly string[] }[]): EditResult {
  const modules = inOrder(doc.modules, outline.map((o) => o.module));
  if (!modules) return no('notAPermutation');
  const lessons = new Map(doc.modules.flatMap((m) => m.lessons.map((l) => [l.key, l] as const)));
  const named = outline.flatMap((o) => o.lessons);
  if (named.length !== lessons.size || new Set(named).size !== named.length || !named.every((k) => lessons.has(k))) return no('notAPermutation');
  if (outline.some((o) => o.lessons.length > LIMITS.lessons)) return no('tooMany');
  return ok(withModules(doc, modules.map((m, i) => ({ ...m, lessons: outline[i]!.lessons.map((k) => lessons.get(k)!) }))));
}

/* ───────────── resources ───────────── */

/** Adds a link (an https address, checked by the caller's schema) to a lesson. */
export function addLink(doc: CourseDoc, lessonKey: string, titles: Names, url: string, newKey: KeyMaker): EditResult {
  const at = findLesson(doc, lessonKey);
  if (!at) return no('unknownLesson');
  if (doc.modules[at.m]!.lessons[at.l]!.resources.length >= LIMITS.resources) return no('tooMany');
  const link: DocResource = { key: newKey(), id: null, kind: 'link', titleEs: titles.es, titleEn: titles.en, url, mediaFileId: null };
  return mapLesson(doc, lessonKey, (l) => ({ ...l, resources: [...l.resources, link] }));
}

export function removeResource(doc: CourseDoc, key: string): EditResult {
  const lesson = doc.modules.flatMap((m) => m.lessons).find((l) => l.resources.some((r) => r.key === key));
  if (!lesson) return no('unknownResource');
  return mapLesson(doc, lesson.key, (l) => ({ ...l, resources: l.resources.filter((r) => r.key !== key) }));
}

/**
 * The lesson's video: a stored file of the media library (`mediaFileId`, checked by the caller), or
 * none. An existing video resource keeps its key and id (and so its captions); a new one is first.
 */
export function setVideo(doc: CourseDoc, lessonKey: string, mediaFileId: number | null, newKey: KeyMaker): EditResult {
  const at = findLesson(doc, lessonKey);
  if (!at) return no('unknownLesson');
  return mapLesson(doc, lessonKey, (l) => {
    const current = l.resources.find((r) => r.kind === 'video');
    if (mediaFileId === null) return { ...l, resources: l.resources.filter((r) => r.kind !== 'video') };
    if (current) return { ...l, resources: l.resources.map((r) => (r === current ? { ...r, mediaFileId } : r)) };
    const video: DocResource = { key: newKey(), id: null, kind: 'video', titleEs: l.nameEs, titleEn: l.nameEn, url: null, mediaFileId };
    return { ...l, resources: [video, ...l.resources] };
  });
}
