/**
 * The back office's order actions (finance, and administrators): refund some lines of an order (or all
 * of it) through the gateway with a reason, and send the receipt to the buyer again. Plain posts that
 * work without JavaScript; each refusal a localized sentence with a 4xx and nothing written. Access,
 * limits and language: `access.ts`.
 */
import { ActionError } from 'astro:actions';
import { action } from './kit';
import { format, messages } from '~/i18n';
import type { Messages } from '~/i18n/types';
import { formatCents } from '~/lib/commerce/money';
import { receiptFacts } from '~/lib/commerce/receipt';
import { buyerOf, ownOrder } from '~/lib/commerce/orders.server';
import { mailLocale } from '~/lib/identity/account';
import { localePath, paths } from '~/lib/paths';
import { orderRef, refundFormSchema, refundOrder, REFUND_REFUSAL_STATUS, resendFormSchema, type RefundRefusal } from '~/lib/orders';
import { recordAudit, userRef } from '~/lib/privacy/audit.server';
import { loadOrder } from '~/lib/orders/orders.server';

const CODES = { 400: 'BAD_REQUEST', 404: 'NOT_FOUND', 409: 'CONFLICT', 502: 'BAD_GATEWAY' } as const;
const refused = (t: Messages, reason: RefundRefusal) => new ActionError({ code: CODES[REFUND_REFUSAL_STATUS[reason]], message: t.orders.refusals[reason] });

export const orders = {
  /** Refunds the lines ticked (or all that is left) through the gateway; the form's key makes a double submit one refund. */
  refund: action('orders.refund', {
    accept: 'form',
    input: refundFormSchema,
    handler: async ({ id, scope, lines, reason, key }, { person, runtime, t, locale }) => {
      const outcome = await refundOrder(runtime.db, runtime.gateway, { orderId: id, actorId: person.userId, lines: scope === 'all' ? 'all' : lines, reason, requestKey: key }, { log: runtime.logger });
      if (outcome.status === 'refused') throw refused(t, outcome.reason);
      const amount = formatCents(outcome.refund.amountCents, locale);
      if (outcome.status === 'pending') return { message: format(t.orders.done.pending, { amount }) };
      // The buyer's pages (and every process's cache of them) forget the access taken back.
      await runtime.personChanged({ userId: outcome.userId });
      return { message: format(t.orders.done.refunded, { amount }), refundId: outcome.refund.id };
    },
  }),

  /** Sends the receipt of a paid (or refunded) order to the buyer again, in the buyer's language. */
  resendReceipt: action('orders.resendReceipt', {
    accept: 'form',
    input: resendFormSchema,
    handler: async ({ id }, { person, runtime, t, ctx }) => {
      const detail = await loadOrder(runtime.db, id);
      if (!detail) throw refused(t, 'unknown');
      if (detail.order.status !== 'paid' && detail.order.status !== 'refunded') throw new ActionError({ code: 'CONFLICT', message: t.orders.refusals.noReceipt });
      const [order, buyer] = await Promise.all([ownOrder(runtime.db, detail.order.userId, id), buyerOf(runtime.db, detail.order.userId)]);
      if (!order || !buyer) throw refused(t, 'unknown');
      // The buyer's language: the profile's, else the one they checked out in.
      const locale = mailLocale(buyer.locale, detail.order.language);
      const words = messages(locale);
      const facts = receiptFacts(order, buyer, locale, words.commerce, words.meta.siteName);
      const { sendReceipt } = await import('~/lib/commerce/receipt.server');
      try {
        await sendReceipt((m) => runtime.mailer.send(m), facts, runtime.siteOrigin(ctx.url) + localePath(locale, paths.myShoppingDetail(id)));
      } catch (err) {
        runtime.logger.error({ err, orderId: id }, 'receipt e-mail not sent again');
        throw new ActionError({ code: 'SERVICE_UNAVAILABLE', message: t.orders.refusals.mailFailed });
      }
      await recordAudit(runtime.db, { action: 'orders.resendReceipt', actor: userRef(person.userId), subject: orderRef(id), after: { to: userRef(detail.order.userId), locale } });
      return { message: format(t.orders.done.resent, { email: buyer.email }) };
    },
  }),
};
