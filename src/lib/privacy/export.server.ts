/**
 * The archive of a person's own data: asked for from "My data" (a row, its job and an audit record in
 * one transaction), built by a background job into the storage (`exports/<id>.zip`) and mailed as a
 * link valid for a week, downloaded only by its owner's session.
 *
 * The job survives `kill -9` at any line: the archive is stored whole or not at all, the row is marked
 * ready after it exists, and the mail goes out before the row is marked mailed (with the
 * same link and the same Message-ID if a crash repeats it, so a mail server keeps one message). Each
 * step first checks whether it was done.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { and, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { format, messages, type Locale } from '~/i18n';
import type { Db } from '../db/client';
import { certificates, contactMessages, contacts, courses, dataExports, evaluations, examAttempts, ibos, jobs, subtopics, tracking, users, type DataExport } from '../db/schema';
import { loadCatalog } from '../catalog/catalog.server';
import { certificateFacts, certificateUrls } from '../certificates/certificates';
import { orderNumber } from '../commerce/checkout';
import { ordersOf } from '../commerce/orders.server';
import { receiptFacts } from '../commerce/receipt';
import type { MailMessage, MailReceipt } from '../mail/mail';
import { paths } from '../paths';
import { mailLocale } from '../identity/account';
import { recordAudit, userRef } from './audit.server';
import { linkTokenHash, type ExportLinks } from './links.server';
import { archiveEntries, EXPORT_JOB, exportExpiry, exportJobKey, exportLinkState, type ArchiveContent, type ExportLinkState } from './privacy';
import { zip } from '../zip/zip';
import type { Storage, StoredObject } from '../storage';
import { moveIntoStorage } from '../storage/move.server';
import { type Step } from '../faults/step';

/** The storage key of archive `exportId`. */
export const exportKey = (exportId: number) => `exports/${exportId}.zip`;

/** The folder archives were kept in before the storage (`moveExportsIntoStorage` moves them). */
export const exportFolder = (dataDir: string) => join(dataDir, 'exports');

/** Moves the archives an older data folder kept in `exports/` into the storage (their mailed links keep working). */
export function moveExportsIntoStorage(dataDir: string, storage: Storage): Promise<number> {
  return moveIntoStorage(exportFolder(dataDir), storage, 'exports/', (name) => /^[1-9]\d{0,9}\.zip$/.test(name), 'application/zip');
}


/**
 * Queues an archive of `userId`'s data: the row, its job and the audit record, together. The archive
 * and its mail are in the language the person chose in their profile, else `req.locale` (the page's).
 */
export async function requestExport(db: Db, links: ExportLinks, req: { userId: number; locale: Locale; origin: string; now?: Date }): Promise<{ exportId: number }> {
  const now = req.now ?? new Date();
  return db.transaction(async (tx) => {
    const [user] = await tx.select({ locale: users.locale }).from(users).where(eq(users.id, req.userId)).limit(1);
    const locale = mailLocale(user?.locale, req.locale);
    const [row] = await tx.insert(dataExports).values({ userId: req.userId, locale, tokenHash: `pending:${randomUUID()}`, requestedAt: now }).returning({ id: dataExports.id });
    const exportId = row!.id;
    await tx.update(dataExports).set({ tokenHash: linkTokenHash(links.token(exportId)) }).where(eq(dataExports.id, exportId));
    await tx.insert(jobs).values({ name: EXPORT_JOB, key: exportJobKey(exportId), payload: { exportId, origin: req.origin }, runAt: now });
    await recordAudit(tx, { action: 'privacy.export.requested', actor: userRef(req.userId), subject: userRef(req.userId), after: { export: exportId }, at: now });
    return { exportId };
  });
}

/** A person's archives, newest first. */
export function exportsOf(db: Db, userId: number): Promise<DataExport[]> {
  return db.select().from(dataExports).where(eq(dataExports.userId, userId)).orderBy(desc(dataExports.requestedAt), desc(dataExports.id));
}

