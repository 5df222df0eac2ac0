/**
 * Stripe's webhook: POST /api/stripe/webhook with an event signed with the endpoint's secret
 * (`STRIPE_WEBHOOK_SECRET`). 200 `{ received: true }` for a verified event (handled by
 * `handleStripeEvent`), 400 for an unsigned, forged or tampered one, or one signed too long ago (a
 * replay), 413 past `MAX_WEBHOOK_BODY_BYTES`, 404 while Stripe's webhook is not configured.
 *
 * Each PaymentIntent's success or failure goes to the checkout's `reconcile` (by PaymentIntent id, the
 * payment attempt's charge id, or by the attempt's key in its metadata when a crash left no charge id): a late success pays a pending order or refunds a failed one.
 * Each refund event (`refund.*`, `charge.refund.updated`, `charge.refunded`) finishes or fails the back office's refund it names.
 */
import type { APIRoute } from 'astro';
import { handleStripeEvent, verifyStripeWebhook } from '~/lib/commerce/stripe.server';
import { readBodyAtMost } from '~/lib/http/body.server';
import { refundReported } from '~/lib/orders/refunds.server';

export const prerender = false;

/** Largest event body read (Stripe's events are a few KB). */
export const MAX_WEBHOOK_BODY_BYTES = 256 * 1024;

const answer = (status: number, body: Record<string, unknown>) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' } });

export const POST: APIRoute = async ({ request, locals }) => {
  const { runtime } = locals;
  const secret = runtime.config.stripe.webhookSecret;
  if (!secret) return answer(404, { error: 'not-configured' });
  // The signature covers the exact bytes sent: the body is verified as read, never re-encoded.
  const read = await readBodyAtMost(request, MAX_WEBHOOK_BODY_BYTES).catch(() => null);
  if (read === null) return answer(400, { error: 'unreadable' });
  if (!read.complete) return answer(413, { error: 'too-large' });
  const body = read.bytes;
  const verdict = verifyStripeWebhook(body, request.headers.get('stripe-signature'), secret);
  if (!verdict.ok) return answer(400, { error: verdict.reason });
  await handleStripeEvent(runtime, verdict.event, async (payment) => {
    // The checkout's answer normally stands; a late success or failure settles the order (or refunds it).
    const settled = await runtime.checkout.reconcile({ chargeId: payment.paymentIntentId, outcome: payment.outcome, attemptKey: payment.attemptKey, amountCents: payment.amountCents });
    if (settled.done === 'paid' && settled.userId !== null) await runtime.personChanged({ userId: settled.userId });
  }, async (refund) => {
    // A refund Stripe finished (or failed) after the back office asked for it: recorded once, access taken back then.
    const done = await refundReported(runtime.db, refund, new Date());
    if (done.done === 'refunded' && done.userId !== null) await runtime.personChanged({ userId: done.userId });
  });
  return answer(200, { received: true });
};
