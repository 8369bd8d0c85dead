CREATE TABLE "files" (
	"id" text PRIMARY KEY NOT NULL,
	"key_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"file_name" text NOT NULL,
	"bytes" bigint NOT NULL,
	"object" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "files_purpose" CHECK ("files"."purpose" in ('batch', 'batch_output'))
);
--> statement-breakpoint
ALTER TABLE "bulk_job_batches" ADD COLUMN "failed_rows" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "bulk_jobs" ADD COLUMN "kind" text DEFAULT 'embeddings' NOT NULL;--> statement-breakpoint
ALTER TABLE "bulk_jobs" ADD COLUMN "endpoint" text;--> statement-breakpoint
ALTER TABLE "bulk_jobs" ADD COLUMN "metadata" jsonb;--> statement-breakpoint
ALTER TABLE "bulk_jobs" ADD COLUMN "input_file_id" text;--> statement-breakpoint
ALTER TABLE "bulk_jobs" ADD COLUMN "output_file_id" text;--> statement-breakpoint
ALTER TABLE "bulk_jobs" ADD COLUMN "error_file_id" text;--> statement-breakpoint
ALTER TABLE "bulk_jobs" ADD COLUMN "failed_rows" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "files_key_idx" ON "files" USING btree ("key_id","created_at");--> statement-breakpoint
ALTER TABLE "bulk_jobs" ADD CONSTRAINT "bulk_jobs_kind" CHECK ("bulk_jobs"."kind" in ('embeddings', 'batch'));--> statement-breakpoint
ALTER TABLE "bulk_jobs" ADD CONSTRAINT "bulk_jobs_failed_rows" CHECK ("bulk_jobs"."failed_rows" between 0 and "bulk_jobs"."processed_rows");