-- Bounded sums: no accumulation of usage can overflow the money columns.
--
-- One row per customer and calendar month (UTC) of event timestamps: the sum over its stored events
-- of each event's magnitude, the largest |value| among the properties meters read ("quantity" and
-- every numeric meter's property of the event's type). Ingestion adds to it in the statement that
-- stores the events; the CHECK refuses what would pass the bound (SQLSTATE 23514), so the request
-- is answered 422 quantity_limit_exceeded and nothing of it is stored. The bound is the API's
-- MAX_MONTHLY_QUANTITY (services/metering/events.ts); prices are bounded by the catalog, so a period's
-- charge always fits DECIMAL(38,0).
CREATE TABLE "usage_quantity_totals" (
    "customer_id" UUID NOT NULL,
    "month" DATE NOT NULL,
    "magnitude" NUMERIC NOT NULL,
    CONSTRAINT "usage_quantity_totals_pkey" PRIMARY KEY ("customer_id", "month"),
    CONSTRAINT "usage_quantity_totals_bound" CHECK ("magnitude" <= 1000000000000000000)
);

-- The events stored before this migration, counted as ingestion counts them (capped at the bound:
-- what is stored already stays billable; only new events are refused).
INSERT INTO "usage_quantity_totals" ("customer_id", "month", "magnitude")
SELECT e."customer_id", date_trunc('month', e."occurred_at" AT TIME ZONE 'UTC')::date, LEAST(sum(m."magnitude"), 1000000000000000000)
FROM "usage_events" e
CROSS JOIN LATERAL (
  SELECT max(abs((e."properties" ->> p."name")::numeric)) AS "magnitude"
  FROM (SELECT 'quantity' AS "name" UNION SELECT "property" FROM "meters" WHERE "event_type" = e."event_type" AND "property" IS NOT NULL) p
  WHERE jsonb_typeof(e."properties" -> p."name") IN ('number', 'string') AND (e."properties" ->> p."name") ~ '^-?[0-9]+(\.[0-9]+)?$'
) m
WHERE m."magnitude" > 0
GROUP BY 1, 2;
