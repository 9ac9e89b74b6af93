-- Failures in workflows (README "Failures"): a step that failed deterministically (or outlasted its
-- retry schedule) is shown on its subscription or invoice until an operator retries it.
ALTER TABLE "subscriptions" ADD COLUMN "billing_error" JSONB;
ALTER TABLE "invoices" ADD COLUMN "billing_error" JSONB;

-- Subscriptions' workflows start after the row commits (no RPC inside a transaction); the
-- reconciler starts those whose start did not happen. Rows created before this migration had
-- their workflow started inside their creating transaction.
ALTER TABLE "subscriptions" ADD COLUMN "workflow_started_at" TIMESTAMPTZ(6);
UPDATE "subscriptions" SET "workflow_started_at" = "created_at";
CREATE INDEX "subscriptions_workflow_not_started_idx" ON "subscriptions" ("created_at") WHERE "workflow_started_at" IS NULL;
