/**
 * Books and membership plans as staff manage them: listed with everything (hidden books too), created
 * and edited from their forms (`products.ts` reads them), a book's cover and PDF kept through the
 * storage interface. Every change is one transaction with its audit event (before and after), and
 * returns what changed: the catalogue (books page, plans page, cart prices, in every process) and, when
 * a plan opens other categories, every member's access.
 *
 * What members paid never follows a plan's new price: a membership keeps the price it was bought at
 * (`memberships.priceCents`) and its renewals charge that; the new price is for new purchases.
 */
import { createHash } from 'node:crypto';
import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { books, categories, plans, type Book, type Plan } from '../db/schema';
import { recordAudit, userRef } from '../privacy/audit.server';
import { catalogChange, personChange, type Change } from '../runtime/changes';
import type { Storage } from '../storage/storage';
import { reencodeImage } from '../identity/photo.server';
import type { PhotoRefusal } from '../identity/photo';
import { centsToDecimal, priceToCents } from './money';
import { bookFacts, bookPdfKey, changedFields, readProductId, COVER_SIZE, coverKey, coverName, coverUrl, pdfRefusal, planFacts, storedCoverKey, type BookDraft, type PdfRefusal, type PlanDraft } from './products';

/** A book as staff see it: every column, the price in cents. */
export type StaffBook = Omit<Book, 'price'> & { priceCents: number };
/** A plan as staff see it. */
export type StaffPlan = Omit<Plan, 'price'> & { priceCents: number };

const staffBook = (b: Book): StaffBook => {
  const { price, ...rest } = b;
  return { ...rest, priceCents: priceToCents(price) };
};
const staffPlan = (p: Plan): StaffPlan => {
  const { price, ...rest } = p;
  return { ...rest, priceCents: priceToCents(price) };
};

/** Every book, hidden ones included, by id. */
export async function listBooks(db: Db): Promise<StaffBook[]> {
  return (await db.select().from(books).orderBy(asc(books.id))).map(staffBook);
}

/** One book, or null. */
export async function findBook(db: Db, id: number): Promise<StaffBook | null> {
  const [row] = await db.select().from(books).where(eq(books.id, id)).limit(1);
  return row ? staffBook(row) : null;
}

/** Every plan, by id. */
export async function listPlans(db: Db): Promise<StaffPlan[]> {
  return (await db.select().from(plans).orderBy(asc(plans.id))).map(staffPlan);
}

/** One plan, or null. */
export async function findPlan(db: Db, id: number): Promise<StaffPlan | null> {
  const [row] = await db.select().from(plans).where(eq(plans.id, id)).limit(1);
  return row ? staffPlan(row) : null;
}

/** The categories a plan may unlock, in the catalogue's order. */
export async function categoryChoices(db: Db): Promise<{ id: number; nameEs: string; nameEn: string }[]> {
  return db.select({ id: categories.id, nameEs: categories.nameEs, nameEn: categories.nameEn }).from(categories).orderBy(asc(categories.position), asc(categories.id));
}

/** A file posted by a form. */
export interface Upload {
  size: number;
  bytes: Uint8Array;
}

const hashOf = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export type SaveBookOutcome = { status: 'ok'; book: StaffBook; created: boolean; changed: Change[] } | { status: 'unknown' } | { status: 'coverRefused'; reason: PhotoRefusal | 'coverRequired' };

/**
 * Creates (`id` null) or edits book `id` from its form, with a new cover when one was posted (checked
 * and re-encoded as a 400×600 WebP before anything is written; a refused cover writes nothing). A new
 * book needs its cover; it has no PDF of its own yet: buyers get the one drawn from its description
 * until one is uploaded.
 */
