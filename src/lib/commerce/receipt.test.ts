import { describe, expect, it } from 'vitest';
import { es } from '~/i18n/es';
import { en } from '~/i18n/en';
import { cardText, receiptFacts, receiptFileName, receiptMail, type ReceiptOrder } from './receipt';

const order: ReceiptOrder = {
  id: 42,
  createdAt: new Date('2026-11-25T12:00:00Z'),
  paidAt: new Date('2026-11-25T12:00:05Z'),
  subtotalCents: 3489,
  discountCents: 349,
  totalCents: 3140,
  couponCode: 'BIENVENIDA10',
  cardBrand: 'visa',
  cardLast4: '4242',
  items: [
    { titleEs: 'Ventas', titleEn: 'Sales', priceCents: 1999, productKind: 'course' },
    { titleEs: 'Libro', titleEn: 'Book', priceCents: 1490, productKind: 'book' },
  ],
};
const buyer = { name: 'Tomás Rivera', email: 'buyer@academia.example' };

describe('receipts', () => {
  it('states number, date, items, amounts, discount, total and the card in the buyer’s language', () => {
    const f = receiptFacts(order, buyer, 'en', en.commerce, 'Academia');
    expect(f).toMatchObject({ number: 'A-000042', date: 'November 25, 2026', subtotal: '$34.89', discount: '−$3.49 (BIENVENIDA10)', total: '$31.40', card: 'Visa ending in 4242' });
    expect(f.items).toEqual([
      { title: 'Sales', kind: 'Course', amount: '$19.99' },
      { title: 'Book', kind: 'Book', amount: '$14.90' },
    ]);
    expect(receiptFacts(order, buyer, 'es', es.commerce, 'Academia')).toMatchObject({ date: '25 de noviembre de 2026', card: 'Visa terminada en 4242' });
    expect(receiptFileName(f)).toBe('receipt-A-000042.pdf');
  });
  it('leaves out a discount of zero and a card it does not know', () => {
    const f = receiptFacts({ ...order, discountCents: 0, subtotalCents: 3489, totalCents: 3489, couponCode: null, cardBrand: null }, buyer, 'es', es.commerce, 'Academia');
    expect(f.discount).toBeNull();
    expect(f.card).toBeNull();
    expect(cardText(es.commerce, 'amex', '0005')).toBe('American Express terminada en 0005');
  });
  it('mails the total, the items and the order link; a title cannot break the subject or lines', () => {
    const f = receiptFacts({ ...order, items: [{ titleEs: 'Uno\nDos', titleEn: 'One\nTwo', priceCents: 3489, productKind: 'course' }] }, buyer, 'es', es.commerce, 'Academia');
    const m = receiptMail(f, 'https://academia.example/myshopping-detail/42');
    expect(m.to).toBe('buyer@academia.example');
    expect(m.subject).toBe('Tu recibo del pedido A-000042');
    expect(m.text).toContain('https://academia.example/myshopping-detail/42');
    expect(m.text).toContain('- Uno Dos: $31.40'.replace('$31.40', f.items[0]!.amount));
    expect(m.text).not.toContain('4242424242424242');
  });
});
