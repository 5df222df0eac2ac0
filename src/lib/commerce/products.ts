/**
 * The rules of the books and membership plans staff manage: what their forms accept (every text in
 * Spanish and English, a price typed as money and kept as exact cents, a plan's period and the
 * categories it unlocks), what an uploaded book PDF must be, and the names uploaded files are kept and
 * served under. Pure: `products.server.ts` does the I/O, the actions turn a refusal into its sentence.
 */
import { MEMBERSHIP_PERIODS, type MembershipPeriod } from './membership';
import { centsToDecimal } from './money';
import { hasForbiddenCharacters } from '../forms/characters';
import { imageKey, imageName, imagePathPrefix, imageUrl, parseImageName, storedImageKey, UPLOADED_IMAGES } from '../media/uploaded-images';

/** The most a book or a plan may cost, in cents ($10,000.00): anything above is a typing mistake. */
export const MAX_PRODUCT_PRICE_CENTS = 1_000_000;
/** How long each text may be. */
export const PRODUCT_TEXT_LIMITS = { title: 160, author: 120, description: 4000, feature: 160 } as const;
/** How many features a plan lists at most (per language). */
export const MAX_PLAN_FEATURES = 12;
/** The side of an uploaded book cover as the server keeps it (the books page's 2:3 portrait). */
export const COVER_SIZE = UPLOADED_IMAGES['book-cover'];
/** The default largest book PDF (`BOOK_PDF_MAX_MB`), in bytes. */
export const DEFAULT_BOOK_PDF_MAX_BYTES = 5 * 1024 * 1024;
/** What the PDF input offers (a hint for the browser; the server reads the bytes). */
export const PDF_ACCEPT = 'application/pdf,.pdf';

/** Why a price was refused. */
export type PriceProblem = 'priceMissing' | 'priceInvalid' | 'priceNegative' | 'priceFraction' | 'priceZero' | 'priceTooHigh';

/**
 * The cents of a price typed as money: "12.50", "12,50", "12", "$12.5" (digits, one decimal point or
 * comma, at most two decimals; no thousands separators). Read from its digits, never through a float.
 */
export function readPrice(raw: unknown): { ok: true; cents: number } | { ok: false; problem: PriceProblem } {
  if (typeof raw !== 'string' && typeof raw !== 'number') return { ok: false, problem: 'priceMissing' };
  const text = String(raw).trim().replace(/^\$\s*/, '');
  if (text === '') return { ok: false, problem: 'priceMissing' };
  if (/^-/.test(text)) return { ok: false, problem: 'priceNegative' };
  const m = /^(\d{1,12})(?:[.,](\d+))?$/.exec(text);
  if (!m) return { ok: false, problem: 'priceInvalid' };
  const fraction = m[2] ?? '';
  if (/[^0]/.test(fraction.slice(2))) return { ok: false, problem: 'priceFraction' };
  const cents = Number(m[1]) * 100 + Number(fraction.slice(0, 2).padEnd(2, '0'));
  if (cents === 0) return { ok: false, problem: 'priceZero' };
  if (!Number.isSafeInteger(cents) || cents > MAX_PRODUCT_PRICE_CENTS) return { ok: false, problem: 'priceTooHigh' };
  return { ok: true, cents };
}

/** Cents as the price field shows them ("12.50"). */
export const priceInput = (cents: number): string => centsToDecimal(cents);

/** Why a form was refused, and on which field. */
export type FormProblem =
  | { field: string; problem: 'required' | 'missingTranslation' | 'tooLong' | 'invalidCharacters' | 'tooManyFeatures' | 'featuresMismatch' | 'invalidPeriod' | 'noCategory' | 'unknownCategory' | 'invalidId' }
  | { field: 'price'; problem: PriceProblem };

type Read<T> = { ok: true; value: T } | { ok: false; problem: FormProblem };

/** One text field: trimmed, required, at most `max` characters, no control characters. */
function textField(raw: unknown, field: string, max: number): string | FormProblem {
  const text = typeof raw === 'string' ? raw.trim() : '';
  if (text === '') return { field, problem: 'required' };
  if (text.length > max) return { field, problem: 'tooLong' };
  if (hasForbiddenCharacters(text, true)) return { field, problem: 'invalidCharacters' };
  return text.replace(/\r\n?/g, '\n');
}

/**
 * A pair of texts, Spanish and English: both required. Only one of them given is a missing translation
 * (refused, never published with the other language's text in its place).
 */
