ALTER TABLE "memberships" ADD COLUMN "period" text DEFAULT 'month' NOT NULL;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "price_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "grace_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "next_try_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "renewals" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "gateway" text;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "gateway_token" text;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "card_brand" text;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "card_last4" text;--> statement-breakpoint
CREATE INDEX "memberships_renewal_idx" ON "memberships" USING btree ("ends_at") WHERE "memberships"."cancelled_at" is null;--> statement-breakpoint
-- Memberships written before this migration: their plan's period and price.
UPDATE "memberships" SET "period" = p."period", "price_cents" = round(p."price" * 100)::integer FROM "plans" p WHERE p."id" = "memberships"."plan_id";
