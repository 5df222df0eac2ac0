-- IBO commissions: the rates an administrator sets per product kind (a history: a rate applies to orders
-- paid from its `effective_from` on), the payouts recorded, and the commission ledger: entries that are
-- never changed but for the payout that settles them. A line's entries always add up to what the IBO is
-- due on it: round(what the line earned after the coupon, less what was refunded, × the rate in force
-- when the order was paid). `commissions_refresh` keeps that true; it runs at the end of
-- `revenue_lines_refresh` (redefined below with that one call added), so in the same transaction as every
-- payment, refund and order change that moves a line's revenue, whichever code path wrote it.
CREATE TABLE "commission_rates" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_kind" text NOT NULL,
	"rate_bp" integer NOT NULL,
	"effective_from" timestamp with time zone NOT NULL,
	"actor_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "commission_rates_kind_ck" CHECK ("commission_rates"."product_kind" in ('course', 'book', 'plan')),
	CONSTRAINT "commission_rates_rate_ck" CHECK ("commission_rates"."rate_bp" between 0 and 10000)
);
--> statement-breakpoint
ALTER TABLE "commission_rates" ADD CONSTRAINT "commission_rates_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "commission_rates_kind_from_idx" ON "commission_rates" USING btree ("product_kind","effective_from");--> statement-breakpoint
CREATE TABLE "commission_payouts" (
	"id" serial PRIMARY KEY NOT NULL,
	"ibo_id" integer NOT NULL,
	"amount_cents" bigint NOT NULL,
	"entries" integer NOT NULL,
	"request_key" text NOT NULL,
	"reference" text DEFAULT '' NOT NULL,
	"actor_id" integer,
	"paid_at" timestamp with time zone NOT NULL,
	CONSTRAINT "commission_payouts_request_key_unique" UNIQUE("request_key"),
	CONSTRAINT "commission_payouts_amount_ck" CHECK ("commission_payouts"."amount_cents" > 0)
);
--> statement-breakpoint
ALTER TABLE "commission_payouts" ADD CONSTRAINT "commission_payouts_ibo_id_ibos_id_fk" FOREIGN KEY ("ibo_id") REFERENCES "public"."ibos"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commission_payouts" ADD CONSTRAINT "commission_payouts_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "commission_payouts_ibo_paid_idx" ON "commission_payouts" USING btree ("ibo_id","paid_at");--> statement-breakpoint
CREATE TABLE "commissions" (
	"id" serial PRIMARY KEY NOT NULL,
	"ibo_id" integer NOT NULL,
	"line_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"product_kind" text NOT NULL,
	"kind" text NOT NULL,
	"rate_bp" integer NOT NULL,
	"amount_cents" bigint NOT NULL,
	"line_paid_at" timestamp with time zone NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"payout_id" integer,
	CONSTRAINT "commissions_kind_ck" CHECK ("commissions"."kind" in ('earned', 'cancelled', 'reversed')),
	CONSTRAINT "commissions_amount_ck" CHECK ("commissions"."amount_cents" <> 0)
);
--> statement-breakpoint
ALTER TABLE "commissions" ADD CONSTRAINT "commissions_ibo_id_ibos_id_fk" FOREIGN KEY ("ibo_id") REFERENCES "public"."ibos"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commissions" ADD CONSTRAINT "commissions_payout_id_commission_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "public"."commission_payouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "commissions_ibo_at_idx" ON "commissions" USING btree ("ibo_id","at");--> statement-breakpoint
CREATE INDEX "commissions_ibo_unpaid_idx" ON "commissions" USING btree ("ibo_id","line_paid_at") WHERE "commissions"."payout_id" is null;--> statement-breakpoint
CREATE INDEX "commissions_order_idx" ON "commissions" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "commissions_payout_idx" ON "commissions" USING btree ("payout_id");--> statement-breakpoint
-- The commission entries of some orders' lines brought to what each IBO is due on each line now: a line
-- paid with an IBO referring it and a rate in force is earned (at the order's payment); less due later (a
-- refund, whole or partial, or the referral moved to another IBO) adds a negative entry: `cancelled` while
-- nothing of the line was paid out, `reversed` once something was (the next payout nets it); more due again
-- (a refund undone) is earned again. The rate is the one of the line's first entry, never a later one.
-- Each IBO's row is shared-locked first: a payout holds it (FOR NO KEY UPDATE) while it reads and marks
-- the IBO's entries, so the two never interleave and a refund's entry is never half in a payout.
CREATE OR REPLACE FUNCTION commissions_refresh(order_ids integer[]) RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  -- Most orders no IBO referred: nothing to read further.
  IF NOT EXISTS (SELECT 1 FROM revenue_lines WHERE order_id = ANY (order_ids) AND referring_ibo_id IS NOT NULL)
    AND NOT EXISTS (SELECT 1 FROM commissions WHERE order_id = ANY (order_ids)) THEN
    RETURN;
  END IF;
  PERFORM 1 FROM ibos WHERE id IN (
      SELECT referring_ibo_id FROM revenue_lines WHERE order_id = ANY (order_ids) AND referring_ibo_id IS NOT NULL
      UNION SELECT ibo_id FROM commissions WHERE order_id = ANY (order_ids))
    ORDER BY id FOR SHARE;
  INSERT INTO commissions (ibo_id, line_id, order_id, product_kind, kind, rate_bp, amount_cents, line_paid_at, at)
    SELECT d.ibo_id, d.line_id, d.order_id, d.product_kind,
      CASE WHEN NOT d.has_entries OR d.due > d.held THEN 'earned' WHEN d.any_paid THEN 'reversed' ELSE 'cancelled' END,
      d.rate_bp, d.due - d.held, d.line_paid_at,
      CASE WHEN NOT d.has_entries THEN d.line_paid_at
        WHEN d.due > d.held THEN now()
        ELSE greatest(d.line_paid_at, coalesce((SELECT max(r.finished_at) FROM order_refunds r WHERE r.order_id = d.order_id AND r.status = 'refunded'), now())) END
    FROM (SELECT k.line_id, k.ibo_id, coalesce(h.order_id, c.order_id) AS order_id, coalesce(h.product_kind, c.product_kind) AS product_kind,
            coalesce(h.line_paid_at, c.paid_at) AS line_paid_at, coalesce(h.rate_bp, c.rate_bp) AS rate_bp,
            h.line_id IS NOT NULL AS has_entries, coalesce(h.held, 0) AS held, coalesce(h.any_paid, false) AS any_paid,
            CASE WHEN c.line_id IS NULL OR coalesce(h.rate_bp, c.rate_bp) IS NULL THEN 0
              ELSE (greatest(c.net, 0) * coalesce(h.rate_bp, c.rate_bp) + 5000) / 10000 END AS due
          FROM (SELECT line_id, referring_ibo_id AS ibo_id FROM revenue_lines WHERE order_id = ANY (order_ids) AND referring_ibo_id IS NOT NULL
                UNION SELECT line_id, ibo_id FROM commissions WHERE order_id = ANY (order_ids)) k
          LEFT JOIN (SELECT r.line_id, r.referring_ibo_id AS ibo_id, r.order_id, r.product_kind, r.paid_at, r.gross - r.refunded AS net,
                  (SELECT x.rate_bp FROM commission_rates x WHERE x.product_kind = r.product_kind AND x.effective_from <= r.paid_at
                    ORDER BY x.effective_from DESC, x.id DESC LIMIT 1) AS rate_bp
                FROM revenue_lines r WHERE r.order_id = ANY (order_ids) AND r.referring_ibo_id IS NOT NULL) c ON c.line_id = k.line_id AND c.ibo_id = k.ibo_id
          LEFT JOIN (SELECT line_id, ibo_id, min(order_id) AS order_id, min(product_kind) AS product_kind, min(line_paid_at) AS line_paid_at,
                  min(rate_bp) AS rate_bp, sum(amount_cents) AS held, bool_or(payout_id IS NOT NULL) AS any_paid
                FROM commissions WHERE order_id = ANY (order_ids) GROUP BY line_id, ibo_id) h ON h.line_id = k.line_id AND h.ibo_id = k.ibo_id) d
    WHERE d.due <> d.held
    ORDER BY d.line_id, d.ibo_id;