function bilingual(raw: Record<string, unknown>, base: string, max: number): { es: string; en: string } | FormProblem {
  const es = textField(raw[`${base}Es`], `${base}Es`, max);
  const en = textField(raw[`${base}En`], `${base}En`, max);
  const givenEs = typeof es === 'string';
  const givenEn = typeof en === 'string';
  if (givenEs && !givenEn && en.problem === 'required') return { field: `${base}En`, problem: 'missingTranslation' };
  if (givenEn && !givenEs && es.problem === 'required') return { field: `${base}Es`, problem: 'missingTranslation' };
  if (!givenEs) return es;
  if (!givenEn) return en;
  return { es, en };
}

const isProblem = (v: unknown): v is FormProblem => typeof v === 'object' && v !== null && 'problem' in v;

/** A product id posted by a form: absent or blank for a new one, else a positive 32-bit integer. */
export function readProductId(raw: unknown): Read<number | null> {
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) return { ok: true, value: null };
  // Ids come from the page's hidden fields, never typed: exactly the digits, nothing around them.
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw : '';
  if (!/^[1-9]\d{0,9}$/.test(text) || Number(text) > 2_147_483_647) return { ok: false, problem: { field: 'id', problem: 'invalidId' } };
  return { ok: true, value: Number(text) };
}

/** Whether a checkbox was ticked ("on" from a form, `true` from JSON). */
export const ticked = (raw: unknown): boolean => raw === true || raw === 'on' || raw === 'true' || raw === '1';

/** A book as its form gives it. */
export interface BookDraft {
  titleEs: string;
  titleEn: string;
  author: string;
  descriptionEs: string;
  descriptionEn: string;
  priceCents: number;
  hidden: boolean;
}

/** Reads the book form (titles and descriptions in both languages, author, price, hidden). */
export function readBookForm(raw: Record<string, unknown>): Read<BookDraft> {
  const title = bilingual(raw, 'title', PRODUCT_TEXT_LIMITS.title);
  if (isProblem(title)) return { ok: false, problem: title };
  const author = textField(raw.author, 'author', PRODUCT_TEXT_LIMITS.author);
  if (isProblem(author)) return { ok: false, problem: author };
  const description = bilingual(raw, 'description', PRODUCT_TEXT_LIMITS.description);
  if (isProblem(description)) return { ok: false, problem: description };
  const price = readPrice(raw.price);
  if (!price.ok) return { ok: false, problem: { field: 'price', problem: price.problem } };
  return {
    ok: true,
    value: { titleEs: title.es, titleEn: title.en, author, descriptionEs: description.es, descriptionEn: description.en, priceCents: price.cents, hidden: ticked(raw.hidden) },
  };
}

/** A plan as its form gives it. */
export interface PlanDraft {
  nameEs: string;
  nameEn: string;
  descriptionEs: string;
  descriptionEn: string;
  featuresEs: string[];
  featuresEn: string[];
  priceCents: number;
  period: MembershipPeriod;
  unlocksCategoryIds: number[];
}

/** A list typed one item a line (blank lines dropped). */
function lines(raw: unknown): string[] {
  return typeof raw === 'string'
    ? raw
        .split(/\r\n?|\n/)
        .map((l) => l.trim())
        .filter((l) => l !== '')
    : [];
}

/** The features of one language: one a line, at most `MAX_PLAN_FEATURES`, each a short text. */
function features(raw: unknown, field: string): string[] | FormProblem {
  const list = lines(raw);
  if (list.length > MAX_PLAN_FEATURES) return { field, problem: 'tooManyFeatures' };
  for (const f of list) {
    const checked = textField(f, field, PRODUCT_TEXT_LIMITS.feature);
    if (isProblem(checked)) return checked;
  }
  return list;
}

/** Reads the plan form; `categoryIds` are the categories that exist (a ticked one that does not is refused). */
export function readPlanForm(raw: Record<string, unknown>, categoryIds: readonly number[]): Read<PlanDraft> {
  const name = bilingual(raw, 'name', PRODUCT_TEXT_LIMITS.title);
  if (isProblem(name)) return { ok: false, problem: name };
  const description = bilingual(raw, 'description', PRODUCT_TEXT_LIMITS.description);
  if (isProblem(description)) return { ok: false, problem: description };
  const es = features(raw.featuresEs, 'featuresEs');
  if (isProblem(es)) return { ok: false, problem: es };
  const en = features(raw.featuresEn, 'featuresEn');
  if (isProblem(en)) return { ok: false, problem: en };
  // Each feature is one line in both languages: a list longer in one of them lacks a translation.
  if (es.length !== en.length) return { ok: false, problem: { field: es.length > en.length ? 'featuresEn' : 'featuresEs', problem: 'featuresMismatch' } };
  const price = readPrice(raw.price);
  if (!price.ok) return { ok: false, problem: { field: 'price', problem: price.problem } };
  if (typeof raw.period !== 'string' || !(MEMBERSHIP_PERIODS as readonly string[]).includes(raw.period)) return { ok: false, problem: { field: 'period', problem: 'invalidPeriod' } };
  const ticks = Array.isArray(raw.categories) ? raw.categories : raw.categories === undefined || raw.categories === null || raw.categories === '' ? [] : [raw.categories];
  const unlocks: number[] = [];
  for (const t of ticks) {
    const id = typeof t === 'number' ? t : typeof t === 'string' && /^\d{1,10}$/.test(t.trim()) ? Number(t.trim()) : NaN;
    if (!categoryIds.includes(id)) return { ok: false, problem: { field: 'categories', problem: 'unknownCategory' } };
    if (!unlocks.includes(id)) unlocks.push(id);
  }
  if (unlocks.length === 0) return { ok: false, problem: { field: 'categories', problem: 'noCategory' } };
  unlocks.sort((a, b) => a - b);
  return {
    ok: true,
    value: {
      nameEs: name.es,
      nameEn: name.en,
      descriptionEs: description.es,
      descriptionEn: description.en,
      featuresEs: es,
      featuresEn: en,
      priceCents: price.cents,
      period: raw.period as MembershipPeriod,
      unlocksCategoryIds: unlocks,
    },
  };
}

