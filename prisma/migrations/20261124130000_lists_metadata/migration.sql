-- Metadata (your own key/value pairs, never read by billing) on plans, subscriptions and invoices.
ALTER TABLE "plans" ADD COLUMN "metadata" JSONB NOT NULL DEFAULT '{}';
ALTER TABLE "subscriptions" ADD COLUMN "metadata" JSONB NOT NULL DEFAULT '{}';
ALTER TABLE "invoices" ADD COLUMN "metadata" JSONB NOT NULL DEFAULT '{}';

-- A customer's usage events newest first (arrival order) for the admin list.
CREATE INDEX "usage_events_customer_id_seq_idx" ON "usage_events"("customer_id", "seq");