END $$;
--> statement-breakpoint
-- 0036's definition of a line's revenue, unchanged, and then the commissions of the same orders.
CREATE OR REPLACE FUNCTION revenue_lines_refresh(order_ids integer[]) RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM revenue_lines WHERE order_id = ANY (order_ids);
  INSERT INTO revenue_lines (line_id, order_id, paid_at, product_kind, product_id, title_es, title_en, coupon_code, referring_ibo_id, gross, refunded, last_of_order, last_of_kind)
    SELECT a.line_id, a.order_id, a.paid_at, a.product_kind, a.product_id, a.title_es, a.title_en, a.coupon_code, a.referring_ibo_id, a.gross,
      CASE WHEN rl.amount_cents IS NOT NULL THEN rl.amount_cents::bigint WHEN a.status = 'refunded' THEN a.gross ELSE 0 END,
      a.from_last = 1, a.kind_from_last = 1
    FROM (SELECT b.*, (b.price_cents - coalesce(b.share, 0) - CASE WHEN b.from_last = 1 THEN coalesce(b.leftover, 0) ELSE 0 END)::bigint AS gross
          FROM (SELECT o.id AS order_id, o.paid_at, o.status, o.coupon_code, o.referring_ibo_id, i.id AS line_id, i.product_kind, i.product_id, i.title_es, i.title_en, i.price_cents,
                  o.discount_cents::bigint * i.price_cents / nullif(o.subtotal_cents, 0) AS share,
                  o.discount_cents::bigint - sum(o.discount_cents::bigint * i.price_cents / nullif(o.subtotal_cents, 0)) OVER (PARTITION BY o.id) AS leftover,
                  row_number() OVER (PARTITION BY o.id ORDER BY i.id DESC) AS from_last,
                  row_number() OVER (PARTITION BY o.id, i.product_kind ORDER BY i.id DESC) AS kind_from_last
                FROM orders o JOIN order_items i ON i.order_id = o.id
                WHERE o.id = ANY (order_ids) AND o.status IN ('paid', 'refunded') AND o.paid_at IS NOT NULL) b) a
      LEFT JOIN order_refund_lines rl ON rl.order_item_id = a.line_id AND EXISTS (SELECT 1 FROM order_refunds r WHERE r.id = rl.refund_id AND r.status = 'refunded')
    ORDER BY a.line_id;
  PERFORM commissions_refresh(order_ids);
END $$;
