/**
 * Books and plans managed by staff, on PGlite (and PostgreSQL when it answers), with the local storage
 * folder: a book created with its cover (re-encoded, stored, served by its own address) and edited
 * (price kept as exact cents, hidden from the catalogue), a cover that is not an image refused with
 * nothing written, a PDF upload that buyers then download instead of the drawn one (demo books keep
 * the drawn one), a plan's new price that never reaches what members pay at renewal, and every change
 * written to the audit trail with its before and after.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { testDatabases } from '../db/testing';
import type { DbHandle } from '../db/client';
import * as s from '../db/schema';
import { loadCatalog } from '../catalog';
import { createLocalStorage } from '../storage/local.server';
import { auditOf } from '../privacy/audit.server';
import { catalogChange, personChange } from '../runtime/changes';
import { es } from '~/i18n/es';
import type { ChargeRequest, PaymentGateway } from './gateway';
import { renewMembership } from './memberships.server';
import { bookFile } from './book.server';
import { categoryChoices, findBook, findPlan, loadBooksPage, saveBook, savePlan, setBookPdf } from './products.server';
import { readBookForm, readPlanForm, storedCoverKey, type BookDraft, type PlanDraft } from './products';

const databases = await testDatabases();
const root = await mkdtemp(join(tmpdir(), 'products-'));
afterAll(() => rm(root, { recursive: true, force: true }));

const png = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#2a9d8f' } }).png().toBuffer();
const upload = (bytes: Uint8Array | Buffer) => ({ size: bytes.length, bytes: new Uint8Array(bytes) });
const text = (t: string) => upload(Buffer.from(t));

function bookDraft(over: Record<string, unknown> = {}): BookDraft {
  const read = readBookForm({ titleEs: 'Vender con calma', titleEn: 'Selling calmly', author: 'Ana Ruiz', descriptionEs: 'Un libro. Dos ideas.', descriptionEn: 'A book. Two ideas.', price: '12.50', ...over });
  if (!read.ok) throw new Error(JSON.stringify(read.problem));
  return read.value;
}

async function bytesOf(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Uint8Array));
  return Buffer.concat(chunks);
}

describe.each(databases)('books and plans managed by staff on $name', ({ create }) => {
  let handle: DbHandle;
  let adminId: number;
  const storage = createLocalStorage(join(root, Math.random().toString(36).slice(2)));

  beforeAll(async () => {
    handle = await create({ seed: true });
    const [admin] = await handle.db.select().from(s.users).where(eq(s.users.email, 'admin@academia.example'));
    adminId = admin!.id;
  });
  afterAll(async () => handle?.close());

  it('creates a book with its cover re-encoded as a 400×600 WebP in storage, live in the catalogue, audited', async () => {
    const outcome = await saveBook(handle.db, storage, adminId, null, bookDraft(), upload(await png(900, 900)));
    expect(outcome.status).toBe('ok');
    if (outcome.status !== 'ok') return;
    expect(outcome.created).toBe(true);
    expect(outcome.changed).toEqual([catalogChange()]);
    const book = outcome.book;
    expect(book).toMatchObject({ titleEs: 'Vender con calma', titleEn: 'Selling calmly', priceCents: 1250, hidden: false, pdfKey: null, code: `BOOK-${book.id}` });
    expect(book.cover).toMatch(/^\/media\/book-cover\/\d+-[0-9a-f]{20}\.webp$/);
    const cover = await storage.get(storedCoverKey(book.cover)!);
    const meta = await sharp(await bytesOf(cover!.body)).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 400, 600]);
    const catalog = await loadCatalog(handle.db);
    expect(catalog.books.find((b) => b.id === book.id)).toMatchObject({ price: 12.5, cover: book.cover });
    const [event] = await auditOf(handle.db, `book:${book.id}`);
    expect(event).toMatchObject({ action: 'books.created', actor: `user:${adminId}`, after: { priceCents: 1250, hidden: false, cover: book.cover, pdf: 'drawn' } });
  });

  it('refuses an SVG, an HTML page renamed .png and no cover for a new book, writing nothing', async () => {
    const before = (await loadBooksPage(handle.db, null)).books.length;
    const svg = text('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    expect(await saveBook(handle.db, storage, adminId, null, bookDraft(), svg)).toEqual({ status: 'coverRefused', reason: 'notImage' });
    expect(await saveBook(handle.db, storage, adminId, null, bookDraft(), text('<!doctype html><p>hola</p>'))).toEqual({ status: 'coverRefused', reason: 'notImage' });
    expect(await saveBook(handle.db, storage, adminId, null, bookDraft(), null)).toEqual({ status: 'coverRefused', reason: 'coverRequired' });
    expect(await saveBook(handle.db, storage, adminId, 1, bookDraft(), upload(Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('but broken')])))).toEqual({ status: 'coverRefused', reason: 'unreadable' });
    expect((await loadBooksPage(handle.db, null)).books.length).toBe(before);
    expect(await findBook(handle.db, 1)).toMatchObject({ titleEs: 'El arte de viajar vendiendo', priceCents: 1490 });
  });

  it('edits a demo book: exact price, hidden from the books page and carts, its demo cover kept, before and after audited', async () => {
    const outcome = await saveBook(handle.db, storage, adminId, 2, bookDraft({ price: '0.29', hidden: 'on', titleEs: 'Emprender sin fronteras', titleEn: 'Entrepreneurship without borders' }), null);
    expect(outcome).toMatchObject({ status: 'ok', created: false, book: { id: 2, priceCents: 29, hidden: true, cover: '/images/books/2.webp' } });
    const [row] = await handle.db.select({ price: s.books.price }).from(s.books).where(eq(s.books.id, 2));
    expect(row!.price).toBe('0.29');
    expect((await loadCatalog(handle.db)).books.map((b) => b.id)).not.toContain(2);
    const events = await auditOf(handle.db, 'book:2', 'books.updated');
    expect(events.at(-1)).toMatchObject({ before: { priceCents: 1850, hidden: false }, after: { priceCents: 29, hidden: true, fields: expect.arrayContaining(['priceCents', 'hidden', 'author']) } });
    expect(await saveBook(handle.db, storage, adminId, 2_147_483_000, bookDraft(), null)).toEqual({ status: 'unknown' });
  });

  it('keeps an uploaded PDF (by its magic, within the limit) that buyers download from then on; demo books stay drawn', async () => {
    const [buyer] = await handle.db.select().from(s.users).where(eq(s.users.email, 'buyer@academia.example'));
    const get = (userId: number, id: string) => bookFile(handle.db, storage, userId, id, 'es', es.commerce.book, 'Academia');
    // Before the upload, the buyer's demo book 1 is drawn for them.
    const drawn = await get(buyer!.id, '1');
    expect(drawn?.kind).toBe('bytes');
    expect((await PDFDocument.load((drawn as { pdf: Uint8Array }).pdf)).getTitle()).toBe('El arte de viajar vendiendo');

    expect(await setBookPdf(handle.db, storage, adminId, 1, text('<html>not a pdf</html>'), 1000)).toEqual({ status: 'refused', reason: 'notPdf' });
    expect(await setBookPdf(handle.db, storage, adminId, 1, text(`%PDF-1.7\n${'x'.repeat(2000)}`), 1000)).toEqual({ status: 'refused', reason: 'tooLarge' });
    expect(await setBookPdf(handle.db, storage, adminId, 1, null, 1000)).toEqual({ status: 'refused', reason: 'missing' });
    expect(await setBookPdf(handle.db, storage, adminId, 9_999, text('%PDF-1.7\n'), 1000)).toEqual({ status: 'unknown' });
    expect((await findBook(handle.db, 1))?.pdfKey).toBeNull();

    const pdf = '%PDF-1.7\nour own book\n%%EOF';
    const outcome = await setBookPdf(handle.db, storage, adminId, 1, text(pdf), 1000);
    expect(outcome).toMatchObject({ status: 'ok', book: { pdfKey: expect.stringMatching(/^books\/pdf\/1-[0-9a-f]{20}\.pdf$/) } });
    // A file that only starts like a PDF cannot be stamped: it is served as uploaded.
    const got = await get(buyer!.id, '1');
    expect(got?.kind).toBe('stream');
    if (got?.kind !== 'stream') return;
    expect((await bytesOf(got.body)).toString()).toBe(pdf);
    expect(got.fileName).toBe('el-arte-de-viajar-vendiendo.pdf');
    // Still buyers only: someone who did not buy it gets nothing.
    const [learner] = await handle.db.select().from(s.users).where(eq(s.users.email, 'learner@academia.example'));
    expect(await get(learner!.id, '1')).toBeNull();
    // A real PDF replaces it (the first is removed from storage), and each buyer gets it with their licence line on every page.
    const first = (outcome as { book: { pdfKey: string } }).book.pdfKey;
    const real = await PDFDocument.create();
    real.setTitle('Our own book');
    real.addPage([300, 400]);
    real.addPage([300, 400]);
    const realBytes = await real.save();
    expect(await setBookPdf(handle.db, storage, adminId, 1, upload(realBytes), 100_000)).toMatchObject({ status: 'ok' });
    expect(await storage.stat(first)).toBeNull();
    const licensed = await get(buyer!.id, '1');
    expect(licensed?.kind).toBe('bytes');
    const back = await PDFDocument.load((licensed as { pdf: Uint8Array }).pdf);
    expect([back.getPageCount(), back.getTitle()]).toEqual([2, 'Our own book']);
    // The licence line is drawn with the embedded font on each page: each page has content of its own now.
    expect((licensed as { pdf: Uint8Array }).pdf.length).toBeGreaterThan(realBytes.length + 1000);
    expect((await auditOf(handle.db, 'book:1', 'books.pdf.replaced')).length).toBe(2);
  });

  it("a plan's new price is for new purchases: a member's renewal charges what they paid", async () => {
    const [learner] = await handle.db.select().from(s.users).where(eq(s.users.email, 'learner@academia.example'));
    const plan = (await findPlan(handle.db, 1))!;
    const endsAt = new Date('2026-12-01T00:00:00Z');
    const [membership] = await handle.db
      .insert(s.memberships)
      .values({ userId: learner!.id, planId: 1, startsAt: new Date('2026-11-01T00:00:00Z'), endsAt, period: 'month', priceCents: plan.priceCents, gateway: 'sandbox', gatewayToken: 'tok_saved' })
      .returning();
    const draft: PlanDraft = { ...planDraftOf(plan), priceCents: 4321, period: 'year' };
    const saved = await savePlan(handle.db, adminId, 1, draft);
    expect(saved).toMatchObject({ status: 'ok', plan: { priceCents: 4321, period: 'year' }, changed: [catalogChange()] });
    expect((await loadCatalog(handle.db)).plans.find((p) => p.id === 1)?.price).toBe(43.21);

    const charges: ChargeRequest[] = [];
    const gateway: PaymentGateway = {
      name: 'sandbox',
      tokenize: async () => ({ ok: false, status: 'declined' }) as never,
      charge: async (r) => (charges.push(r), { status: 'approved', chargeId: `ch_${charges.length}`, amountCents: r.amountCents }),
      lookup: async () => ({ status: 'none' }),
      refund: async () => ({ status: 'refunded' }) as never,
    };
    const renewed = await renewMembership(handle.db, gateway, membership!.id, new Date(endsAt.getTime() + 60_000));
    expect(renewed?.outcome).toBe('renewed');
    expect(charges.map((c) => c.amountCents)).toEqual([plan.priceCents]);
    const [after] = await handle.db.select().from(s.memberships).where(eq(s.memberships.id, membership!.id));
    // The same price and the month they bought: the plan's new yearly price does not reach them.
    expect([after!.priceCents, after!.period, after!.endsAt.toISOString()]).toEqual([plan.priceCents, 'month', '2027-01-01T00:00:00.000Z']);
    const events = await auditOf(handle.db, 'plan:1', 'plans.updated');
    expect(events.at(-1)).toMatchObject({ before: { priceCents: plan.priceCents, period: 'month' }, after: { priceCents: 4321, period: 'year', fields: ['priceCents', 'period'] } });
  });

  it('creates a plan, and opening other categories tells everyone their access changed', async () => {
    const categories = (await categoryChoices(handle.db)).map((c) => c.id);
    const read = readPlanForm({ nameEs: 'Total', nameEn: 'Total', descriptionEs: 'Todo.', descriptionEn: 'All.', featuresEs: 'Todo', featuresEn: 'All', price: '199', period: 'year', categories: categories.map(String) }, categories);
    if (!read.ok) throw new Error(JSON.stringify(read.problem));
    const created = await savePlan(handle.db, adminId, null, read.value);
    expect(created).toMatchObject({ status: 'ok', created: true, plan: { priceCents: 19900, unlocksCategoryIds: categories } });
    if (created.status !== 'ok') return;
    expect((await loadCatalog(handle.db)).plans.map((p) => p.id)).toContain(created.plan.id);
    const narrower = await savePlan(handle.db, adminId, created.plan.id, { ...read.value, unlocksCategoryIds: [categories[0]!] });
    expect(narrower).toMatchObject({ status: 'ok', changed: [catalogChange(), personChange({})] });
    expect(await savePlan(handle.db, adminId, 123_456, read.value)).toEqual({ status: 'unknown' });
  });
});

function planDraftOf(p: NonNullable<Awaited<ReturnType<typeof findPlan>>>): PlanDraft {
  return {
    nameEs: p.nameEs,
    nameEn: p.nameEn,
    descriptionEs: p.descriptionEs,
    descriptionEn: p.descriptionEn,
    featuresEs: p.featuresEs,
    featuresEn: p.featuresEn,
    priceCents: p.priceCents,
    period: p.period,
    unlocksCategoryIds: p.unlocksCategoryIds,
  };
}
