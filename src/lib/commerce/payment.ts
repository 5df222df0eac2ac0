/**
 * The card payment form's rules: card numbers (normalization, Luhn, brand by IIN range), expiry and
 * birth-year lists, CVV, the checkout form's zod schema with an error code per field,
 * and what may be kept about a card (brand, last 4, expiry: never the number or the CVV).
 * Pure: no I/O, safe in the browser (the form's island validates with this very schema).
 *
 * Dates are read in UTC, so the browser and the server offer the same years whatever their zone.
 */
import { z } from '../zod';
import { firstErrors, firstInvalid, formErrorText, formText, issuesOfFields, type FieldIssue, type FormErrorCode, type FormMessages } from '~/lib/forms/forms';
import { COUNTRIES, type CountryCode } from '~/lib/contact/contact';

/* ───────────── card numbers ───────────── */

/** The card brands the form recognizes. */
export const CARD_BRANDS = ['visa', 'mastercard', 'amex', 'discover', 'diners', 'jcb', 'unknown'] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];

/** The shortest and longest card numbers (ISO/IEC 7812). */
export const CARD_NUMBER_MIN = 12;
export const CARD_NUMBER_MAX = 19;

/**
 * The digits of a typed card number: spaces and hyphens (how people and autofill group them) are
 * removed; any other character makes it unreadable (null).
 */
export function normalizeCardNumber(raw: string): string | null {
  const digits = raw.replace(/[\s-]/g, '');
  return /^[0-9]*$/.test(digits) ? digits : null;
}

/**
 * A card number as typed, grouped as printed on the card: American Express 4-6-5, every other brand in
 * fours (a 19th digit alone); digits past what a card holds stay, in one last group, for the check to
 * refuse. Anything but digits, spaces and dashes leaves it as typed (the check then says what is wrong).
 */
export function groupCardNumber(raw: string): string {
  const digits = normalizeCardNumber(raw);
  if (digits === null) return raw;
  const sizes = cardBrand(digits) === 'amex' ? [4, 6, 5] : [4, 4, 4, 4, 3];
  const groups: string[] = [];
  let at = 0;
  for (const size of sizes) {
    if (at >= digits.length) break;
    groups.push(digits.slice(at, at + size));
    at += size;
  }
  if (at < digits.length) groups.push(digits.slice(at));
  return groups.join(' ');
}

/** Where the caret goes in `grouped` so that `digitsBefore` digits stay before it (after regrouping). */
export function caretAfterDigits(grouped: string, digitsBefore: number): number {
  if (digitsBefore <= 0) return 0;
  let seen = 0;
  for (let i = 0; i < grouped.length; i++) {
    if (/[0-9]/.test(grouped[i]!) && ++seen === digitsBefore) return i + 1;
  }
  return grouped.length;
}

