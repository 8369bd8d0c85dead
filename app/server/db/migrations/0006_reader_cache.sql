CREATE TABLE "reader_cache" (
	"key" text PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"page" jsonb NOT NULL,
	"bytes" bigint NOT NULL,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "reader_cache_expires_idx" ON "reader_cache" USING btree ("expires_at");