-- Applying a processor notification failed in a way no automatic retry fixes, held for an operator: { step, type, message, failed_at }; null when none.
ALTER TABLE "processor_events" ADD COLUMN "billing_error" JSONB;

-- GET /admin/v1/processor-events: newest first by arrival, the event id breaking ties.
CREATE INDEX "processor_events_received_at_id_idx" ON "processor_events"("received_at", "id");
