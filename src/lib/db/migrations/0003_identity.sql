CREATE TABLE "password_resets" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "referrals" (
	"visitor_id" text PRIMARY KEY NOT NULL,
	"first_ibo_id" integer NOT NULL,
	"first_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_ibo_id" integer NOT NULL,
	"last_at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" integer
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "referred_by_ibo_id" integer;--> statement-breakpoint
ALTER TABLE "password_resets" ADD CONSTRAINT "password_resets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referrals" ADD CONSTRAINT "referrals_first_ibo_id_ibos_id_fk" FOREIGN KEY ("first_ibo_id") REFERENCES "public"."ibos"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referrals" ADD CONSTRAINT "referrals_last_ibo_id_ibos_id_fk" FOREIGN KEY ("last_ibo_id") REFERENCES "public"."ibos"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referrals" ADD CONSTRAINT "referrals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "password_resets_user_idx" ON "password_resets" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_referred_by_ibo_id_ibos_id_fk" FOREIGN KEY ("referred_by_ibo_id") REFERENCES "public"."ibos"("id") ON DELETE no action ON UPDATE no action;