DROP INDEX "exam_attempts_started_idx";--> statement-breakpoint
DROP INDEX "exam_attempts_submitted_idx";--> statement-breakpoint
DROP INDEX "tracking_updated_idx";--> statement-breakpoint
DROP INDEX "users_created_idx";--> statement-breakpoint
CREATE INDEX "audit_events_action_idx" ON "audit_events" USING btree ("action","at");--> statement-breakpoint
CREATE INDEX "contact_messages_created_idx" ON "contact_messages" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "orders_coupon_idx" ON "orders" USING btree ("coupon_code","created_at") WHERE "orders"."coupon_code" is not null;--> statement-breakpoint
CREATE INDEX "exam_attempts_started_idx" ON "exam_attempts" USING btree ("started_at","contact_id");--> statement-breakpoint
CREATE INDEX "exam_attempts_submitted_idx" ON "exam_attempts" USING btree ("submitted_at","contact_id") WHERE "exam_attempts"."submitted_at" is not null;--> statement-breakpoint
CREATE INDEX "tracking_updated_idx" ON "tracking" USING btree ("updated_at","contact_id");--> statement-breakpoint
CREATE INDEX "users_created_idx" ON "users" USING btree ("created_at","user_type");