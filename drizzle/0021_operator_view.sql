CREATE TABLE "audit_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"actorId" uuid,
	"actorRole" "Role",
	"actorEmail" text,
	"action" text NOT NULL,
	"entity" text NOT NULL,
	"entityId" text,
	"changes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"requestId" text,
	"ip" text
);
--> statement-breakpoint
ALTER TABLE "syndication_logs" ADD COLUMN "retryAfterSeconds" integer;--> statement-breakpoint
CREATE INDEX "audit_entries_at_idx" ON "audit_entries" USING btree ("at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "audit_entries_entity_entityId_at_idx" ON "audit_entries" USING btree ("entity","entityId","at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "audit_entries_entity_at_idx" ON "audit_entries" USING btree ("entity","at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "audit_entries_actorId_at_idx" ON "audit_entries" USING btree ("actorId","at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "audit_entries_action_at_idx" ON "audit_entries" USING btree ("action","at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "syndication_logs_status_runAt_idx" ON "syndication_logs" USING btree ("status","runAt");--> statement-breakpoint
CREATE INDEX "syndication_logs_rateLimited_runAt_idx" ON "syndication_logs" USING btree ("runAt") WHERE "syndication_logs"."retryAfterSeconds" is not null;