-- Every accepted usage event billed exactly once.
--
-- One row per closed subscription period: the period close inserts it in the transaction that
-- bills the period, so a retried or replayed close (a worker killed at any step) finds it and never
-- opens a second regular invoice for the period. `accounted_seq` is how far (in usage_events.seq)
-- the late events of the period have been billed: events that arrive after the close are billed as
-- prior-period adjustment lines by a later close (or a correction invoice once the subscription has
-- ended), which then moves it.
CREATE TABLE "subscription_period_closes" (
    "subscription_id" UUID NOT NULL,
    "period_start" TIMESTAMPTZ(6) NOT NULL,
    "period_end" TIMESTAMPTZ(6) NOT NULL,
    "invoice_id" UUID,
    "accounted_seq" BIGINT NOT NULL,
    "closed_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
    CONSTRAINT "subscription_period_closes_pkey" PRIMARY KEY ("subscription_id", "period_start"),
    CONSTRAINT "subscription_period_closes_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "subscriptions"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- Periods closed before this migration: every period a regular (cycle or final) invoice billed.
-- Their late events are counted from here on (accounted_seq: every event stored so far).
INSERT INTO "subscription_period_closes" ("subscription_id", "period_start", "period_end", "invoice_id", "accounted_seq", "closed_at")
SELECT DISTINCT ON (l."subscription_id", l."period_start")
       l."subscription_id", l."period_start", l."period_end", i."id",
       (SELECT COALESCE(max("seq"), 0) FROM "usage_events"), i."created_at"
FROM "invoice_line_items" l JOIN "invoices" i ON i."id" = l."invoice_id"
WHERE i."billing_reason" IN ('subscription_cycle', 'subscription_final')
  AND l."subscription_id" IS NOT NULL AND l."period_start" IS NOT NULL AND l."period_end" IS NOT NULL
ORDER BY l."subscription_id", l."period_start", i."created_at";

-- Why an accepted event will never be billed (no subscription covers its timestamp, or a trial
-- does); null for a billable event.
ALTER TABLE "usage_events" ADD COLUMN "unbillable_reason" TEXT;

-- Late events (their period was closed when they arrived) are few: a close finds those it has not
-- billed yet through this index instead of reading the period's events.
CREATE INDEX "usage_events_late_idx" ON "usage_events" ("customer_id", "seq") WHERE "late";
-- The usage summary counts a subscription's unbillable events.
CREATE INDEX "usage_events_unbillable_idx" ON "usage_events" ("customer_id", "subscription_id") WHERE "unbillable_reason" IS NOT NULL;
