CREATE TABLE "coupon_redemptions" (
	"order_id" integer PRIMARY KEY NOT NULL,
	"coupon_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"discount_cents" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "coupons" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"kind" text NOT NULL,
	"percent" smallint,
	"amount_cents" integer,
	"expires_at" timestamp with time zone,
	"max_uses" integer,
	"uses" integer DEFAULT 0 NOT NULL,
	"minimum_total_cents" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coupons_code_unique" UNIQUE("code"),
	CONSTRAINT "coupons_discount_ck" CHECK (("coupons"."kind" = 'percent' and "coupons"."percent" between 1 and 100) or ("coupons"."kind" = 'fixed' and "coupons"."amount_cents" > 0)),
	CONSTRAINT "coupons_uses_ck" CHECK ("coupons"."uses" >= 0 and ("coupons"."max_uses" is null or "coupons"."uses" <= "coupons"."max_uses"))
);
--> statement-breakpoint
CREATE TABLE "identification_types" (
	"id" integer PRIMARY KEY NOT NULL,
	"name_es" text NOT NULL,
	"name_en" text NOT NULL,
	"position" smallint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_attempts" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"attempt_number" smallint NOT NULL,
	"gateway" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"charge_id" text,
	"status" text DEFAULT 'started' NOT NULL,
	"amount_cents" integer NOT NULL,
	"payload" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_idempotencyKey_unique";--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "title_es" text;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "title_en" text;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "price_cents" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "subtotal_cents" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "discount_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "total_cents" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "coupon_code" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "referring_ibo_id" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "language" text DEFAULT 'es' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "failure_reason" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "card_brand" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "card_last4" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "card_expiry_month" smallint;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "card_expiry_year" smallint;--> statement-breakpoint
ALTER TABLE "coupon_redemptions" ADD CONSTRAINT "coupon_redemptions_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coupon_redemptions" ADD CONSTRAINT "coupon_redemptions_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coupon_redemptions" ADD CONSTRAINT "coupon_redemptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD CONSTRAINT "payment_attempts_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_attempts_number_uq" ON "payment_attempts" USING btree ("order_id","attempt_number");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_attempts_started_uq" ON "payment_attempts" USING btree ("order_id") WHERE "payment_attempts"."status" = 'started';--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_referring_ibo_id_ibos_id_fk" FOREIGN KEY ("referring_ibo_id") REFERENCES "public"."ibos"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "order_items_order_product_uq" ON "order_items" USING btree ("order_id","product_kind","product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_user_idempotency_uq" ON "orders" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "orders_user_created_idx" ON "orders" USING btree ("user_id","created_at");--> statement-breakpoint
-- Orders written before this migration (the demo buyer's): amounts in cents and titles from the catalogue.
UPDATE "orders" SET "subtotal_cents" = round("total" * 100)::integer, "total_cents" = round("total" * 100)::integer;--> statement-breakpoint
UPDATE "order_items" SET "price_cents" = round("price" * 100)::integer, "title_es" = "product_code", "title_en" = "product_code";--> statement-breakpoint
UPDATE "order_items" SET "title_es" = c."name_es", "title_en" = c."name_en" FROM "courses" c WHERE "order_items"."product_kind" = 'course' AND c."id" = "order_items"."product_id";--> statement-breakpoint
UPDATE "order_items" SET "title_es" = b."title_es", "title_en" = b."title_en" FROM "books" b WHERE "order_items"."product_kind" = 'book' AND b."id" = "order_items"."product_id";--> statement-breakpoint
UPDATE "order_items" SET "title_es" = p."name_es", "title_en" = p."name_en" FROM "plans" p WHERE "order_items"."product_kind" = 'plan' AND p."id" = "order_items"."product_id";--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "subtotal_cents" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "total_cents" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" ALTER COLUMN "title_es" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" ALTER COLUMN "title_en" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" ALTER COLUMN "price_cents" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" DROP COLUMN "price";--> statement-breakpoint
ALTER TABLE "orders" DROP COLUMN "total";--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_price_ck" CHECK ("order_items"."price_cents" > 0);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_amounts_ck" CHECK ("orders"."subtotal_cents" >= 0 and "orders"."discount_cents" >= 0 and "orders"."discount_cents" <= "orders"."subtotal_cents" and "orders"."total_cents" = "orders"."subtotal_cents" - "orders"."discount_cents");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_card_last4_ck" CHECK ("orders"."card_last4" is null or "orders"."card_last4" ~ '^[0-9]{4}$');