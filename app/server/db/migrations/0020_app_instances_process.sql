ALTER TABLE "app_instances" ADD COLUMN "pid" integer;--> statement-breakpoint
ALTER TABLE "app_instances" ADD COLUMN "process_scope" text;--> statement-breakpoint
ALTER TABLE "app_instances" ADD COLUMN "process_started" text;