/** What is missing of a product's translations (for the list's flag): the languages with an empty text. */
export function missingTranslations(texts: Record<'es' | 'en', readonly string[]>): ('es' | 'en')[] {
  return (['es', 'en'] as const).filter((l) => texts[l].some((t) => t.trim() === ''));
}

/* ───────────── uploaded files ───────────── */

/** Why a book PDF was refused. */
export type PdfRefusal = 'missing' | 'tooLarge' | 'notPdf';

/** Whether the bytes are a PDF (they start with `%PDF-`; its name and the browser's type are never believed). */
export function sniffPdf(bytes: Uint8Array): boolean {
  const magic = [0x25, 0x50, 0x44, 0x46, 0x2d];
  return bytes.length >= magic.length && magic.every((b, i) => bytes[i] === b);
}

/** The first reason to refuse a posted PDF, or null. */
export function pdfRefusal(file: { size: number; bytes: Uint8Array } | null, maxBytes: number): PdfRefusal | null {
  if (!file || file.size === 0) return 'missing';
  if (file.size > maxBytes) return 'tooLarge';
  return sniffPdf(file.bytes) ? null : 'notPdf';
}

/** The HTTP status of a refused upload: 413 for size, 415 for a kind of file not taken, 400 otherwise. */
export function uploadRefusalStatus(reason: string): 400 | 413 | 415 {
  if (reason === 'tooLarge') return 413;
  if (reason === 'notPdf' || reason === 'notImage') return 415;
  return 400;
}

/** The address uploaded covers are served under (`lib/media/uploaded-images`: the pictures staff upload). */
export const COVER_PATH_PREFIX = imagePathPrefix('book-cover');
/** The file name of book `bookId`'s uploaded cover whose bytes hash to `hash` (hex): a new cover is a new address. */
export const coverName = imageName;
/** Reads a cover's file name, or null for anything that is not one of ours. */
export const parseCoverName = parseImageName;
/** The storage key of an uploaded cover. */
export const coverKey = (name: string): string => imageKey('book-cover', name);
/** The address of an uploaded cover. */
export const coverUrl = (name: string): string => imageUrl('book-cover', name);
/** The storage key of an uploaded cover's address, or null for a demo cover under `public/`. */
export const storedCoverKey = (url: string): string | null => storedImageKey('book-cover', url);

/** The storage key of book `bookId`'s uploaded PDF whose bytes hash to `hash` (hex). */
export function bookPdfKey(bookId: number, hash: string): string {
  return `books/pdf/${bookId}-${hash.slice(0, 20)}.pdf`;
}

/* ───────────── the audit trail ───────────── */

/** The facts of a book the audit trail keeps (no free text: which fields changed, not what they say). */
export function bookFacts(b: { priceCents: number; hidden: boolean; cover: string; pdfKey: string | null }): Record<string, unknown> {
  return { priceCents: b.priceCents, hidden: b.hidden, cover: b.cover, pdf: b.pdfKey ?? 'drawn' };
}

/** The facts of a plan the audit trail keeps. */
export function planFacts(p: { priceCents: number; period: MembershipPeriod; unlocksCategoryIds: readonly number[]; featuresEs: readonly string[] }): Record<string, unknown> {
  return { priceCents: p.priceCents, period: p.period, unlocksCategoryIds: [...p.unlocksCategoryIds], features: p.featuresEs.length };
}

/** The names of the fields whose values differ between `before` and `after` (compared as JSON). */
export function changedFields<T extends Record<string, unknown>>(before: T, after: T, fields: readonly (keyof T & string)[]): string[] {
  return fields.filter((f) => JSON.stringify(before[f]) !== JSON.stringify(after[f]));
}
