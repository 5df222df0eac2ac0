/**
 * Staff's books and membership plans (editors, and administrators through the policy): save a book
 * (created when the form has no id) with its cover, upload a book's PDF, save a plan. Forms are
 * multipart posts that work without JavaScript. Every refusal is a sentence in the page's language with
 * a 4xx (a bad price or text 400, an unknown id 404, a file too large 413, a file of another kind 415),
 * and nothing is written; every change is in the audit trail and reaches every process at once (the
 * catalogue change the domain functions return). Access, limits and language: `access.ts`.
 */
import { ActionError } from 'astro:actions';
import { action } from './kit';
import { format, DEFAULT_LOCALE, LOCALES } from '~/i18n';
import type { Messages } from '~/i18n/types';
import { readBookForm, readPlanForm, readProductId, uploadRefusalStatus, type FormProblem } from '~/lib/commerce/products';
import { categoryChoices, saveBook, savePlan, setBookPdf, type Upload } from '~/lib/commerce/products.server';
import { z } from '~/lib/zod';

const lang = z.enum(LOCALES).catch(DEFAULT_LOCALE);
/** Every field is read by the pure form readers (`products.ts`), which say what is wrong in the staff's words. */
const anything = z.unknown();

const bookSchema = z.object({
  id: anything,
  titleEs: anything,
  titleEn: anything,
  author: anything,
  descriptionEs: anything,
  descriptionEn: anything,
  price: anything,
  hidden: anything,
  cover: anything,
  lang,
});
const pdfSchema = z.object({ id: anything, pdf: anything, lang });
const planSchema = z.object({
  id: anything,
  nameEs: anything,
  nameEn: anything,
  descriptionEs: anything,
  descriptionEn: anything,
  featuresEs: anything,
  featuresEn: anything,
  price: anything,
  period: anything,
  categories: z.array(z.unknown()).optional(),
  lang,
});

/** The 400 of a form's problem, naming its field. */
function formError(t: Messages, p: FormProblem): ActionError {
  const field = (t.products.fields as Record<string, string>)[p.field] ?? p.field;
  return new ActionError({ code: 'BAD_REQUEST', message: format(t.products.problems[p.problem], { field }) });
}

/** The error of a refused upload: 413 (too large), 415 (another kind of file) or 400, with its sentence. */
function uploadError(reason: string, message: string): ActionError {
  const status = uploadRefusalStatus(reason);
  return new ActionError({ code: status === 413 ? 'CONTENT_TOO_LARGE' : status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : 'BAD_REQUEST', message });
}

/** A posted file, or null for none (an empty file input posts a file of no bytes). */
async function upload(value: unknown): Promise<Upload | null> {
  if (!(value instanceof File) || value.size === 0) return null;
  return { size: value.size, bytes: new Uint8Array(await value.arrayBuffer()) };
}

const notFound = (message: string) => new ActionError({ code: 'NOT_FOUND', message });

export const books = {
  /** Creates a book (no id: its cover is required) or edits one (a cover posted replaces the current one). */
  save: action('books.save', {
    accept: 'form',
    input: bookSchema,
    handler: async (input, { person, runtime, t }) => {
      const id = readProductId(input.id);
      if (!id.ok) throw formError(t, id.problem);
      const form = readBookForm(input);
      if (!form.ok) throw formError(t, form.problem);
      const outcome = await saveBook(runtime.db, runtime.storage, person.userId, id.value, form.value, await upload(input.cover));
      if (outcome.status === 'unknown') throw notFound(t.products.books.unknown);
      if (outcome.status === 'coverRefused') throw uploadError(outcome.reason, t.products.cover[outcome.reason]);
      return { message: outcome.created ? t.products.books.created : t.products.books.saved, id: outcome.book.id, changed: outcome.changed };
    },
  }),

  /** Keeps a book's own PDF (`%PDF-`, at most `BOOK_PDF_MAX_MB`): its buyers download it from then on. */
  uploadPdf: action('books.uploadPdf', {
    accept: 'form',
    input: pdfSchema,
    handler: async (input, { person, runtime, t }) => {
      const id = readProductId(input.id);
      if (!id.ok || id.value === null) throw notFound(t.products.books.unknown);
      const max = runtime.config.bookPdfMaxBytes;
      const outcome = await setBookPdf(runtime.db, runtime.storage, person.userId, id.value, await upload(input.pdf), max);
      if (outcome.status === 'unknown') throw notFound(t.products.books.unknown);
      if (outcome.status === 'refused') throw uploadError(outcome.reason, format(t.products.pdf[outcome.reason], { mb: Math.round(max / 1024 / 1024) }));
      return { message: t.products.books.pdfSaved, id: outcome.book.id, changed: outcome.changed };
    },
  }),
};

export const plans = {
  /** Creates a plan (no id) or edits one; members keep what they paid (see `products.server.ts`). */
  save: action('plans.save', {
    accept: 'form',
    input: planSchema,
    handler: async (input, { person, runtime, t }) => {
      const id = readProductId(input.id);
      if (!id.ok) throw formError(t, id.problem);
      const categories = (await categoryChoices(runtime.db)).map((c) => c.id);
      const form = readPlanForm(input, categories);
      if (!form.ok) throw formError(t, form.problem);
      const outcome = await savePlan(runtime.db, person.userId, id.value, form.value);
      if (outcome.status === 'unknown') throw notFound(t.products.plans.unknown);
      return { message: outcome.created ? t.products.plans.created : t.products.plans.saved, id: outcome.plan.id, changed: outcome.changed };
    },
  }),
};
