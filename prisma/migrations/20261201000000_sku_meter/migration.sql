-- A SKU prices one meter: `meter_id` names it. Null means the default meter of the SKU's
-- meter_event_type (its oldest meter, else the event type's built-in default), resolved when rated.
ALTER TABLE "skus" ADD COLUMN "meter_id" UUID;
ALTER TABLE "skus" ADD CONSTRAINT "skus_meter_id_fkey" FOREIGN KEY ("meter_id") REFERENCES "meters"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
CREATE INDEX "skus_meter_id_idx" ON "skus"("meter_id");

-- Aggregations as SPEC spells them (the API still accepts Latest and WeightedSum on input).
ALTER TYPE "MeterAggregation" RENAME VALUE 'Latest' TO 'LATEST';
ALTER TYPE "MeterAggregation" RENAME VALUE 'WeightedSum' TO 'WEIGHTED_SUM';
