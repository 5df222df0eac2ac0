DROP INDEX "questions_evaluation_position_uq";--> statement-breakpoint
ALTER TABLE "exam_attempts" ADD COLUMN "graded_keys" jsonb;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "explanation_es" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "explanation_en" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "replaces_id" integer;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "retired_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_replaces_id_questions_id_fk" FOREIGN KEY ("replaces_id") REFERENCES "public"."questions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "questions_replaces_idx" ON "questions" USING btree ("replaces_id");--> statement-breakpoint
CREATE UNIQUE INDEX "questions_evaluation_position_uq" ON "questions" USING btree ("evaluation_id","position") WHERE "questions"."retired_at" is null;