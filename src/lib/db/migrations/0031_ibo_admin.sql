ALTER TABLE "ibos" ADD COLUMN "business_id" integer;--> statement-breakpoint
ALTER TABLE "ibos" ADD COLUMN "contact_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "ibos" ADD COLUMN "contact_email" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "ibos" ADD COLUMN "contact_phone" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "ibos" ADD COLUMN "sponsor_ibo_id" integer;--> statement-breakpoint
ALTER TABLE "ibos" ADD CONSTRAINT "ibos_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ibos" ADD CONSTRAINT "ibos_sponsor_ibo_id_ibos_id_fk" FOREIGN KEY ("sponsor_ibo_id") REFERENCES "public"."ibos"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ibos_sponsor_idx" ON "ibos" USING btree ("sponsor_ibo_id");--> statement-breakpoint
CREATE INDEX "ibos_company_idx" ON "ibos" USING btree ("company_name");