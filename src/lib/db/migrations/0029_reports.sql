-- Reports (back office): what the report queries need.
-- affiliate_visits: affiliate-link visits counted per IBO and UTC day (no visitor address kept); the
--   acquisition funnel's first step. Read by day range (affiliate_visits_day_idx).
-- tracking.created_at: when a lesson's first progress was stored; a contact's earliest row on a course
--   is their enrolment. Rows stored before this column existed take their last progress instant.
-- tracking_contact_course_created_idx replaces tracking_contact_course_idx (its prefix): the enrolment
--   query asks "is there an earlier row of this contact on this course?" from the index alone.
-- tracking_created_idx: enrolments of a period. tracking_course_updated_idx: the progress funnel's
--   contacts active on a course in a period.
-- orders_revenue_idx: paid and refunded orders by payment instant (revenue with refunds).
-- orders_referring_paid_idx: the buyers an IBO referred in a period (acquisition funnel).
-- orders_created_idx: keyset pages (created_at, id) of the streamed year-of-orders export.
-- exam_attempts_evaluation_submitted_idx: one exam's graded attempts in a period (item analysis).
-- users_referred_created_idx, contacts_ibo_created_idx: an IBO's registered people and prospects in a
--   period (acquisition funnel).
CREATE TABLE "affiliate_visits" (
	"ibo_id" integer NOT NULL,
	"day" date NOT NULL,
	"visits" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "affiliate_visits_ibo_id_day_pk" PRIMARY KEY("ibo_id","day"),
	CONSTRAINT "affiliate_visits_positive_ck" CHECK ("affiliate_visits"."visits" >= 0)
);
--> statement-breakpoint
DROP INDEX "tracking_contact_course_idx";--> statement-breakpoint
ALTER TABLE "tracking" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
UPDATE "tracking" SET "created_at" = "updated_at" WHERE "updated_at" < "created_at";--> statement-breakpoint
ALTER TABLE "affiliate_visits" ADD CONSTRAINT "affiliate_visits_ibo_id_ibos_id_fk" FOREIGN KEY ("ibo_id") REFERENCES "public"."ibos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "affiliate_visits_day_idx" ON "affiliate_visits" USING btree ("day");--> statement-breakpoint
CREATE INDEX "contacts_ibo_created_idx" ON "contacts" USING btree ("ibo_id","created_at") WHERE "contacts"."ibo_id" is not null;--> statement-breakpoint
CREATE INDEX "exam_attempts_evaluation_submitted_idx" ON "exam_attempts" USING btree ("evaluation_id","submitted_at") WHERE "exam_attempts"."submitted_at" is not null;--> statement-breakpoint
CREATE INDEX "orders_created_idx" ON "orders" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "orders_revenue_idx" ON "orders" USING btree ("paid_at") WHERE "orders"."status" in ('paid', 'refunded');--> statement-breakpoint
CREATE INDEX "orders_referring_paid_idx" ON "orders" USING btree ("referring_ibo_id","paid_at") WHERE "orders"."referring_ibo_id" is not null;--> statement-breakpoint
CREATE INDEX "tracking_contact_course_created_idx" ON "tracking" USING btree ("contact_id","course_id","created_at");--> statement-breakpoint
CREATE INDEX "tracking_created_idx" ON "tracking" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "tracking_course_updated_idx" ON "tracking" USING btree ("course_id","updated_at");--> statement-breakpoint
CREATE INDEX "users_referred_created_idx" ON "users" USING btree ("referred_by_ibo_id","created_at") WHERE "users"."referred_by_ibo_id" is not null;