/** What a download link gives the person asking: the stored archive for its owner while it is valid. */
export async function exportForDownload(db: Db, storage: Storage, token: string, userId: number, now = new Date()): Promise<{ state: ExportLinkState; stored?: StoredObject; exportId?: number }> {
  if (token.length === 0 || token.length > 200) return { state: 'missing' };
  const [row] = await db.select().from(dataExports).where(eq(dataExports.tokenHash, linkTokenHash(token)));
  const state = exportLinkState(row ?? null, userId, now);
  if (state !== 'ready') return { state };
  const stored = await storage.stat(exportKey(row!.id));
  return stored ? { state, stored, exportId: row!.id } : { state: 'missing' };
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** Everything the archive holds of `userId`, read from the database (PDFs drawn in `locale`). */
export async function collectArchive(db: Db, userId: number, ctx: { locale: Locale; origin: string }): Promise<ArchiveContent | null> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) return null;
  const t = messages(ctx.locale);
  const name = (row: { nameEs: string; nameEn: string }) => (ctx.locale === 'en' ? row.nameEn : row.nameEs);
  const people = await db
    .select({ contact: contacts, ibo: { code: ibos.code, companyName: ibos.companyName } })
    .from(contacts)
    .leftJoin(ibos, eq(ibos.id, contacts.iboId))
    .where(or(eq(contacts.userId, userId), sql`lower(${contacts.email}) = lower(${user.email})`));
  const contactIds = people.map((p) => p.contact.id);
  const anyContact = contactIds.length > 0 ? inArray(tracking.contactId, contactIds) : sql`false`;
  const progress = await db
    .select({ t: tracking, course: { nameEs: courses.nameEs, nameEn: courses.nameEn }, lesson: { nameEs: subtopics.nameEs, nameEn: subtopics.nameEn } })
    .from(tracking)
    .innerJoin(courses, eq(courses.id, tracking.courseId))
    .innerJoin(subtopics, eq(subtopics.id, tracking.subtopicId))
    .where(anyContact)
    .orderBy(tracking.courseId, tracking.subtopicId);
  const attempts =
    contactIds.length === 0
      ? []
      : await db
          .select({ a: examAttempts, courseId: evaluations.courseId, course: { nameEs: courses.nameEs, nameEn: courses.nameEn } })
          .from(examAttempts)
          .innerJoin(evaluations, eq(evaluations.id, examAttempts.evaluationId))
          .innerJoin(courses, eq(courses.id, evaluations.courseId))
          .where(inArray(examAttempts.contactId, contactIds))
          .orderBy(evaluations.courseId, examAttempts.attemptNumber);
  const held = contactIds.length === 0 ? [] : await db.select().from(certificates).where(inArray(certificates.contactId, contactIds)).orderBy(certificates.issuedAt, certificates.id);
  const catalog = await loadCatalog(db);
  // The PDF drawing (pdf-lib and its font engine, about a third of the server's start-up) is loaded when
  // the first archive is built, not by every process that starts the job scheduler.
  const [{ certificatePdf }, { receiptPdf }] = await Promise.all([import('../certificates/pdf.server'), import('../commerce/receipt.server')]);
  const certificatePdfs: ArchiveContent['certificatePdfs'] = [];
  for (const c of held) {
    const course = catalog.byId.get(c.courseId);
    if (course && !c.revokedAt) certificatePdfs.push({ code: c.code, pdf: await certificatePdf(certificateFacts(c, course, ctx.locale, ctx.origin, t.meta.siteName)) });
  }
  const courseName = new Map((await db.select({ id: courses.id, nameEs: courses.nameEs, nameEn: courses.nameEn }).from(courses)).map((c) => [c.id, name(c)]));
  const orders = await ordersOf(db, userId);
  const buyer = { name: `${user.firstName} ${user.lastName}`.trim(), email: user.email };
  const receiptPdfs: ArchiveContent['receiptPdfs'] = [];
  for (const o of orders) {
    if (o.status === 'paid' || o.status === 'refunded') receiptPdfs.push({ number: orderNumber(o.id), pdf: await receiptPdf(receiptFacts(o, buyer, ctx.locale, t.commerce, t.meta.siteName)) });
  }
  const messagesSent = await db.select({ createdAt: contactMessages.createdAt, accepts: contactMessages.accepts }).from(contactMessages).where(sql`lower(${contactMessages.email}) = lower(${user.email})`);
  const consents = [
    ...(user.passwordHash ? [{ consent: 'privacy-policy', given: 'registration', reference: null, at: iso(user.createdAt) }] : []),
    ...orders.map((o) => ({ consent: 'terms-of-purchase', given: 'checkout', reference: orderNumber(o.id), at: iso(o.createdAt) })),
    ...messagesSent.filter((m) => m.accepts).map((m) => ({ consent: 'privacy-policy', given: 'contact-form', reference: null, at: iso(m.createdAt) })),
  ];
  return {
    tables: {
      profile: [{ id: user.id, email: user.email, firstName: user.firstName, lastName: user.lastName, gender: user.gender, birthDate: user.birthDate, preferredLanguage: user.locale, photo: user.imageUrl, iboSharing: user.iboSharing, createdAt: iso(user.createdAt) }],
      'lesson-progress': progress.map(({ t: p, course, lesson }) => ({
        course: name(course),
        lesson: name(lesson),
        lastPositionSeconds: Number(p.lastPosition),
        furthestPositionSeconds: Number(p.furthestPosition),
        playedSeconds: Number(p.playedSeconds),
        completedAt: iso(p.completedAt),
        updatedAt: iso(p.updatedAt),
      })),
      'exam-attempts': attempts.map(({ a, course }) => ({ course: name(course), attempt: a.attemptNumber, startedAt: iso(a.startedAt), deadlineAt: iso(a.deadlineAt), submittedAt: iso(a.submittedAt), score: a.score, passed: a.passed, answers: a.answers })),
      certificates: held.map((c) => ({
        code: c.code,
        course: courseName.get(c.courseId) ?? String(c.courseId),
        holderName: c.holderName,
        issuedAt: iso(c.issuedAt),
        revokedAt: iso(c.revokedAt),
        // Told to the holder when it was revoked: theirs to keep (never on the public page).
        revokedReason: c.revokedReason ?? '',
        verifyUrl: certificateUrls(ctx.origin, c.courseId, c.code, ctx.locale).verify,
      })),
      orders: orders.map((o) => ({
        number: orderNumber(o.id),
        status: o.status,
        subtotalCents: o.subtotalCents,
        discountCents: o.discountCents,
        totalCents: o.totalCents,
        currency: o.currencyCode,
        coupon: o.couponCode,
        card: o.cardBrand && o.cardLast4 ? `${o.cardBrand} •••• ${o.cardLast4}` : null,
        createdAt: iso(o.createdAt),
        paidAt: iso(o.paidAt),
      })),
      'order-items': orders.flatMap((o) => o.items.map((i) => ({ order: orderNumber(o.id), kind: i.productKind, productId: i.productId, title: ctx.locale === 'en' ? i.titleEn : i.titleEs, priceCents: i.priceCents }))),
      prospects: people.map(({ contact: c, ibo }) => ({
        contactId: c.id,
        firstName: c.firstName,
        lastName: c.lastName,
        email: c.email,
        ownAccount: c.userId === userId,
        registeredByIbo: ibo?.code ?? null,
        iboCompany: ibo?.companyName ?? null,
        createdAt: iso(c.createdAt),
      })),
      consents,
    },
    certificatePdfs,
    receiptPdfs,
  };
}

