-- The audit trail's filters in pairs: an actor's entries of one action or entity, and one entity's
-- entries of one action, newest first, each a range read at a million entries.
CREATE INDEX "audit_entries_entity_action_at_idx" ON "audit_entries" USING btree ("entity","action","at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "audit_entries_actorId_action_at_idx" ON "audit_entries" USING btree ("actorId","action","at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "audit_entries_actorId_entity_at_idx" ON "audit_entries" USING btree ("actorId","entity","at" DESC NULLS FIRST,"id" DESC NULLS FIRST);