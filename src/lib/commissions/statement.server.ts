/**
 * An IBO's monthly commission statement as a download (`/mybusiness/statements/YYYY-MM.pdf` and `.csv`):
 * the owner of an active IBO gets the statement of their own IBO (the IBO is the session's, never the
 * URL's) in the language of `?lang=`; anyone else a sentence in that language and a 401 (not logged in
 * with an account: a visitor, an IBO session opened with a code) or a 403 (an account owning no IBO, a
 * suspended IBO); a month that is not one from 2000 to the current month a 400. Never kept by any cache.
 */
import { messages, type Locale } from '~/i18n';
import type { Messages } from '~/i18n/types';
import { callerOf } from '../access/policy';
import { requestLocale } from '../http/locale';
import type { SessionInfo } from '../identity/session.server';
import type { Db } from '../db/client';
import { businessGate } from '../business/business';
import { ownedIbo } from '../business/business.server';
import { formatSignedCents } from '../reports/reports';
import { csvLine, CSV_BOM } from '../reports/reports';
import { DOCUMENT_COLORS, drawRight, fitText, newDocument, PAGE_SIZES, printable } from '../documents';
import { readMonth, rateText, statementCsvRows, statementFileName, type Statement } from './commissions';
import { iboStatement } from './commissions.server';

/** What the answer reads of the request. */
export interface StatementRequest {
  url: URL;
  headers: Headers;
  session: SessionInfo | null | undefined;
  db: Db;
  /** The route's month parameter, as sent. */
  month: string | undefined;
  now?: Date;
}

type Words = Messages['commissions'];

const statementWords = (w: Words) => ({ ...w.statement, productKinds: w.kinds });

/** The caller's statement of the month in `as`, or a refusal in words. */
export async function statementAnswer(req: StatementRequest, as: 'pdf' | 'csv'): Promise<Response> {
  const locale = requestLocale(req.url, req.headers);
  const all = messages(locale);
  const t = all.business.refusals;
  const base = { 'Cache-Control': 'private, no-store', 'Content-Language': locale, 'Referrer-Policy': 'no-referrer', Vary: 'Cookie' };
  const refuse = (status: number, sentence: string) => new Response(sentence, { status, headers: { ...base, 'Content-Type': 'text/plain; charset=utf-8' } });
  const userId = req.session?.user?.id;
  const gate = businessGate(callerOf(req.session), userId === undefined ? null : await ownedIbo(req.db, userId));
  if (gate.kind !== 'owner') {
    if (gate.kind === 'login') return refuse(401, t.login);
    if (gate.kind === 'suspended') return refuse(403, t.suspended);
    return refuse(gate.status, gate.reason === 'iboSession' ? t.iboSession : t.notOwner);
  }
  const month = readMonth(req.month, req.now ?? new Date());
  if (!month) return refuse(400, all.commissions.statement.badMonth);
  const statement = await iboStatement(req.db, gate.ibo.id, month);
  if (!statement) return refuse(403, t.notOwner);
  const w = all.commissions;
  const name = statementFileName(w.statement.fileName, statement.ibo.code, month, as);
  const body = as === 'csv' ? CSV_BOM + statementCsvRows(statement, statementWords(w), locale).map((r) => csvLine(r)).join('') : await statementPdf(statement, w, locale, all.meta.siteName, req.now ?? new Date());
  return new Response(body as BodyInit, {
    headers: { ...base, 'Content-Type': as === 'csv' ? 'text/csv; charset=utf-8' : 'application/pdf', 'Content-Disposition': `attachment; filename="${name}"` },
  });
}

const { width: PAGE_WIDTH, height: PAGE_HEIGHT } = PAGE_SIZES.a4Portrait;
const MARGIN = 48;
const { ink: INK, muted: MUTED, accent: ACCENT } = DOCUMENT_COLORS;
const ROW = 16;

