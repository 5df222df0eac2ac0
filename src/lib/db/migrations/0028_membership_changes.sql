CREATE TABLE "membership_changes" (
	"id" serial PRIMARY KEY NOT NULL,
	"membership_id" integer NOT NULL,
	"kind" text NOT NULL,
	"days" integer,
	"reason" text NOT NULL,
	"actor_id" integer,
	"request_key" text NOT NULL,
	"ends_before" timestamp with time zone NOT NULL,
	"ends_after" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "membership_changes" ADD CONSTRAINT "membership_changes_membership_id_memberships_id_fk" FOREIGN KEY ("membership_id") REFERENCES "public"."memberships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_changes" ADD CONSTRAINT "membership_changes_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "membership_changes_membership_idx" ON "membership_changes" USING btree ("membership_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "membership_changes_request_uq" ON "membership_changes" USING btree ("membership_id","request_key");--> statement-breakpoint
CREATE INDEX "coupon_redemptions_coupon_idx" ON "coupon_redemptions" USING btree ("coupon_id","created_at");