/** The Luhn (mod 10) check of a string of digits. */
export function luhnValid(digits: string): boolean {
  if (!/^[0-9]+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** IIN ranges of each brand: [first, last] prefixes of the same length, and the lengths it issues. */
const BRAND_RANGES: readonly { brand: Exclude<CardBrand, 'unknown'>; ranges: readonly (readonly [number, number])[]; lengths: readonly number[] }[] = [
  { brand: 'amex', ranges: [[34, 34], [37, 37]], lengths: [15] },
  { brand: 'visa', ranges: [[4, 4]], lengths: [13, 16, 19] },
  { brand: 'mastercard', ranges: [[51, 55], [2221, 2720]], lengths: [16] },
  { brand: 'discover', ranges: [[6011, 6011], [644, 649], [65, 65], [622126, 622925]], lengths: [16, 17, 18, 19] },
  { brand: 'diners', ranges: [[300, 305], [3095, 3095], [36, 36], [38, 39]], lengths: [14, 15, 16, 17, 18, 19] },
  { brand: 'jcb', ranges: [[3528, 3589]], lengths: [16, 17, 18, 19] },
];

/** The brand of a card number (digits only; a partial number is enough once its prefix is typed). */
export function cardBrand(digits: string): CardBrand {
  for (const { brand, ranges } of BRAND_RANGES) {
    for (const [first, last] of ranges) {
      const width = String(first).length;
      if (digits.length < width) continue;
      const prefix = Number(digits.slice(0, width));
      if (prefix >= first && prefix <= last) return brand;
    }
  }
  return 'unknown';
}

/** The lengths a brand issues (an unknown brand: any ISO length). */
export function cardLengths(brand: CardBrand): readonly number[] {
  const known = BRAND_RANGES.find((b) => b.brand === brand);
  return known ? known.lengths : Array.from({ length: CARD_NUMBER_MAX - CARD_NUMBER_MIN + 1 }, (_, i) => CARD_NUMBER_MIN + i);
}

/** The last four digits of a card number (what receipts and the order page show). */
export function lastFour(digits: string): string {
  return digits.slice(-4);
}

/** The number shown masked, as on a receipt: "•••• 4242". */
export function maskedCard(last4: string): string {
  return `•••• ${last4}`;
}

/* ───────────── expiry, CVV, birth year ───────────── */

/** How many expiry years the form offers: the current one and the next 29, 30 in all. */
export const EXPIRY_YEAR_COUNT = 30;
/** The months of the expiry select, 1 to 12 (shown as "01"…"12"). */
export const EXPIRY_MONTHS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] as const;

/** The expiry years the form offers at `now`, in ascending order. */
export function expiryYears(now: Date): number[] {
  const year = now.getUTCFullYear();
  return Array.from({ length: EXPIRY_YEAR_COUNT }, (_, i) => year + i);
}

/** A month as the select shows it ("01"). */
export function monthLabel(month: number): string {
  return String(month).padStart(2, '0');
}

/** Whether a card expired before `now`: a card is good through the last day of its expiry month. */
export function isExpired(month: number, year: number, now: Date): boolean {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth() + 1;
  return year < y || (year === y && month < m);
}

/** How many birth years the form offers, and how long ago the list starts (81 years, starting 18 years ago). */
export const BIRTH_YEAR_COUNT = 81;
export const BIRTH_YEAR_MIN_AGE = 18;

/** The birth years the form offers at `now`: from 18 years ago backwards, 81 years, newest first. */
export function birthYears(now: Date): number[] {
  const start = now.getUTCFullYear() - BIRTH_YEAR_MIN_AGE;
  return Array.from({ length: BIRTH_YEAR_COUNT }, (_, i) => start - i);
}

/** The CVV length of a brand: 4 on American Express (the front CID), 3 on every other card. */
export function cvvLength(brand: CardBrand): number {
  return brand === 'amex' ? 4 : 3;
}

/** The CVV's own error, if any, for a card of `brand`. */
export function cvvError(cvv: string, brand: CardBrand): 'required' | 'cvvDigits' | 'cvvLength' | undefined {
  if (cvv === '') return 'required';
  if (!/^[0-9]+$/.test(cvv)) return 'cvvDigits';
  return cvv.length === cvvLength(brand) ? undefined : 'cvvLength';
}

/** The card number's error, if any: unreadable, wrong length for its brand, failing Luhn, or of a brand we do not take. */
export function cardNumberError(raw: string): 'required' | 'cardDigits' | 'cardBrand' | 'cardLength' | 'cardLuhn' | undefined {
  const digits = normalizeCardNumber(raw);
  if (digits === '') return 'required';
  if (digits === null) return 'cardDigits';
  const brand = cardBrand(digits);
  if (brand === 'unknown') return 'cardBrand';
  if (!cardLengths(brand).includes(digits.length)) return 'cardLength';
  return luhnValid(digits) ? undefined : 'cardLuhn';
}

/* ───────────── the checkout form ───────────── */

/** Limits of the form's text fields. */
export const CHECKOUT_LIMITS = { cardholderName: 60, identificationNumber: 20 } as const;

/** The form's fields, in page order (the first invalid one gets the focus). */
/**
 * Told on the checkout page when a coupon was applied or removed in place (the summary swapped without
 * a reload): the payment form takes the coupon it posts and the total its button shows from it.
 */
export const COUPON_CHANGED_EVENT = 'checkout:coupon';
export interface CouponChanged {
  coupon: string | null;
  total: string;
}

/**
 * The payment form's id: the summary's coupon field and its buttons belong to that form (the `form`
 * attribute), so applying a coupon without JavaScript posts what was typed with it.
 */
export const CHECKOUT_FORM_ID = 'checkout-form';
/** The name of the coupon field as typed (the form's `coupon` is the one applied, which pays). */
export const COUPON_FIELD = 'couponCode';
/** What a no-JavaScript post asks of the checkout page instead of paying: apply the typed coupon, or remove it. */
export const CHECKOUT_INTENTS = ['apply-coupon', 'remove-coupon'] as const;
export type CheckoutIntent = (typeof CHECKOUT_INTENTS)[number];

/** The intent a posted checkout form names (the button pressed), or null (pay). */
export function checkoutIntent(value: unknown): CheckoutIntent | null {
  return (CHECKOUT_INTENTS as readonly unknown[]).includes(value) ? (value as CheckoutIntent) : null;
}

export const CHECKOUT_FIELDS = [
  'cardholderName',
  'cardNumber',
  'expiryMonth',
  'expiryYear',
  'cvv',
  'birthYear',
  'identificationType',
  'identificationNumber',
  'country',
  'acceptsTerms',
  'idempotencyKey',
] as const;
export type CheckoutField = (typeof CHECKOUT_FIELDS)[number];

/** The first error of each field that has one (codes of the forms' one vocabulary). */
export type CheckoutErrors = Partial<Record<CheckoutField, FormErrorCode>>;

const COUNTRY_CODES = COUNTRIES.map((c) => c.code) as [CountryCode, ...CountryCode[]];

/** A required single-line text, trimmed, inner runs of spaces folded. */
const line = (max: number) =>
  formText({ error: 'required' })
    .trim()
    .overwrite((v) => v.replace(/\s+/g, ' '))
    .min(1, 'required')
    .max(max, 'tooLong');

/**
 * A select's value (a string, or a number from a script): empty is `required`; anything that is not
 * a whole number accepted by `accepts` is `invalidOption`.
 */
const selected = (accepts: (n: number) => boolean) =>
  z.unknown().transform((v, ctx) => {
    if (v === '' || v === undefined || v === null) {
      ctx.addIssue({ code: 'custom', message: 'required' });
      return z.NEVER;
    }
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^[0-9]{1,10}$/.test(v.trim()) ? Number(v) : Number.NaN;
    if (!Number.isInteger(n) || !accepts(n)) {
      ctx.addIssue({ code: 'custom', message: 'invalidOption' });
      return z.NEVER;
    }
    return n;
  });

/** One of a list of options. */
const choice = (options: readonly number[]) => selected((n) => options.includes(n));

/** Anything the browser sends for a checked checkbox counts as checked; absence is unchecked. */
const checkbox = z.preprocess((v) => v === true || v === 'on' || v === 'true', z.boolean());

/**
 * The checkout form as of `now` (its expiry and birth-year lists move with the date). The card number
 * comes out as digits only; the CVV is checked against the card's brand (4 digits for amex) and the
 * expiry against `now`. `identificationType` must also exist among the identification types: that
 * check needs the database and belongs to the server. Unknown fields are dropped.
 */
export function checkoutFormSchema(now: Date) {
  const years = expiryYears(now);
  return z
    .object({
      cardholderName: line(CHECKOUT_LIMITS.cardholderName),
      cardNumber: formText({ error: 'required' })
        .superRefine((v, ctx) => {
          const error = cardNumberError(v);
          if (error) ctx.addIssue({ code: 'custom', message: error, abort: true });
        })
        .transform((v) => normalizeCardNumber(v) ?? ''),
      expiryMonth: choice(EXPIRY_MONTHS),
      expiryYear: choice(years),
      cvv: formText({ error: 'required' }).trim().min(1, 'required').regex(/^[0-9]+$/, 'cvvDigits'),
      birthYear: choice(birthYears(now)),
      // Identification types come from the database, named in each language; the bound keeps a forged id in PostgreSQL's integer range.
      identificationType: selected((n) => n >= 1 && n <= 2_147_483_647),
      identificationNumber: line(CHECKOUT_LIMITS.identificationNumber).regex(/^[A-Za-z0-9-]+$/, 'identificationCharacters'),
      country: z.enum(COUNTRY_CODES, { error: (iss) => (iss.input === undefined || iss.input === '' ? 'required' : 'invalidOption') }),
      acceptsTerms: checkbox.refine((v) => v, 'mustAcceptTerms'),
      idempotencyKey: z.uuid({ error: 'invalidKey' }),
    })
    // Cross-field checks run whenever the fields they read are valid, even if others are not, so
    // every error shows at once.
    .superRefine(
      (form, ctx) => {
        // The card's brand decides the length (4 on amex); with no readable card yet, 3 or 4 will do.
        const cardRead = !ctx.issues.some((i) => i.path?.[0] === 'cardNumber');
        const fits = cardRead ? form.cvv.length === cvvLength(cardBrand(form.cardNumber)) : form.cvv.length === 3 || form.cvv.length === 4;
        if (!fits) ctx.addIssue({ code: 'custom', message: 'cvvLength', path: ['cvv'] });
      },
      { when: ({ issues }) => !issues.some((i) => i.path?.[0] === 'cvv') },
    )
    .superRefine(
      (form, ctx) => {
        if (isExpired(form.expiryMonth, form.expiryYear, now)) ctx.addIssue({ code: 'custom', message: 'expired', path: ['expiryMonth'] });
      },
      { when: ({ issues }) => !issues.some((i) => i.path?.[0] === 'expiryMonth' || i.path?.[0] === 'expiryYear') },
    );
}

/** A valid checkout form. */
export type CheckoutForm = z.output<ReturnType<typeof checkoutFormSchema>>;

function isField(value: unknown): value is CheckoutField {
  return typeof value === 'string' && (CHECKOUT_FIELDS as readonly string[]).includes(value);
}

/** The first error code of each field from zod issues. */
export function checkoutErrorsFromIssues(issues: readonly FieldIssue[]): CheckoutErrors {
  return firstErrors(issues, (key) => (isField(key) ? key : undefined));
}

/** The same, from the `{ field: [code, …] }` map an Astro input error carries. */
export function checkoutErrorsFromFields(fields: Record<string, readonly string[] | undefined>): CheckoutErrors {
  return checkoutErrorsFromIssues(issuesOfFields(fields));
}

/** The schema of the current month, kept: its lists and expiry check change only with the month, and building one costs far more than using it. */
let kept: { month: string; schema: ReturnType<typeof checkoutFormSchema> } | null = null;
function schemaOf(now: Date): ReturnType<typeof checkoutFormSchema> {
  const month = `${now.getUTCFullYear()}-${now.getUTCMonth()}`;
  if (kept?.month !== month) kept = { month, schema: checkoutFormSchema(now) };
  return kept.schema;
}

/** Validates the form at `now`; the result carries either the clean form or each field's error. */
export function validateCheckoutForm(input: unknown, now: Date): { success: true; data: CheckoutForm } | { success: false; errors: CheckoutErrors } {
  const parsed = schemaOf(now).safeParse(input);
  return parsed.success ? { success: true, data: parsed.data } : { success: false, errors: checkoutErrorsFromIssues(parsed.error.issues) };
}

/**
 * The sentence for a checkout error code ('Card number field is required' …): `labels` name the fields,
 * the CVV's length follows the card's brand.
 */
export function checkoutErrorText(t: FormMessages['errors'], labels: Partial<Record<CheckoutField, string>>, field: CheckoutField, code: FormErrorCode, brand: CardBrand): string {
  return formErrorText(t, code, {
    field: labels[field],
    max: field in CHECKOUT_LIMITS ? CHECKOUT_LIMITS[field as keyof typeof CHECKOUT_LIMITS] : undefined,
    length: cvvLength(brand),
  });
}

/** The field that should receive the focus: the first one, in page order, that has an error. */
export function firstInvalidCheckoutField(errors: CheckoutErrors): CheckoutField | undefined {
  return firstInvalid(CHECKOUT_FIELDS, errors);
}

/* ───────────── what may be kept ───────────── */

/** All that may be stored or logged about a card. */
export interface StoredCard {
  brand: CardBrand;
  last4: string;
  expiryMonth: number;
  expiryYear: number;
}

/**
 * Keeps only what may be stored about a card: brand, last 4 and expiry. The number and the CVV are
 * dropped here, so nothing past this point can write them anywhere.
 */
export function storableCard(card: { cardNumber: string; expiryMonth: number; expiryYear: number }): StoredCard {
  const digits = normalizeCardNumber(card.cardNumber) ?? '';
  return { brand: cardBrand(digits), last4: lastFour(digits), expiryMonth: card.expiryMonth, expiryYear: card.expiryYear };
}
