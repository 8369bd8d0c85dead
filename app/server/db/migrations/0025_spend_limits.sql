CREATE TABLE "spend_limits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subject_kind" text NOT NULL,
	"subject_id" uuid NOT NULL,
	"unit" text NOT NULL,
	"amount" numeric(24, 6) NOT NULL,
	"period" text NOT NULL,
	"used" bigint DEFAULT 0 NOT NULL,
	"period_of" date,
	"alert_percent" smallint,
	"alert_email" text,
	"alerted_of" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "spend_limits_subject_kind" CHECK ("spend_limits"."subject_kind" in ('key', 'project')),
	CONSTRAINT "spend_limits_unit" CHECK ("spend_limits"."unit" in ('tokens', 'usd')),
	CONSTRAINT "spend_limits_period" CHECK ("spend_limits"."period" in ('day', 'week', 'month')),
	CONSTRAINT "spend_limits_amount" CHECK ("spend_limits"."amount" > 0 and ("spend_limits"."unit" = 'usd' or "spend_limits"."amount" = trunc("spend_limits"."amount"))),
	CONSTRAINT "spend_limits_used" CHECK ("spend_limits"."used" >= 0),
	CONSTRAINT "spend_limits_alert" CHECK (("spend_limits"."alert_percent" is null and "spend_limits"."alert_email" is null) or ("spend_limits"."alert_percent" between 1 and 100 and "spend_limits"."alert_email" is not null))
);
--> statement-breakpoint
CREATE INDEX "spend_limits_subject_idx" ON "spend_limits" USING btree ("subject_kind","subject_id");