CREATE TABLE "revenue_lines" (
	"line_id" integer PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"paid_at" timestamp with time zone NOT NULL,
	"product_kind" text NOT NULL,
	"product_id" integer NOT NULL,
	"title_es" text NOT NULL,
	"title_en" text NOT NULL,
	"coupon_code" text,
	"referring_ibo_id" integer,
	"gross" bigint NOT NULL,
	"refunded" bigint NOT NULL,
	"last_of_order" boolean NOT NULL,
	"last_of_kind" boolean NOT NULL
);
--> statement-breakpoint
ALTER TABLE "revenue_lines" ADD CONSTRAINT "revenue_lines_line_id_order_items_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."order_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "revenue_lines_paid_idx" ON "revenue_lines" USING btree ("paid_at");--> statement-breakpoint
CREATE INDEX "revenue_lines_ibo_paid_idx" ON "revenue_lines" USING btree ("referring_ibo_id","paid_at");--> statement-breakpoint
CREATE INDEX "revenue_lines_order_idx" ON "revenue_lines" USING btree ("order_id");--> statement-breakpoint
-- The revenue lines of some orders again: removed, then written for those paid or refunded. A refunded
-- line gives back what its refund returned; a refunded order without refund lines (refunded before
-- they were kept) gives back each whole line.
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
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION revenue_lines_rebuild() RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM revenue_lines;
  PERFORM revenue_lines_refresh(array(SELECT id FROM orders WHERE status IN ('paid', 'refunded') AND paid_at IS NOT NULL));
END $$;
--> statement-breakpoint
-- An order written: paid, refunded, its discount, coupon or referring IBO changed.
CREATE OR REPLACE FUNCTION revenue_lines_from_order() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM revenue_lines_refresh(ARRAY[NEW.id]);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER orders_revenue_insert AFTER INSERT ON orders
  FOR EACH ROW WHEN (NEW.status IN ('paid', 'refunded')) EXECUTE FUNCTION revenue_lines_from_order();
--> statement-breakpoint
CREATE TRIGGER orders_revenue_change AFTER UPDATE OF status, paid_at, coupon_code, referring_ibo_id, discount_cents, subtotal_cents ON orders
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.paid_at IS DISTINCT FROM NEW.paid_at OR OLD.coupon_code IS DISTINCT FROM NEW.coupon_code
    OR OLD.referring_ibo_id IS DISTINCT FROM NEW.referring_ibo_id OR OLD.discount_cents IS DISTINCT FROM NEW.discount_cents OR OLD.subtotal_cents IS DISTINCT FROM NEW.subtotal_cents)
  EXECUTE FUNCTION revenue_lines_from_order();
--> statement-breakpoint
-- Lines added, changed or removed, one statement's at once.
CREATE OR REPLACE FUNCTION revenue_lines_from_items() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM revenue_lines_refresh(array(SELECT DISTINCT order_id FROM added));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM revenue_lines_refresh(array(SELECT DISTINCT order_id FROM removed));
  ELSE
    PERFORM revenue_lines_refresh(array(SELECT order_id FROM added UNION SELECT order_id FROM removed));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER order_items_revenue_insert AFTER INSERT ON order_items REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION revenue_lines_from_items();
--> statement-breakpoint
CREATE TRIGGER order_items_revenue_update AFTER UPDATE ON order_items REFERENCING OLD TABLE AS removed NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION revenue_lines_from_items();
--> statement-breakpoint
CREATE TRIGGER order_items_revenue_delete AFTER DELETE ON order_items REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION revenue_lines_from_items();
--> statement-breakpoint
-- A refund confirmed, failed or removed; its lines written or removed.
CREATE OR REPLACE FUNCTION revenue_lines_from_refund() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM revenue_lines_refresh(ARRAY[OLD.order_id]);
  ELSE
    PERFORM revenue_lines_refresh(ARRAY[NEW.order_id]);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER order_refunds_revenue AFTER INSERT OR DELETE OR UPDATE OF status, order_id ON order_refunds
  FOR EACH ROW EXECUTE FUNCTION revenue_lines_from_refund();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION revenue_lines_from_refund_lines() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM revenue_lines_refresh(array(SELECT DISTINCT i.order_id FROM added x JOIN order_items i ON i.id = x.order_item_id));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM revenue_lines_refresh(array(SELECT DISTINCT i.order_id FROM removed x JOIN order_items i ON i.id = x.order_item_id));
  ELSE
    PERFORM revenue_lines_refresh(array(SELECT i.order_id FROM added x JOIN order_items i ON i.id = x.order_item_id
      UNION SELECT i.order_id FROM removed x JOIN order_items i ON i.id = x.order_item_id));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER order_refund_lines_revenue_insert AFTER INSERT ON order_refund_lines REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION revenue_lines_from_refund_lines();
--> statement-breakpoint
CREATE TRIGGER order_refund_lines_revenue_update AFTER UPDATE ON order_refund_lines REFERENCING OLD TABLE AS removed NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION revenue_lines_from_refund_lines();
--> statement-breakpoint
CREATE TRIGGER order_refund_lines_revenue_delete AFTER DELETE ON order_refund_lines REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION revenue_lines_from_refund_lines();
--> statement-breakpoint
SELECT revenue_lines_rebuild();
