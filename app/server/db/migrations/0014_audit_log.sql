CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" text,
	"key_id" uuid,
	"action" text NOT NULL,
	"actor" text NOT NULL,
	"client_address" text,
	"request_id" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "audit_log_account_idx" ON "audit_log" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "audit_log_key_idx" ON "audit_log" USING btree ("key_id","id");