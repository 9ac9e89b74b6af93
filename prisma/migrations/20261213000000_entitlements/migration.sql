-- Entitlements (docs/entitlements.md): features in the catalog, attached to plan versions, overridden per
-- subscription or contract; grants of extra quantity; reservations held by `check` with `reserve: true`.

CREATE TYPE "FeatureKind" AS ENUM ('Boolean', 'Metered', 'Static');
CREATE TYPE "FeatureLimit" AS ENUM ('HardStop', 'Overage');

CREATE TABLE "features" (
  "id" UUID NOT NULL PRIMARY KEY,
  "key" TEXT NOT NULL,
  "name" TEXT NOT NULL,
  "kind" "FeatureKind" NOT NULL,
  -- Metered: the meter its usage is read from (null: the default meter of meter_event_type).
  "meter_id" UUID REFERENCES "meters"("id") ON DELETE RESTRICT,
  "meter_event_type" TEXT,
  "unit" TEXT NOT NULL DEFAULT 'units',
  "archived_at" TIMESTAMPTZ(6),
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  CONSTRAINT "features_key_unique" UNIQUE ("key"),
  CONSTRAINT "features_key_format" CHECK ("key" ~ '^[a-z0-9][a-z0-9_.-]{0,63}$'),
  CONSTRAINT "features_metered_has_meter" CHECK (("kind" = 'Metered') = ("meter_event_type" IS NOT NULL))
);

-- A feature on a plan version range [version_from, version_to), like a SKU.
CREATE TABLE "plan_features" (
  "id" UUID NOT NULL PRIMARY KEY,
  "plan_id" UUID NOT NULL REFERENCES "plans"("id") ON DELETE RESTRICT,
  "feature_id" UUID NOT NULL REFERENCES "features"("id") ON DELETE RESTRICT,
  "version_from" INTEGER NOT NULL,
  "version_to" INTEGER,
  "enabled" BOOLEAN NOT NULL DEFAULT true,
  "included_quantity" DECIMAL(38, 12),
  "limit_behavior" "FeatureLimit",
  "overage_sku_id" UUID REFERENCES "skus"("id") ON DELETE RESTRICT,
  "value" JSONB,
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  CONSTRAINT "plan_features_included_not_negative" CHECK ("included_quantity" IS NULL OR "included_quantity" >= 0),
  CONSTRAINT "plan_features_overage_has_sku" CHECK (("limit_behavior" = 'Overage') = ("overage_sku_id" IS NOT NULL))
);
CREATE INDEX "plan_features_plan_idx" ON "plan_features" ("plan_id", "feature_id");

-- An override of a feature for one subscription or for every subscription of one contract.
CREATE TABLE "feature_overrides" (
  "id" UUID NOT NULL PRIMARY KEY,
  "feature_id" UUID NOT NULL REFERENCES "features"("id") ON DELETE RESTRICT,
  "subscription_id" UUID REFERENCES "subscriptions"("id") ON DELETE RESTRICT,
  "contract_id" UUID REFERENCES "contracts"("id") ON DELETE RESTRICT,
  "enabled" BOOLEAN,
  "included_quantity" DECIMAL(38, 12),
  "limit_behavior" "FeatureLimit",
  "value" JSONB,
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  CONSTRAINT "feature_overrides_one_owner" CHECK (("subscription_id" IS NULL) <> ("contract_id" IS NULL)),
  CONSTRAINT "feature_overrides_included_not_negative" CHECK ("included_quantity" IS NULL OR "included_quantity" >= 0)
);
CREATE UNIQUE INDEX "feature_overrides_subscription_unique" ON "feature_overrides" ("subscription_id", "feature_id") WHERE "subscription_id" IS NOT NULL;
CREATE UNIQUE INDEX "feature_overrides_contract_unique" ON "feature_overrides" ("contract_id", "feature_id") WHERE "contract_id" IS NOT NULL;

-- Extra quantity of a metered feature for a customer: one-off (for its validity) or recurring (each period).
CREATE TABLE "entitlement_grants" (
  "id" UUID NOT NULL PRIMARY KEY,
  "customer_id" UUID NOT NULL REFERENCES "customers"("id") ON DELETE RESTRICT,
  "feature_id" UUID NOT NULL REFERENCES "features"("id") ON DELETE RESTRICT,
  "quantity" DECIMAL(38, 12) NOT NULL,
  "recurring" BOOLEAN NOT NULL DEFAULT false,
  "priority" INTEGER NOT NULL DEFAULT 0,
  "rollover_cap" DECIMAL(38, 12),
  "effective_at" TIMESTAMPTZ(6) NOT NULL,
  "expires_at" TIMESTAMPTZ(6),
  "voided_at" TIMESTAMPTZ(6),
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  CONSTRAINT "entitlement_grants_quantity_positive" CHECK ("quantity" > 0),
  CONSTRAINT "entitlement_grants_rollover_cap" CHECK ("rollover_cap" IS NULL OR "rollover_cap" >= 0),
  CONSTRAINT "entitlement_grants_expiry" CHECK ("expires_at" IS NULL OR "expires_at" > "effective_at")
);
CREATE INDEX "entitlement_grants_customer_idx" ON "entitlement_grants" ("customer_id", "feature_id");

-- Quantity held by a check with reserve: true until a usage event naming it commits it or it expires.
CREATE TABLE "entitlement_reservations" (
  "id" UUID NOT NULL PRIMARY KEY,
  "customer_id" UUID NOT NULL REFERENCES "customers"("id") ON DELETE RESTRICT,
  "feature_id" UUID NOT NULL REFERENCES "features"("id") ON DELETE RESTRICT,
  "quantity" DECIMAL(38, 12) NOT NULL,
  "expires_at" TIMESTAMPTZ(6) NOT NULL,
  "committed_at" TIMESTAMPTZ(6),
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
  CONSTRAINT "entitlement_reservations_quantity_positive" CHECK ("quantity" > 0)
);
CREATE INDEX "entitlement_reservations_held_idx" ON "entitlement_reservations" ("customer_id", "feature_id", "expires_at") WHERE "committed_at" IS NULL;