/** The statement as a PDF: issuer, title, IBO, month, one row per entry and payout, then the totals. */
export async function statementPdf(st: Statement, w: Words, locale: Locale, issuer: string, now: Date): Promise<Uint8Array> {
  const s = w.statement;
  const title = `${s.title} ${st.month}`;
  const { doc, font } = await newDocument({ title, author: printable(issuer), subject: `${title} – ${st.ibo.code}`, language: locale, creator: printable(issuer), date: now });
  // Cancellations and reversals are negative: written with a minus, as the CSV writes them.
  const money = (cents: number) => formatSignedCents(cents, locale);
  const right = PAGE_WIDTH - MARGIN;
  const cols = { date: MARGIN, kind: MARGIN + 70, ref: MARGIN + 230, product: MARGIN + 305 };
  let page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
  let y = PAGE_HEIGHT - MARGIN;
  page.drawText(fitText(font, printable(issuer), 13, right - MARGIN), { x: MARGIN, y, size: 13, font, color: ACCENT });
  y -= 34;
  page.drawText(fitText(font, s.title, 22, right - MARGIN), { x: MARGIN, y, size: 22, font, color: INK });
  y -= 28;
  const fact = (label: string, value: string) => {
    page.drawText(`${label}:`, { x: MARGIN, y, size: 10, font, color: MUTED });
    page.drawText(fitText(font, printable(value), 10, right - MARGIN - 90), { x: MARGIN + 90, y, size: 10, font, color: INK });
    y -= 15;
  };
  fact(s.ibo, `${st.ibo.code} · ${st.ibo.companyName}`);
  fact(s.month, st.month);
  fact(s.generated, now.toISOString().slice(0, 10));
  y -= 12;
  const header = () => {
    const c = s.columns;
    page.drawText(c.date, { x: cols.date, y, size: 9, font, color: MUTED });
    page.drawText(c.kind, { x: cols.kind, y, size: 9, font, color: MUTED });
    page.drawText(c.ref, { x: cols.ref, y, size: 9, font, color: MUTED });
    page.drawText(c.product, { x: cols.product, y, size: 9, font, color: MUTED });
    drawRight(page, font, c.amount, right, y, 9, MUTED);
    y -= 6;
    page.drawLine({ start: { x: MARGIN, y }, end: { x: right, y }, thickness: 0.75, color: MUTED });
    y -= 14;
  };
  const room = () => {
    if (y > MARGIN + ROW) return;
    page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    y = PAGE_HEIGHT - MARGIN;
    header();
  };
  header();
  if (st.lines.length === 0) {
    page.drawText(s.none, { x: MARGIN, y, size: 10, font, color: MUTED });
    y -= ROW;
  }
  for (const l of st.lines) {
    room();
    const amount = l.kind === 'payout' ? -l.amountCents : l.amountCents;
    const product = l.title ? `${l.title[locale]}${l.rateBp === null ? '' : ` (${rateText(l.rateBp, locale)})`}` : '';
    page.drawText(l.at.toISOString().slice(0, 10), { x: cols.date, y, size: 9, font, color: INK });
    page.drawText(fitText(font, s.kinds[l.kind], 9, cols.ref - cols.kind - 6), { x: cols.kind, y, size: 9, font, color: INK });
    page.drawText(fitText(font, printable(l.ref), 9, cols.product - cols.ref - 6), { x: cols.ref, y, size: 9, font, color: INK });
    page.drawText(fitText(font, printable(product), 9, right - 80 - cols.product), { x: cols.product, y, size: 9, font, color: INK });
    drawRight(page, font, money(amount), right, y, 9, amount < 0 ? MUTED : INK);
    y -= ROW;
  }
  y -= 8;
  for (const key of ['opening', 'earned', 'cancelled', 'reversed', 'paid', 'closing'] as const) {
    room();
    const strong = key === 'closing';
    const value = key === 'paid' ? -st.totals.paid : st.totals[key];
    drawRight(page, font, s.totals[key], right - 110, y, strong ? 12 : 10, strong ? INK : MUTED);
    drawRight(page, font, money(value), right, y, strong ? 12 : 10, INK);
    y -= strong ? 20 : ROW;
  }
  return doc.save();
}