/** The archive's README, in its language. */
function readme(locale: Locale, at: Date): string {
  return locale === 'en'
    ? `Your data at the academy, as of ${at.toISOString()}.\n\nEach table is here twice: JSON (nested values kept) and CSV (for spreadsheets).\nprofile, lesson-progress, exam-attempts, certificates, orders, order-items, prospects (the contact records you are linked to and the IBO who registered you), consents.\ncertificates/ holds your certificates as PDF, receipts/ the receipts of your paid orders.\n`
    : `Tus datos en la academia, a ${at.toISOString()}.\n\nCada tabla está dos veces: JSON (con los valores anidados) y CSV (para hojas de cálculo).\nprofile (perfil), lesson-progress (progreso), exam-attempts (intentos de examen), certificates (certificados), orders y order-items (pedidos), prospects (los registros de contacto a los que estás vinculado y el IBO que te registró), consents (consentimientos).\ncertificates/ contiene tus certificados en PDF y receipts/ los recibos de tus pedidos pagados.\n`;
}

/** What the export job needs. */
export interface ExportJobDeps {
  db: Db;
  storage: Storage;
  links: ExportLinks;
  send: (message: MailMessage) => Promise<MailReceipt>;
  now?: () => Date;
}

/**
 * The export job: builds the archive (unless it exists and the row says so), then mails its link once
 * the row says ready, then marks it mailed with its audit record. Resumable after a crash at any line.
 */
