ALTER TABLE "billing_debts" ADD COLUMN "settled_tokens" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "billing_debts_open_idx" ON "billing_debts" USING btree ("key_id","created_at") WHERE settled_at is null;--> statement-breakpoint
ALTER TABLE "billing_debts" ADD CONSTRAINT "billing_debts_settled" CHECK ("billing_debts"."settled_tokens" between 0 and "billing_debts"."tokens");--> statement-breakpoint
-- Debts settled before partial payments existed were paid whole.
UPDATE "billing_debts" SET "settled_tokens" = "tokens" WHERE "settled_at" IS NOT NULL;
