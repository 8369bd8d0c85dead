CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key_hash" text NOT NULL,
	"prefix" text NOT NULL,
	"last4" text NOT NULL,
	"owner_id" text,
	"email" text,
	"speed_level" smallint DEFAULT 1 NOT NULL,
	"auto_recharge" boolean DEFAULT false NOT NULL,
	"balance" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "api_keys_key_hash_unique" UNIQUE("key_hash"),
	CONSTRAINT "api_keys_balance_non_negative" CHECK ("api_keys"."balance" >= 0)
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"key_id" uuid NOT NULL,
	"type" text NOT NULL,
	"amount" bigint NOT NULL,
	"balance_after" bigint NOT NULL,
	"external_ref" text NOT NULL,
	"product" text,
	"model" text,
	"counterparty_key_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_entries_external_ref_unique" UNIQUE("external_ref"),
	CONSTRAINT "ledger_entries_amount_non_zero" CHECK ("ledger_entries"."amount" <> 0),
	CONSTRAINT "ledger_entries_balance_after_non_negative" CHECK ("ledger_entries"."balance_after" >= 0),
	CONSTRAINT "ledger_entries_type_sign" CHECK (("ledger_entries"."type" in ('trial', 'purchase', 'transfer_in') and "ledger_entries"."amount" > 0)
        or ("ledger_entries"."type" in ('consume', 'transfer_out', 'refund') and "ledger_entries"."amount" < 0)
        or "ledger_entries"."type" = 'adjustment')
);
--> statement-breakpoint
CREATE TABLE "balance_notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key_id" uuid NOT NULL,
	"threshold" bigint NOT NULL,
	"email" text NOT NULL,
	"armed" boolean NOT NULL,
	"last_fired_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "balance_notifications_key_threshold" UNIQUE("key_id","threshold"),
	CONSTRAINT "balance_notifications_threshold_positive" CHECK ("balance_notifications"."threshold" > 0)
);
--> statement-breakpoint
CREATE TABLE "captcha_redemptions" (
	"challenge_id" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "balance_notifications" ADD CONSTRAINT "balance_notifications_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_owner_idx" ON "api_keys" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "ledger_entries_key_idx" ON "ledger_entries" USING btree ("key_id","id");--> statement-breakpoint
CREATE INDEX "ledger_entries_consumption_idx" ON "ledger_entries" USING btree ("key_id","created_at") WHERE type = 'consume';--> statement-breakpoint
CREATE INDEX "captcha_redemptions_expires_idx" ON "captcha_redemptions" USING btree ("expires_at");