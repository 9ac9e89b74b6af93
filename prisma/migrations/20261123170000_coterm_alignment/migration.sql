-- Coterm realignment of a running subscription (contract adoption type Coterm): the period in course
-- is cut at the adoption and a stub runs to the first boundary aligned on the contract end. Their
-- recurring fees are prorated over the calendar periods they belong to (the cut period's original
-- one, the stub's aligned one), recorded here per subscription period.
CREATE TABLE "subscription_period_bases" (
    "subscription_id" UUID NOT NULL,
    "period_start" TIMESTAMPTZ(6) NOT NULL,
    "period_end" TIMESTAMPTZ(6) NOT NULL,
    "basis_start" DATE NOT NULL,
    "basis_end" DATE NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "subscription_period_bases_pkey" PRIMARY KEY ("subscription_id", "period_start"),
    CONSTRAINT "subscription_period_bases_ranges" CHECK ("period_end" > "period_start" AND "basis_end" > "basis_start")
);
ALTER TABLE "subscription_period_bases" ADD CONSTRAINT "subscription_period_bases_subscription_id_fkey"
  FOREIGN KEY ("subscription_id") REFERENCES "subscriptions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

ALTER TABLE "contract_subscriptions" ADD COLUMN "aligned_at" TIMESTAMPTZ(6);
ALTER TABLE "contract_subscriptions" ADD COLUMN "aligned_from" TIMESTAMPTZ(6);
