-- Audit entries name processor events too, whose ids are the processor's (evt_…), not UUIDs.
ALTER TABLE "audit_log" ALTER COLUMN "entity_id" SET DATA TYPE TEXT;
