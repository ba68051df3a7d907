ALTER TABLE "syndication_logs" ADD COLUMN "attempt" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "syndication_logs" ADD COLUMN "retryAt" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "syndication_logs_retryAt_idx" ON "syndication_logs" USING btree ("retryAt") WHERE "syndication_logs"."retryAt" is not null;--> statement-breakpoint
CREATE INDEX "syndication_logs_pending_runAt_idx" ON "syndication_logs" USING btree ("runAt") WHERE "syndication_logs"."status" = 'PENDING';