export async function runExport(deps: ExportJobDeps, payload: unknown, step: Step = () => undefined): Promise<void> {
  const { exportId, origin } = payload as { exportId: number; origin: string };
  const now = deps.now ?? (() => new Date());
  const [row] = await deps.db.select().from(dataExports).where(eq(dataExports.id, exportId));
  // Gone: the account was deleted meanwhile. Mailed: done.
  if (!row || row.mailedAt) return;
  const locale: Locale = row.locale === 'en' ? 'en' : 'es';
  if (!row.readyAt) {
    const content = await collectArchive(deps.db, row.userId, { locale, origin });
    if (!content) return;
    const at = now();
    const bytes = zip(archiveEntries(content, readme(locale, at)), at);
    // Stored whole or not at all; stored again (replaced) when a crash comes before the row is marked.
    await deps.storage.put(exportKey(exportId), bytes, { contentType: 'application/zip' });
    await step('archive-written');
    await deps.db.update(dataExports).set({ readyAt: at, expiresAt: exportExpiry(at) }).where(and(eq(dataExports.id, exportId), isNull(dataExports.readyAt)));
    await step('ready-marked');
  }
  const [ready] = await deps.db.select().from(dataExports).where(eq(dataExports.id, exportId));
  const [user] = await deps.db.select({ email: users.email, firstName: users.firstName }).from(users).where(eq(users.id, ready!.userId));
  if (!ready?.expiresAt || !user) return;
  const t = messages(locale).myData.mail;
  // An endpoint has no English copy of its path: the link names its language, as receipts do.
  const link = new URL(`${paths.myDataDownload(deps.links.token(exportId))}?lang=${locale}`, origin).href;
  const expires = `${new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(ready.expiresAt)} UTC`;
  await deps.send({ to: user.email, subject: t.subject, text: format(t.text, { name: user.firstName, link, expires }), messageId: `<data-export-${exportId}@academy.invalid>` });
  await step('mail-sent');
  await deps.db.transaction(async (tx) => {
    const marked = await tx.update(dataExports).set({ mailedAt: now() }).where(and(eq(dataExports.id, exportId), isNull(dataExports.mailedAt))).returning({ id: dataExports.id });
    if (marked.length > 0) await recordAudit(tx, { action: 'privacy.export.mailed', actor: 'job', subject: userRef(ready.userId), after: { export: exportId, expiresAt: ready.expiresAt!.toISOString() } });
  });
  await step('mailed-marked');
}

/** Removes a person's archive files (before their rows go). */
export async function removeExportFiles(db: Db, storage: Storage, userId: number): Promise<number> {
  const rows = await db.select({ id: dataExports.id }).from(dataExports).where(eq(dataExports.userId, userId));
  for (const r of rows) await storage.delete(exportKey(r.id));
  return rows.length;
}
