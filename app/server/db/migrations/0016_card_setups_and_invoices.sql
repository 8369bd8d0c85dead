CREATE TABLE "billing_details" (
	"key_id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"address" text NOT NULL,
	"tax_id" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "card_setups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"checkout_session_id" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"price_id" text NOT NULL,
	"threshold" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"saved_at" timestamp with time zone,
	CONSTRAINT "card_setups_checkout_session_id_unique" UNIQUE("checkout_session_id")
);
--> statement-breakpoint
CREATE TABLE "invoice_counter" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"last_number" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "invoice_counter_single" CHECK ("invoice_counter"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"number" bigint PRIMARY KEY NOT NULL,
	"purchase_id" uuid NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"billing_name" text,
	"billing_address" text,
	"billing_tax_id" text,
	"details_fixed_at" timestamp with time zone,
	CONSTRAINT "invoices_purchase_id_unique" UNIQUE("purchase_id")
);
--> statement-breakpoint
ALTER TABLE "billing_profiles" ADD COLUMN "email" text;--> statement-breakpoint
ALTER TABLE "billing_details" ADD CONSTRAINT "billing_details_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_setups" ADD CONSTRAINT "card_setups_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_purchase_id_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- The counter's one row, and invoices for the purchases paid before invoices existed, numbered in the order they were paid.
INSERT INTO "invoices" ("number", "purchase_id", "issued_at")
  SELECT row_number() OVER (ORDER BY "paid_at", "id"), "id", "paid_at" FROM "purchases" WHERE "status" = 'paid' AND "paid_at" IS NOT NULL;--> statement-breakpoint
INSERT INTO "invoice_counter" ("id", "last_number") SELECT 1, count(*) FROM "invoices";
