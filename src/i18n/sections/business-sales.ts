/**
 * Messages of an IBO's sales and commissions (/mybusiness/sales): the totals by state, the orders it
 * referred with each line's commission, the monthly statements, and the refusals of the page's query.
 */
import type { Shape } from '../types';

export const es = {
  businessSales: {
    title: 'Mis ventas y comisiones',
    description: 'Los pedidos que llegaron por tu enlace, tus comisiones y tus estados de cuenta mensuales.',
    lead: 'Los pedidos pagados por personas que llegaron con tu código, y lo que te corresponde de cada uno.',
    totalsTitle: 'Tus comisiones',
    totals: { pending: 'Pendientes', approved: 'Aprobadas, por cobrar', reversed: 'Reversiones por descontar', paid: 'Pagadas en total' },
    hold: 'Cada comisión queda pendiente {days} días después del pago (el plazo de reembolso); luego se aprueba y la academia la paga al registrar una transferencia. Un reembolso cancela la comisión, o la revierte si ya se pagó.',
    salesTitle: 'Pedidos que llegaron por tu enlace',
    salesCount: 'Pedidos: {count}.',
    none: 'Todavía no hay pedidos con tu código.',
    order: 'Pedido {number}',
    paidOn: 'Pagado el {date}',
    line: { kind: 'Tipo', gross: 'Importe', refunded: 'Reembolsado', rate: 'Comisión', commission: 'Te corresponde', state: 'Estado' },
    noRate: 'sin comisión',
    statementsTitle: 'Estados de cuenta mensuales',
    statementsLead: 'Cada mes con lo ganado, cancelado, revertido y pagado, en PDF o CSV.',
    statementPdf: 'PDF de {month}',
    statementCsv: 'CSV de {month}',
    pager: { label: 'Páginas de pedidos', previous: 'Anterior', next: 'Siguiente', page: 'Página {page} de {pages}' },
    refusals: {
      badPage: 'Esa página no existe.',
      otherIbo: 'Solo puedes ver tus propias ventas.',
    },
  },
};

export const en: Shape<typeof es> = {
  businessSales: {
    title: 'My sales and commissions',
    description: 'The orders that came through your link, your commissions and your monthly statements.',
    lead: 'The orders paid by people who came with your code, and what you earn from each.',
    totalsTitle: 'Your commissions',
    totals: { pending: 'Pending', approved: 'Approved, to be paid', reversed: 'Reversals to net out', paid: 'Paid in all' },
    hold: 'Each commission stays pending for {days} days after the payment (the refund window); then it is approved and the academy pays it when it records a transfer. A refund cancels the commission, or reverses it if it was already paid.',
    salesTitle: 'Orders that came through your link',
    salesCount: 'Orders: {count}.',
    none: 'No orders with your code yet.',
    order: 'Order {number}',
    paidOn: 'Paid on {date}',
    line: { kind: 'Kind', gross: 'Amount', refunded: 'Refunded', rate: 'Rate', commission: 'Your commission', state: 'State' },
    noRate: 'no commission',
    statementsTitle: 'Monthly statements',
    statementsLead: 'Each month with what was earned, cancelled, reversed and paid, as PDF or CSV.',
    statementPdf: 'PDF of {month}',
    statementCsv: 'CSV of {month}',
    pager: { label: 'Pages of orders', previous: 'Previous', next: 'Next', page: 'Page {page} of {pages}' },
    refusals: {
      badPage: 'That page does not exist.',
      otherIbo: 'You can only see your own sales.',
    },
  },
};
