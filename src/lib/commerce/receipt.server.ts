/**
 * Receipts: the printable PDF of an order (A4 portrait, the embedded font the certificates use, so
 * every Spanish character prints) and sending it by e-mail after a payment.
 */
import { DOCUMENT_COLORS, drawRight, fitText, newDocument, PAGE_SIZES, printable } from '../documents';
import type { SendMail } from '../mail/mail';
import { receiptFileName, receiptMail, type ReceiptFacts } from './receipt';

const { width: PAGE_WIDTH, height: PAGE_HEIGHT } = PAGE_SIZES.a4Portrait;
const MARGIN = 56;
const { ink: INK, muted: MUTED, accent: ACCENT } = DOCUMENT_COLORS;
/** Rows of items per page (a cart holds at most 50). */
const ROWS_FIRST_PAGE = 22;
const ROWS_PER_PAGE = 34;

/** The receipt as a PDF: issuer, order number, date, buyer, each item with its amount, subtotal, discount, total and the card's brand and last 4. */
export async function receiptPdf(facts: ReceiptFacts): Promise<Uint8Array> {
  const w = facts.words;
  const issuer = printable(facts.issuer);
  const { doc, font } = await newDocument({ title: `${w.title} ${facts.number}`, author: issuer, subject: `${w.title} – ${w.order} ${facts.number}`, language: facts.locale, creator: issuer });

  let page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
  const amountX = PAGE_WIDTH - MARGIN;
  const titleWidth = PAGE_WIDTH - 2 * MARGIN - 110;
  let y = PAGE_HEIGHT - MARGIN - 10;
  page.drawText(fitText(font, issuer, 14, PAGE_WIDTH - 2 * MARGIN), { x: MARGIN, y, size: 14, font, color: ACCENT });
  y -= 40;
  page.drawText(w.title, { x: MARGIN, y, size: 28, font, color: INK });
  y -= 36;
  const fact = (label: string, value: string) => {
    page.drawText(`${label}:`, { x: MARGIN, y, size: 11, font, color: MUTED });
    page.drawText(fitText(font, printable(value), 11, PAGE_WIDTH - 2 * MARGIN - 110), { x: MARGIN + 110, y, size: 11, font, color: INK });
    y -= 18;
  };
  fact(w.order, facts.number);
  fact(w.date, facts.date);
  fact(w.billedTo, `${facts.buyer.name} <${facts.buyer.email}>`);
  if (facts.card) fact(w.paidWith, facts.card);
  y -= 18;

  const header = () => {
    page.drawText(w.product, { x: MARGIN, y, size: 11, font, color: MUTED });
    drawRight(page, font, w.amount, amountX, y, 11, MUTED);
    y -= 8;
    page.drawLine({ start: { x: MARGIN, y }, end: { x: amountX, y }, thickness: 0.75, color: MUTED });
    y -= 18;
  };
  header();
  facts.items.forEach((item, i) => {
    const limit = doc.getPageCount() === 1 ? ROWS_FIRST_PAGE : ROWS_PER_PAGE;
    if (i > 0 && i % limit === 0) {
      page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
      y = PAGE_HEIGHT - MARGIN;
      header();
    }
    page.drawText(fitText(font, `${printable(item.title)} (${item.kind})`, 11, titleWidth), { x: MARGIN, y, size: 11, font, color: INK });
    drawRight(page, font, item.amount, amountX, y, 11);
    y -= 18;
  });
  y -= 2;
  page.drawLine({ start: { x: MARGIN, y: y + 10 }, end: { x: amountX, y: y + 10 }, thickness: 0.5, color: MUTED });
  const total = (label: string, value: string, size: number) => {
    drawRight(page, font, label, amountX - 120, y, size, size > 11 ? INK : MUTED);
    drawRight(page, font, value, amountX, y, size);
    y -= size + 8;
  };
  total(w.subtotal, facts.subtotal, 11);
  if (facts.discount) total(w.discount, facts.discount, 11);
  total(w.total, facts.total, 14);
  page.drawText(w.thanks, { x: MARGIN, y: MARGIN, size: 11, font, color: MUTED });
  return doc.save();
}

/** E-mails the receipt (the PDF attached) to the buyer. Rejects when the mail cannot be sent; the order stays paid. */
export async function sendReceipt(send: SendMail, facts: ReceiptFacts, orderUrl: string): Promise<void> {
  const pdf = await receiptPdf(facts);
  await send({ ...receiptMail(facts, orderUrl), attachments: [{ filename: receiptFileName(facts), content: pdf, contentType: 'application/pdf' }] });
}
