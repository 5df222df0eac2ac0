ALTER TABLE "books" ADD COLUMN "hidden" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "pdf_key" text;--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "updated_at" timestamp with time zone;