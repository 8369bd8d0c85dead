ALTER TABLE "api_keys" ADD COLUMN "daily_cap" bigint;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "monthly_cap" bigint;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "allowed_products" text[];--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "allowed_models" text[];--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "allowed_networks" text[];--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "spent_day" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "spent_day_of" date;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "spent_month" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "spent_month_of" date;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_caps_positive" CHECK ("api_keys"."daily_cap" > 0 and "api_keys"."monthly_cap" > 0);--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_spent_non_negative" CHECK ("api_keys"."spent_day" >= 0 and "api_keys"."spent_month" >= 0);