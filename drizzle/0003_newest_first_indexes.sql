DROP INDEX "listings_agentId_createdAt_idx";--> statement-breakpoint
DROP INDEX "listings_status_createdAt_idx";--> statement-breakpoint
DROP INDEX "listings_createdAt_idx";--> statement-breakpoint
DROP INDEX "notifications_userId_createdAt_idx";--> statement-breakpoint
DROP INDEX "syndication_logs_listingId_runAt_idx";--> statement-breakpoint
DROP INDEX "syndication_logs_runAt_idx";--> statement-breakpoint
CREATE INDEX "listings_agentId_createdAt_idx" ON "listings" USING btree ("agentId","createdAt" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "listings_status_createdAt_idx" ON "listings" USING btree ("status","createdAt" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "listings_createdAt_idx" ON "listings" USING btree ("createdAt" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "notifications_userId_createdAt_idx" ON "notifications" USING btree ("userId","createdAt" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "syndication_logs_listingId_runAt_idx" ON "syndication_logs" USING btree ("listingId","runAt" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "syndication_logs_runAt_idx" ON "syndication_logs" USING btree ("runAt" DESC NULLS FIRST,"id" DESC NULLS FIRST);