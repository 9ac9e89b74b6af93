-- The pricing models real catalogs use (docs/catalog.md "Pricing models"):
-- - Percentage: a fee per usage event on an amount property of the event
--   (clamp(amount × percentage_bps / 10000 + per_event_fee, per_event_minimum, per_event_maximum));
-- - Package free units: units free before the first package;
-- - a minimum spend per usage SKU, made up by a true-up line at the period close.
-- Every new amount is raw units (scale 12) in DECIMAL(38,0), like the other prices.
ALTER TYPE "PricingModel" ADD VALUE 'Percentage';

ALTER TABLE "skus"
    ADD COLUMN "package_free_units" DECIMAL(38,0),
    ADD COLUMN "minimum_amount_nanos" DECIMAL(38,0),
    ADD COLUMN "percentage_bps" INTEGER,
    ADD COLUMN "amount_property" TEXT,
    ADD COLUMN "per_event_fee_nanos" DECIMAL(38,0),
    ADD COLUMN "per_event_minimum_nanos" DECIMAL(38,0),
    ADD COLUMN "per_event_maximum_nanos" DECIMAL(38,0),
    ADD CONSTRAINT "skus_package_free_units" CHECK ("package_free_units" IS NULL OR "package_free_units" >= 0),
    ADD CONSTRAINT "skus_minimum_amount" CHECK ("minimum_amount_nanos" IS NULL OR "minimum_amount_nanos" >= 0),
    ADD CONSTRAINT "skus_percentage_bps" CHECK ("percentage_bps" IS NULL OR "percentage_bps" BETWEEN 0 AND 10000),
    ADD CONSTRAINT "skus_per_event_bounds" CHECK ("per_event_minimum_nanos" IS NULL OR "per_event_maximum_nanos" IS NULL OR "per_event_minimum_nanos" <= "per_event_maximum_nanos");
