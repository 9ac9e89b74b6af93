-- Deliveries waiting on an open circuit park (parked_at) instead of each waking on a timer; the
-- circuit waker wakes an endpoint's parked deliveries when its circuit lets them through. The
-- partial index keeps "which endpoints have parked deliveries" a scan of the parked ones only.
ALTER TABLE "webhook_deliveries" ADD COLUMN "parked_at" TIMESTAMPTZ(6);
CREATE INDEX "webhook_deliveries_parked_idx" ON "webhook_deliveries"("endpoint_id", "id") WHERE "parked_at" IS NOT NULL;

-- An endpoint's outage: when its current run of failed attempts began (cleared by a success), and
-- when and why it was disabled after a long one (Stripe-like); enabling it clears both.
ALTER TABLE "webhook_endpoints" ADD COLUMN "failing_since" TIMESTAMPTZ(6);
ALTER TABLE "webhook_endpoints" ADD COLUMN "disabled_at" TIMESTAMPTZ(6);
ALTER TABLE "webhook_endpoints" ADD COLUMN "disabled_reason" TEXT;