export async function saveBook(db: Db, storage: Storage, actorId: number, id: number | null, draft: BookDraft, cover: Upload | null, now = new Date()): Promise<SaveBookOutcome> {
  let webp: Buffer | null = null;
  if (id === null && !cover) return { status: 'coverRefused', reason: 'coverRequired' };
  if (cover) {
    const made = await reencodeImage(cover, COVER_SIZE.width, COVER_SIZE.height);
    if (!made.ok) return { status: 'coverRefused', reason: made.reason };
    webp = made.webp;
  }
  const values = {
    titleEs: draft.titleEs,
    titleEn: draft.titleEn,
    author: draft.author,
    descriptionEs: draft.descriptionEs,
    descriptionEn: draft.descriptionEn,
    price: centsToDecimal(draft.priceCents),
    hidden: draft.hidden,
    updatedAt: now,
  };
  // The cover's bytes are stored first, under a name of its own: a book never points at a missing file.
  const storeCover = async (bookId: number): Promise<string | null> => {
    if (!webp) return null;
    const name = coverName(bookId, hashOf(webp));
    await storage.put(coverKey(name), webp, { contentType: 'image/webp' });
    return coverUrl(name);
  };
  if (id === null) {
    const result = await db.transaction(async (tx) => {
      // Serialises new ids (books' ids are the catalogue's, not a sequence's).
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('books.create'))`);
      const [{ next } = { next: 1 }] = await tx.select({ next: sql<number>`coalesce(max(${books.id}), 0) + 1` }).from(books);
      const newId = Number(next);
      const url = (await storeCover(newId))!;
      const [row] = await tx
        .insert(books)
        .values({ id: newId, code: `BOOK-${newId}`, ...values, cover: url })
        .returning();
      const book = staffBook(row!);
      await recordAudit(tx, { action: 'books.created', actor: userRef(actorId), subject: `book:${newId}`, after: bookFacts(book), at: now });
      return book;
    });
    return { status: 'ok', book: result, created: true, changed: [catalogChange()] };
  }
  const before = await findBook(db, id);
  if (!before) return { status: 'unknown' };
  const url = await storeCover(id);
  const result = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(books)
      .set({ ...values, ...(url ? { cover: url } : {}) })
      .where(eq(books.id, id))
      .returning();
    if (!row) return null;
    const book = staffBook(row);
    const fields = changedFields(before, book, ['titleEs', 'titleEn', 'author', 'descriptionEs', 'descriptionEn', 'priceCents', 'hidden', 'cover']);
    await recordAudit(tx, { action: 'books.updated', actor: userRef(actorId), subject: `book:${id}`, before: bookFacts(before), after: { ...bookFacts(book), fields }, at: now });
    return book;
  });
  if (!result) return { status: 'unknown' };
  // The replaced cover is no longer named anywhere (a demo cover under `public/` stays).
  const old = storedCoverKey(before.cover);
  if (url && old && old !== storedCoverKey(url)) await storage.delete(old).catch(() => undefined);
  return { status: 'ok', book: result, created: false, changed: [catalogChange()] };
}

export type PdfOutcome = { status: 'ok'; book: StaffBook; changed: Change[] } | { status: 'unknown' } | { status: 'refused'; reason: PdfRefusal };

/**
 * Keeps `file` as book `id`'s PDF (a `%PDF-` file of at most `maxBytes`), stored under a key made of
 * the book's id and the bytes' hash (never the name it was uploaded under); buyers download it from
 * then on. The PDF it replaces is removed once the book names the new one.
 */
export async function setBookPdf(db: Db, storage: Storage, actorId: number, id: number, file: Upload | null, maxBytes: number, now = new Date()): Promise<PdfOutcome> {
  const before = await findBook(db, id);
  if (!before) return { status: 'unknown' };
  const refused = pdfRefusal(file, maxBytes);
  if (refused) return { status: 'refused', reason: refused };
  const key = bookPdfKey(id, hashOf(file!.bytes));
  await storage.put(key, file!.bytes, { contentType: 'application/pdf' });
  const book = await db.transaction(async (tx) => {
    const [row] = await tx.update(books).set({ pdfKey: key, updatedAt: now }).where(eq(books.id, id)).returning();
    if (!row) return null;
    const after = staffBook(row);
    await recordAudit(tx, { action: 'books.pdf.replaced', actor: userRef(actorId), subject: `book:${id}`, before: { pdf: before.pdfKey ?? 'drawn' }, after: { pdf: key, sizeBytes: file!.size }, at: now });
    return after;
  });
  if (!book) return { status: 'unknown' };
  if (before.pdfKey && before.pdfKey !== key) await storage.delete(before.pdfKey).catch(() => undefined);
  return { status: 'ok', book, changed: [catalogChange()] };
}

export type SavePlanOutcome = { status: 'ok'; plan: StaffPlan; created: boolean; changed: Change[] } | { status: 'unknown' };

/**
 * Creates (`id` null) or edits plan `id`. Members keep what they paid: their memberships hold their own
 * price and period, which renewals charge. When the categories a plan unlocks change, every member's
 * access changes with them (told as a change of everyone's access).
 */
export async function savePlan(db: Db, actorId: number, id: number | null, draft: PlanDraft, now = new Date()): Promise<SavePlanOutcome> {
  const values = {
    nameEs: draft.nameEs,
    nameEn: draft.nameEn,
    descriptionEs: draft.descriptionEs,
    descriptionEn: draft.descriptionEn,
    featuresEs: draft.featuresEs,
    featuresEn: draft.featuresEn,
    price: centsToDecimal(draft.priceCents),
    period: draft.period,
    unlocksCategoryIds: draft.unlocksCategoryIds,
    updatedAt: now,
  };
  if (id === null) {
    const plan = await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('plans.create'))`);
      const [{ next } = { next: 1 }] = await tx.select({ next: sql<number>`coalesce(max(${plans.id}), 0) + 1` }).from(plans);
      const newId = Number(next);
      const [row] = await tx
        .insert(plans)
        .values({ id: newId, code: `PLAN-${newId}`, ...values })
        .returning();
      const created = staffPlan(row!);
      await recordAudit(tx, { action: 'plans.created', actor: userRef(actorId), subject: `plan:${newId}`, after: planFacts(created), at: now });
      return created;
    });
    return { status: 'ok', plan, created: true, changed: [catalogChange()] };
  }
  const before = await findPlan(db, id);
  if (!before) return { status: 'unknown' };
  const plan = await db.transaction(async (tx) => {
    const [row] = await tx.update(plans).set(values).where(eq(plans.id, id)).returning();
    if (!row) return null;
    const after = staffPlan(row);
    const fields = changedFields(before, after, ['nameEs', 'nameEn', 'descriptionEs', 'descriptionEn', 'featuresEs', 'featuresEn', 'priceCents', 'period', 'unlocksCategoryIds']);
    await recordAudit(tx, { action: 'plans.updated', actor: userRef(actorId), subject: `plan:${id}`, before: planFacts(before), after: { ...planFacts(after), fields }, at: now });
    return after;
  });
  if (!plan) return { status: 'unknown' };
  const unlocksChanged = JSON.stringify(before.unlocksCategoryIds) !== JSON.stringify(plan.unlocksCategoryIds);
  return { status: 'ok', plan, created: false, changed: unlocksChanged ? [catalogChange(), personChange({})] : [catalogChange()] };
}


/** What the books page of the back office shows: every book, and the one its form edits (`unknown`: an id that is no book's). */
export async function loadBooksPage(db: Db, rawId: string | null): Promise<{ books: StaffBook[]; editing: StaffBook | null | 'unknown' }> {
  const list = await listBooks(db);
  if (rawId === null) return { books: list, editing: null };
  const id = readProductId(rawId);
  return { books: list, editing: (id.ok && id.value !== null && list.find((b) => b.id === id.value)) || 'unknown' };
}

/** What the plans page of the back office shows: every plan, the categories, and the plan its form edits. */
export async function loadPlansPage(db: Db, rawId: string | null): Promise<{ plans: StaffPlan[]; categories: Awaited<ReturnType<typeof categoryChoices>>; editing: StaffPlan | null | 'unknown' }> {
  const [list, cats] = await Promise.all([listPlans(db), categoryChoices(db)]);
  if (rawId === null) return { plans: list, categories: cats, editing: null };
  const id = readProductId(rawId);
  return { plans: list, categories: cats, editing: (id.ok && id.value !== null && list.find((p) => p.id === id.value)) || 'unknown' };
}
