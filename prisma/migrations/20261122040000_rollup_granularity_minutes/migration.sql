-- Rollup granularity is now counted in minutes (5, 60, 1440) instead of hours (1, 24). Rollups are
-- derived data: drop the old rows and rewind every cursor, so the next pass rebuilds them from
-- usage_events (reads stay exact meanwhile: what is not rolled up is read raw).
DELETE FROM "usage_rollup_values";
DELETE FROM "usage_rollups";
UPDATE "usage_rollup_cursors" SET "position" = 0, "updated_at" = now();

ALTER TABLE "usage_rollups" ADD CONSTRAINT "usage_rollups_granularity_check" CHECK ("granularity" IN (5, 60, 1440));
ALTER TABLE "usage_rollup_values" ADD CONSTRAINT "usage_rollup_values_granularity_check" CHECK ("granularity" IN (5, 60, 1440));
