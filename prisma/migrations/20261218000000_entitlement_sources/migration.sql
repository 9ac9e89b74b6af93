-- Entitlement sources (docs/entitlements.md): what each grant gave, absorbed and carried at the end of
-- each closed period (written by the period roll's reset), and the once-per-period entitlement events.

-- One closed period of one grant: `carried` is what the grant gives the next period on top of a
-- recurring grant's quantity (its rollover, capped), or what is left of a one-off grant.
CREATE TABLE "entitlement_grant_periods" (
  "grant_id" UUID NOT NULL REFERENCES "entitlement_grants"("id") ON DELETE RESTRICT,
  "period_start" TIMESTAMPTZ(6) NOT NULL,
  "period_end" TIMESTAMPTZ(6) NOT NULL,
  "available" DECIMAL(38, 12) NOT NULL,
  "consumed" DECIMAL(38, 12) NOT NULL,
  "carried" DECIMAL(38, 12) NOT NULL,
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  PRIMARY KEY ("grant_id", "period_start"),
  CONSTRAINT "entitlement_grant_periods_non_negative" CHECK ("available" >= 0 AND "consumed" >= 0 AND "carried" >= 0),
  CONSTRAINT "entitlement_grant_periods_range" CHECK ("period_end" > "period_start")
);
CREATE INDEX "entitlement_grant_periods_end_idx" ON "entitlement_grant_periods" ("grant_id", "period_end");

-- entitlement.exhausted and entitlement.reset, each at most once per customer, feature and period.
CREATE TABLE "entitlement_period_events" (
  "customer_id" UUID NOT NULL REFERENCES "customers"("id") ON DELETE RESTRICT,
  "feature_id" UUID NOT NULL REFERENCES "features"("id") ON DELETE RESTRICT,
  "period_start" TIMESTAMPTZ(6) NOT NULL,
  "kind" TEXT NOT NULL,
  "occurred_at" TIMESTAMPTZ(6) NOT NULL,
  PRIMARY KEY ("customer_id", "feature_id", "period_start", "kind"),
  CONSTRAINT "entitlement_period_events_kind" CHECK ("kind" IN ('exhausted', 'reset'))
);

CREATE INDEX "entitlement_grants_live_idx" ON "entitlement_grants" ("customer_id", "feature_id") WHERE "voided_at" IS NULL;
