-- The operator views list every resource whose workflow holds a step for an operator (billing_error set):
-- partial indexes keep that read small however many resources have none.
CREATE INDEX "subscriptions_held_idx" ON "subscriptions" ("updated_at") WHERE "billing_error" IS NOT NULL;
CREATE INDEX "invoices_held_idx" ON "invoices" ("updated_at") WHERE "billing_error" IS NOT NULL;
CREATE INDEX "dunning_schedules_held_idx" ON "dunning_schedules" ("updated_at") WHERE "billing_error" IS NOT NULL;
CREATE INDEX "contracts_held_idx" ON "contracts" ("updated_at") WHERE "billing_error" IS NOT NULL;
CREATE INDEX "processor_events_held_idx" ON "processor_events" ("received_at") WHERE "billing_error" IS NOT NULL;
CREATE INDEX "wallet_top_ups_held_idx" ON "wallet_top_ups" ("updated_at") WHERE "billing_error" IS NOT NULL;

-- The operator overview lists running advances and the latest finished ones.
CREATE INDEX "test_clocks_advance_started_idx" ON "test_clocks" ("advance_started_at") WHERE "advance_started_at" IS NOT NULL;
