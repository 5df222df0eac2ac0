CREATE TABLE "tracking_credit" (
	"contact_id" integer PRIMARY KEY NOT NULL,
	"credit_clock" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tracking_credit" ADD CONSTRAINT "tracking_credit_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracking" DROP COLUMN "credit_clock";