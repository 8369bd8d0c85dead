CREATE TABLE "classifiers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key_id" uuid NOT NULL,
	"model_name" text NOT NULL,
	"engine_model" text NOT NULL,
	"access" text NOT NULL,
	"labels" jsonb NOT NULL,
	"weights" "bytea" NOT NULL,
	"updated_number" integer DEFAULT 1 NOT NULL,
	"used_number" integer DEFAULT 0 NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "classifiers_access" CHECK ("classifiers"."access" in ('public', 'private'))
);
--> statement-breakpoint
ALTER TABLE "classifiers" ADD CONSTRAINT "classifiers_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "classifiers_key_idx" ON "classifiers" USING btree ("key_id","created_at");