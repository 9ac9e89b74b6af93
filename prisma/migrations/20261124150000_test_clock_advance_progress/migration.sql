-- Test clocks advance asynchronously (a Temporal workflow per advance): their status and the progress of the latest advance.
ALTER TABLE "test_clocks" ADD COLUMN "status" TEXT NOT NULL DEFAULT 'ready';
ALTER TABLE "test_clocks" ADD CONSTRAINT "test_clocks_status_check" CHECK ("status" IN ('ready', 'advancing', 'internal_failure'));
ALTER TABLE "test_clocks" ADD COLUMN "simulated_time" TIMESTAMPTZ(6);
ALTER TABLE "test_clocks" ADD COLUMN "advance_subscriptions_total" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "test_clocks" ADD COLUMN "advance_subscriptions_done" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "test_clocks" ADD COLUMN "advance_started_at" TIMESTAMPTZ(6);
ALTER TABLE "test_clocks" ADD COLUMN "advance_finished_at" TIMESTAMPTZ(6);
