ALTER TABLE "exam_attempts" ADD COLUMN "option_order" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "kind" text DEFAULT 'single' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "exam_attempts_open_uq" ON "exam_attempts" USING btree ("evaluation_id","contact_id") WHERE "exam_attempts"."submitted_at" is null;--> statement-breakpoint
CREATE INDEX "exam_attempts_deadline_idx" ON "exam_attempts" USING btree ("deadline_at") WHERE "exam_attempts"."submitted_at" is null;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_kind_ck" CHECK ("questions"."kind" in ('single', 'multiple', 'true-false'));--> statement-breakpoint
-- Answers are now lists of options (multiple choice): a single option stored before becomes a list of one.
UPDATE "exam_attempts" SET "answers" = (SELECT jsonb_object_agg("key", CASE WHEN jsonb_typeof("value") = 'number' THEN jsonb_build_array("value") ELSE "value" END) FROM jsonb_each("exam_attempts"."answers")) WHERE "answers" IS NOT NULL AND "answers" <> '{}'::jsonb;
