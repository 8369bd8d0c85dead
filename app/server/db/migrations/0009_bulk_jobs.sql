CREATE TABLE "bulk_job_batches" (
	"job_id" uuid NOT NULL,
	"batch_index" integer NOT NULL,
	"rows" integer NOT NULL,
	"tokens" bigint NOT NULL,
	"worker" text NOT NULL,
	"completed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bulk_job_batches_job_id_batch_index_pk" PRIMARY KEY("job_id","batch_index")
);
--> statement-breakpoint
CREATE TABLE "bulk_jobs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"key_id" uuid NOT NULL,
	"model" text NOT NULL,
	"file_name" text NOT NULL,
	"user_email" text,
	"status" text DEFAULT 'waiting' NOT NULL,
	"total_rows" integer NOT NULL,
	"total_tokens" bigint NOT NULL,
	"batch_size" integer NOT NULL,
	"next_batch" integer DEFAULT 0 NOT NULL,
	"processed_rows" integer DEFAULT 0 NOT NULL,
	"used_token_count" bigint DEFAULT 0 NOT NULL,
	"error" text,
	"input_object" text NOT NULL,
	"result_object" text,
	"result_rows" integer,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"claims" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	CONSTRAINT "bulk_jobs_status" CHECK ("bulk_jobs"."status" in ('waiting', 'in-progress', 'failed', 'completed')),
	CONSTRAINT "bulk_jobs_progress" CHECK ("bulk_jobs"."processed_rows" between 0 and "bulk_jobs"."total_rows")
);
--> statement-breakpoint
ALTER TABLE "bulk_job_batches" ADD CONSTRAINT "bulk_job_batches_job_id_bulk_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."bulk_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_jobs" ADD CONSTRAINT "bulk_jobs_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bulk_jobs_key_idx" ON "bulk_jobs" USING btree ("key_id","created_at");--> statement-breakpoint
CREATE INDEX "bulk_jobs_queue_idx" ON "bulk_jobs" USING btree ("created_at") WHERE status in ('waiting', 'in-progress');