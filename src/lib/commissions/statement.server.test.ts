/**
 * The statement downloads on PGlite and PostgreSQL: the owner of an active IBO gets their own month as
 * a PDF and a CSV, never cacheable; nobody else gets anything (401/403 in words), a bad month is a 400
 * in words, and nothing in the URL (another IBO's code or id, a forged parameter) reaches another IBO.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { testDatabases } from '../db/testing';
import type { DbHandle } from '../db/client';
import * as s from '../db/schema';
import { createSession, readSession } from '../identity/session.server';
import { statementAnswer } from './statement.server';

const databases = await testDatabases();
const ORIGIN = 'https://academia.example';
const NOW = new Date('2026-11-27T12:00:00Z');

describe.each(databases)("an IBO's commission statements ($name)", (database) => {
  let handle: DbHandle;
  let mundoOrder = 0;
  let horizonteOrder = 0;
  const idOf = async (email: string) => (await handle.db.select({ id: s.users.id }).from(s.users).where(eq(s.users.email, email)))[0]!.id;
  const sessionOf = async (email: string) => readSession(handle.db, (await createSession(handle.db, { kind: 'user', userId: await idOf(email) })).token);
  const iboId = async (code: string) => (await handle.db.select({ id: s.ibos.id }).from(s.ibos).where(eq(s.ibos.code, code)))[0]!.id;
  const get = (session: Awaited<ReturnType<typeof readSession>>, month: string | undefined, as: 'pdf' | 'csv', query = 'lang=en') =>
    statementAnswer({ url: new URL(`${ORIGIN}/mybusiness/statements/${month}.${as}?${query}`), headers: new Headers(), session, db: handle.db, month, now: NOW }, as);
  const paid = async (ibo: number, title: string) => {
    const [u] = await handle.db.insert(s.users).values({ email: `st.${Math.random().toString(36).slice(2)}@example.com`, firstName: 'Est', lastName: 'Ado' }).returning();
    const [o] = await handle.db.insert(s.orders).values({ userId: u!.id, status: 'paid', subtotalCents: 5000, discountCents: 0, totalCents: 5000, idempotencyKey: `st-${Math.random()}`, paidAt: new Date('2026-11-03T10:00:00Z'), referringIboId: ibo }).returning();
    await handle.db.insert(s.orderItems).values({ orderId: o!.id, productKind: 'course', productId: 6, productCode: 'C6', titleEs: title, titleEn: title, priceCents: 5000 });
    return o!.id;
  };

  beforeAll(async () => {
    handle = await database.create({ seed: true });
    horizonteOrder = await paid(await iboId('HORIZONTE01'), 'Curso de Horizonte');
    mundoOrder = await paid(await iboId('MUNDO2026'), 'Curso secreto de Mundo');
  });
  afterAll(async () => handle?.close());

  it("gives the owner of an active IBO their month's statement as a CSV and a PDF, never cacheable", async () => {
    const owner = await sessionOf('ibo.horizonte@academia.example');
    const csv = await get(owner, '2026-11', 'csv');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('cache-control')).toBe('private, no-store');
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="commissions-HORIZONTE01-2026-11.csv"');
    const text = await csv.text();
    expect(text).toContain('Commission earned,A-');
    expect(text).toContain('Curso de Horizonte');
    expect(text).toContain(',10.00\r\n');
    expect(text).not.toContain('Mundo');
    const es = await (await get(owner, '2026-11', 'csv', 'lang=es')).text();
    expect(es).toContain('Comisión ganada');

    const pdf = await get(owner, '2026-11', 'pdf');
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('cache-control')).toBe('private, no-store');
    const doc = await PDFDocument.load(new Uint8Array(await pdf.arrayBuffer()));
    expect(doc.getPageCount()).toBe(1);
    expect(doc.getTitle()).toBe('Commission statement 2026-11');
  });

  it('writes a month with a refund: its cancelled commission as a negative amount, in the PDF as in the CSV', async () => {
    const owner = await sessionOf('ibo.horizonte@academia.example');
    const order = await paid(await iboId('HORIZONTE01'), 'Curso reembolsado');
    const [line] = await handle.db.select({ id: s.orderItems.id }).from(s.orderItems).where(eq(s.orderItems.orderId, order));
    const [refund] = await handle.db
      .insert(s.orderRefunds)
      .values({ orderId: order, requestKey: `st-refund-${order}`, idempotencyKey: `st-refund-${order}`, gateway: 'sandbox', chargeId: 'ch_st', amountCents: 5000, reason: 'Prueba', status: 'refunded' })
      .returning({ id: s.orderRefunds.id });
    await handle.db.insert(s.orderRefundLines).values({ refundId: refund!.id, orderItemId: line!.id, amountCents: 5000 });
    // The cancellation is dated when the refund is written: this month, as the clock says.
    const month = new Date().toISOString().slice(0, 7);
    const now = (as: 'pdf' | 'csv') => statementAnswer({ url: new URL(`${ORIGIN}/mybusiness/statements/${month}.${as}?lang=en`), headers: new Headers(), session: owner, db: handle.db, month, now: new Date() }, as);
    const csv = await (await now('csv')).text();
    expect(csv).toContain(',-10.00\r\n');
    const pdf = await now('pdf');
    expect(pdf.status).toBe(200);
    expect((await PDFDocument.load(new Uint8Array(await pdf.arrayBuffer()))).getPageCount()).toBeGreaterThanOrEqual(1);
  });

  it('refuses anyone but the owner of an active IBO, in words: 401 without an account or with an IBO code session, 403 to a learner, an administrator or a suspended IBO', async () => {
    const [mundo] = await handle.db.select({ id: s.ibos.id }).from(s.ibos).where(eq(s.ibos.code, 'MUNDO2026'));
    const codeSession = await readSession(handle.db, (await createSession(handle.db, { kind: 'ibo', iboId: mundo!.id })).token);
    const cases = [
      [null, 401, 'Log in'],
      [codeSession, 401, 'IBO code'],
      [await sessionOf('learner@academia.example'), 403, 'no IBO code'],
      [await sessionOf('admin@academia.example'), 403, 'no IBO code'],
      [await sessionOf('ibo.rutas@academia.example'), 403, 'suspended'],
    ] as const;
    for (const [session, status, words] of cases) {
      for (const as of ['pdf', 'csv'] as const) {
        const r = await get(session, '2026-11', as);
        expect(r.status, `${words} ${as}`).toBe(status);
        expect(r.headers.get('content-type')).toBe('text/plain; charset=utf-8');
        expect(r.headers.get('cache-control')).toBe('private, no-store');
        expect(await r.text()).toContain(words);
      }
    }
  });

  it('answers a bad month with a 400 sentence in the asked language', async () => {
    const owner = await sessionOf('ibo.horizonte@academia.example');
    for (const month of ['2026-13', 'abc', '2099-01', '2026-12', '1999-12', '2026-11\u0000', '', undefined, "2026-11' or 1=1", '2026-1', '../2026-11']) {
      for (const as of ['pdf', 'csv'] as const) {
        const r = await get(owner, month, as);
        expect(r.status, String(month)).toBe(400);
        expect(r.headers.get('cache-control')).toBe('private, no-store');
        expect(await r.text()).toContain('That month is not valid');
      }
    }
    expect(await (await get(owner, 'abc', 'csv', 'lang=es')).text()).toContain('Ese mes no es válido');
  });

  it("never gives anything of another IBO, whatever the URL says: the IBO is the session's", async () => {
    const owner = await sessionOf('ibo.horizonte@academia.example');
    const mundoId = await iboId('MUNDO2026');
    for (const query of [`lang=en&ibo=${mundoId}`, 'lang=en&code=MUNDO2026', `lang=en&iboId=${mundoId}&ibo_id=${mundoId}`]) {
      const text = await (await get(owner, '2026-11', 'csv', query)).text();
      expect(text).toContain('HORIZONTE01');
      expect(text).not.toContain('MUNDO2026');
      expect(text).not.toContain('Curso secreto de Mundo');
      expect(text).not.toContain(`A-${String(mundoOrder).padStart(6, '0')}`);
      expect(text).toContain(`A-${String(horizonteOrder).padStart(6, '0')}`);
    }
    // Mundo's owner sees their own, not Horizonte's.
    const theirs = await (await get(await sessionOf('ibo.mundo@academia.example'), '2026-11', 'csv')).text();
    expect(theirs).toContain('Curso secreto de Mundo');
    expect(theirs).not.toContain('Curso de Horizonte');
  });
});
