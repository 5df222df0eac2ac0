CREATE INDEX "certificates_issued_idx" ON "certificates" USING btree ("issued_at");--> statement-breakpoint
CREATE INDEX "exam_attempts_started_idx" ON "exam_attempts" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "exam_attempts_submitted_idx" ON "exam_attempts" USING btree ("submitted_at") WHERE "exam_attempts"."submitted_at" is not null;--> statement-breakpoint
CREATE INDEX "orders_paid_idx" ON "orders" USING btree ("paid_at") WHERE "orders"."status" = 'paid';--> statement-breakpoint
CREATE INDEX "tracking_updated_idx" ON "tracking" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "users_created_idx" ON "users" USING btree ("created_at");