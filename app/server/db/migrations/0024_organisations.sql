CREATE TABLE "invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organisation_id" uuid NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"token_hash" text NOT NULL,
	"invited_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"accepted_by" text,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "invitations_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "invitations_role" CHECK ("invitations"."role" in ('owner', 'admin', 'developer', 'billing', 'viewer'))
);
--> statement-breakpoint
CREATE TABLE "memberships" (
	"organisation_id" uuid NOT NULL,
	"uid" text NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "memberships_organisation_id_uid_pk" PRIMARY KEY("organisation_id","uid"),
	CONSTRAINT "memberships_role" CHECK ("memberships"."role" in ('owner', 'admin', 'developer', 'billing', 'viewer'))
);
--> statement-breakpoint
CREATE TABLE "organisations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"personal" boolean DEFAULT false NOT NULL,
	"created_by" text,
	"balance_key_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "organisations_personal_balance" CHECK (not ("organisations"."personal" and "organisations"."balance_key_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organisation_id" uuid NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "organisation_id" uuid;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "project_id" uuid;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "balance_key_id" uuid;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "balance_key_id" uuid;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_verified" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_invited_by_users_uid_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_accepted_by_users_uid_fk" FOREIGN KEY ("accepted_by") REFERENCES "public"."users"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_uid_users_uid_fk" FOREIGN KEY ("uid") REFERENCES "public"."users"("uid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisations" ADD CONSTRAINT "organisations_created_by_users_uid_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invitations_organisation_idx" ON "invitations" USING btree ("organisation_id","created_at");--> statement-breakpoint
CREATE INDEX "memberships_uid_idx" ON "memberships" USING btree ("uid");--> statement-breakpoint
CREATE UNIQUE INDEX "organisations_personal_idx" ON "organisations" USING btree ("created_by") WHERE "organisations"."personal";--> statement-breakpoint
CREATE INDEX "projects_organisation_idx" ON "projects" USING btree ("organisation_id","created_at");--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_balance_key_id_api_keys_id_fk" FOREIGN KEY ("balance_key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_organisation_idx" ON "api_keys" USING btree ("organisation_id") WHERE "api_keys"."organisation_id" is not null;--> statement-breakpoint
CREATE INDEX "ledger_entries_balance_key_idx" ON "ledger_entries" USING btree ("balance_key_id","id") WHERE "ledger_entries"."balance_key_id" is not null;--> statement-breakpoint
-- Not in drizzle's schema (api_keys references organisations, and schema files import no circle).
ALTER TABLE "organisations" ADD CONSTRAINT "organisations_balance_key_id_api_keys_id_fk" FOREIGN KEY ("balance_key_id") REFERENCES "public"."api_keys"("id");--> statement-breakpoint
-- Every account has its personal organisation, which it owns. Its keys are not rewritten (the running release
-- meters them): a key with an owner and no organisation is in its owner's personal organisation.
INSERT INTO "organisations" ("name", "personal", "created_by")
SELECT 'Personal', true, "uid" FROM "users"
ON CONFLICT ("created_by") WHERE "personal" DO NOTHING;--> statement-breakpoint
INSERT INTO "memberships" ("organisation_id", "uid", "role")
SELECT "id", "created_by", 'owner' FROM "organisations" WHERE "personal"
ON CONFLICT DO NOTHING;
