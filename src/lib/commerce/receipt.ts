/**
 * A receipt's facts in one language (order number, date, buyer, items, amounts, card) and the e-mail
 * that carries it. Pure: the PDF is drawn by `receipt.server.ts` from these facts. Never holds more of
 * the card than its brand and last 4.
 */
import { format, type Locale } from '~/i18n';
import type { es } from '~/i18n/es';
import type { Shape } from '~/i18n/types';
import { formatCents } from './money';
import { orderNumber } from './checkout';
import type { CardBrand } from './payment';

/** The words a receipt and its e-mail use (the catalogue's `commerce` section). */
export type CommerceTexts = Shape<(typeof es)['commerce']>;

/** An order as a receipt needs it. */
export interface ReceiptOrder {
  id: number;
  createdAt: Date;
  paidAt: Date | null;
  subtotalCents: number;
  discountCents: number;
  totalCents: number;
  couponCode: string | null;
  cardBrand: CardBrand | null;
  cardLast4: string | null;
  items: { titleEs: string; titleEn: string; priceCents: number; productKind: 'course' | 'book' | 'plan' }[];
}

/** What a receipt shows, every amount already written in the receipt's language. */
export interface ReceiptFacts {
  locale: Locale;
  issuer: string;
  number: string;
  date: string;
  buyer: { name: string; email: string };
  items: { title: string; kind: string; amount: string }[];
  subtotal: string;
  discount: string | null;
  total: string;
  card: string | null;
  words: CommerceTexts['receipt'];
}

/** A date as the receipt prints it ("25 de noviembre de 2026" / "November 25, 2026"), in UTC. */
export function receiptDate(at: Date, locale: Locale): string {
  return new Intl.DateTimeFormat(locale === 'en' ? 'en-US' : 'es', { dateStyle: 'long', timeZone: 'UTC' }).format(at);
}

/** The card as receipts show it: "Visa ending in 4242". */
export function cardText(t: CommerceTexts, brand: CardBrand | null, last4: string | null): string | null {
  if (!brand || !last4) return null;
  return format(t.detail.cardText, { brand: t.brands[brand], last4 });
}

/** The facts of an order's receipt in `locale`. */
export function receiptFacts(order: ReceiptOrder, buyer: { name: string; email: string }, locale: Locale, t: CommerceTexts, issuer: string): ReceiptFacts {
  return {
    locale,
    issuer,
    number: orderNumber(order.id),
    date: receiptDate(order.paidAt ?? order.createdAt, locale),
    buyer,
    items: order.items.map((i) => ({ title: locale === 'en' ? i.titleEn : i.titleEs, kind: t.detail.kind[i.productKind], amount: formatCents(i.priceCents, locale) })),
    subtotal: formatCents(order.subtotalCents, locale),
    discount: order.discountCents > 0 ? `−${formatCents(order.discountCents, locale)}${order.couponCode ? ` (${order.couponCode})` : ''}` : null,
    total: formatCents(order.totalCents, locale),
    card: cardText(t, order.cardBrand, order.cardLast4),
    words: t.receipt,
  };
}

/** The receipt's file name ("recibo-A-000042.pdf"). */
export function receiptFileName(facts: Pick<ReceiptFacts, 'number' | 'words'>): string {
  return `${facts.words.file}-${facts.number}.pdf`;
}

/** The e-mail that carries a receipt: a greeting, the total, the items and the order's link (the PDF is attached by the sender). */
export function receiptMail(facts: ReceiptFacts, orderUrl: string): { to: string; subject: string; text: string } {
  const m = facts.words.mail;
  const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ');
  const text = [
    format(m.greeting, { name: facts.buyer.name }),
    '',
    format(m.intro, { total: facts.total }),
    '',
    orderUrl,
    '',
    m.items,
    ...facts.items.map((i) => `- ${oneLine(i.title)}: ${i.amount}`),
    '',
    `${facts.words.total}: ${facts.total}`,
    ...(facts.card ? [`${facts.words.paidWith}: ${facts.card}`] : []),
    '',
    facts.words.thanks,
    '',
  ].join('\n');
  return { to: facts.buyer.email, subject: oneLine(format(m.subject, { number: facts.number })), text };
}
