ALTER TABLE "sessions" ADD COLUMN "signed_in_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "card_setups_pending_idx" ON "card_setups" USING btree ("created_at") WHERE "card_setups"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "purchases_pending_idx" ON "purchases" USING btree ("created_at") WHERE "purchases"."status" = 'pending';