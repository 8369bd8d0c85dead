CREATE TABLE "auto_recharge_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key_id" uuid NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"price_id" text,
	"purchase_id" uuid,
	"payment_intent_id" text,
	"failure" text,
	"tries" integer DEFAULT 0 NOT NULL,
	"next_try_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "auto_recharge_attempts_payment_intent_id_unique" UNIQUE("payment_intent_id")
);
--> statement-breakpoint
CREATE TABLE "billing_debts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key_id" uuid NOT NULL,
	"tokens" bigint NOT NULL,
	"reason" text NOT NULL,
	"external_ref" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "billing_debts_external_ref_unique" UNIQUE("external_ref")
);
--> statement-breakpoint
CREATE TABLE "billing_profiles" (
	"key_id" uuid PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"customer_id" text,
	"payment_method_id" text,
	"card_brand" text,
	"card_last4" text,
	"recharge_price_id" text,
	"disabled_reason" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "purchases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"kind" text NOT NULL,
	"checkout_session_id" text,
	"payment_intent_id" text,
	"price_id" text NOT NULL,
	"tokens" bigint NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"recharge_threshold" bigint,
	"email" text,
	"receipt_url" text,
	"card_brand" text,
	"card_last4" text,
	"reversed_tokens" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	CONSTRAINT "purchases_checkout_session_id_unique" UNIQUE("checkout_session_id"),
	CONSTRAINT "purchases_payment_intent_id_unique" UNIQUE("payment_intent_id"),
	CONSTRAINT "purchases_reversed" CHECK ("purchases"."reversed_tokens" between 0 and "purchases"."tokens")
);
--> statement-breakpoint
CREATE TABLE "sandbox_objects" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "auto_recharge_threshold" bigint;--> statement-breakpoint
ALTER TABLE "auto_recharge_attempts" ADD CONSTRAINT "auto_recharge_attempts_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_recharge_attempts" ADD CONSTRAINT "auto_recharge_attempts_purchase_id_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_debts" ADD CONSTRAINT "billing_debts_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_profiles" ADD CONSTRAINT "billing_profiles_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "auto_recharge_attempts_open_idx" ON "auto_recharge_attempts" USING btree ("key_id") WHERE status in ('pending', 'charging');--> statement-breakpoint
CREATE INDEX "auto_recharge_attempts_due_idx" ON "auto_recharge_attempts" USING btree ("next_try_at") WHERE status in ('pending', 'charging');--> statement-breakpoint
CREATE INDEX "auto_recharge_attempts_key_idx" ON "auto_recharge_attempts" USING btree ("key_id","created_at");--> statement-breakpoint
CREATE INDEX "purchases_key_idx" ON "purchases" USING btree ("key_id","created_at");--> statement-breakpoint
-- Before payments nothing turned auto-recharge on; a key that claims it without a threshold has it off.
UPDATE "api_keys" SET "auto_recharge" = false WHERE "auto_recharge" AND "auto_recharge_threshold" IS NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_auto_recharge_threshold" CHECK (("api_keys"."auto_recharge" and "api_keys"."auto_recharge_threshold" > 0) or (not "api_keys"."auto_recharge" and "api_keys"."auto_recharge_threshold" is null));