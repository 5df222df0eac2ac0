-- The IBO's people: the nudges an IBO sends (one e-mail each, by a job enqueued with the row), a
-- person's choice to get no more of them, and each person's last active day read from the index alone.
CREATE TABLE "nudges" (
	"id" serial PRIMARY KEY NOT NULL,
	"ibo_id" integer NOT NULL,
	"contact_id" integer NOT NULL,
	"locale" text NOT NULL,
	"request_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "learner_activity_contact_idx";--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "nudges_stopped_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "nudges" ADD CONSTRAINT "nudges_ibo_id_ibos_id_fk" FOREIGN KEY ("ibo_id") REFERENCES "public"."ibos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "nudges" ADD CONSTRAINT "nudges_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "nudges_ibo_request_uq" ON "nudges" USING btree ("ibo_id","request_key");--> statement-breakpoint
CREATE INDEX "nudges_ibo_created_idx" ON "nudges" USING btree ("ibo_id","created_at");--> statement-breakpoint
CREATE INDEX "nudges_contact_created_idx" ON "nudges" USING btree ("contact_id","created_at");--> statement-breakpoint
CREATE INDEX "learner_activity_contact_idx" ON "learner_activity" USING btree ("contact_id","span","starts");