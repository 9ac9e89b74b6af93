-- CreateEnum
CREATE TYPE "MeterAggregation" AS ENUM ('Sum', 'Count', 'Max', 'UniqueCount', 'Latest', 'WeightedSum');

-- CreateEnum
CREATE TYPE "MeterWindow" AS ENUM ('BillingPeriod', 'Sliding', 'Tumbling');

-- CreateTable
CREATE TABLE "usage_events" (
    "seq" BIGSERIAL NOT NULL,
    "id" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "customer_id" UUID NOT NULL,
    "subscription_id" UUID,
    "occurred_at" TIMESTAMPTZ(6) NOT NULL,
    "properties" JSONB NOT NULL DEFAULT '{}',
    "source" TEXT,
    "late" BOOLEAN NOT NULL DEFAULT false,
    "received_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "usage_events_pkey" PRIMARY KEY ("seq")
);

-- CreateTable
CREATE TABLE "meters" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "event_type" TEXT NOT NULL,
    "aggregation" "MeterAggregation" NOT NULL,
    "property" TEXT,
    "filters" JSONB NOT NULL DEFAULT '[]',
    "window_type" "MeterWindow" NOT NULL,
    "window_size_seconds" INTEGER,
    "unit" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "meters_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "usage_rollups" (
    "aggregator" TEXT NOT NULL,
    "customer_id" UUID NOT NULL,
    "subscription_key" UUID NOT NULL,
    "granularity" SMALLINT NOT NULL,
    "bucket_start" TIMESTAMPTZ(6) NOT NULL,
    "event_count" BIGINT NOT NULL,
    "late_count" BIGINT NOT NULL,
    "value_sum" numeric,
    "value_max" numeric,
    "weighted_sum" numeric,
    "latest_at" TIMESTAMPTZ(6),
    "latest_id" TEXT,
    "latest_value" numeric,

    CONSTRAINT "usage_rollups_pkey" PRIMARY KEY ("aggregator","customer_id","granularity","bucket_start","subscription_key")
);

-- CreateTable
CREATE TABLE "usage_rollup_values" (
    "aggregator" TEXT NOT NULL,
    "customer_id" UUID NOT NULL,
    "subscription_key" UUID NOT NULL,
    "granularity" SMALLINT NOT NULL,
    "bucket_start" TIMESTAMPTZ(6) NOT NULL,
    "value_key" BYTEA NOT NULL,

    CONSTRAINT "usage_rollup_values_pkey" PRIMARY KEY ("aggregator","customer_id","granularity","bucket_start","subscription_key","value_key")
);

-- CreateTable
CREATE TABLE "usage_rollup_cursors" (
    "aggregator" TEXT NOT NULL,
    "position" BIGINT NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "usage_rollup_cursors_pkey" PRIMARY KEY ("aggregator")
);

-- CreateIndex
CREATE UNIQUE INDEX "usage_events_id_key" ON "usage_events"("id");

-- CreateIndex
CREATE INDEX "usage_events_customer_id_event_type_occurred_at_idx" ON "usage_events"("customer_id", "event_type", "occurred_at");

-- CreateIndex
CREATE INDEX "meters_event_type_id_idx" ON "meters"("event_type", "id");

-- Usage events are append-only: refuse UPDATE, DELETE and TRUNCATE in the database itself.
CREATE TRIGGER usage_events_append_only
  BEFORE UPDATE OR DELETE ON "usage_events"
  FOR EACH ROW EXECUTE FUNCTION refuse_mutation();

CREATE TRIGGER usage_events_no_truncate
  BEFORE TRUNCATE ON "usage_events"
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_mutation();

-- The numeric value of a property as meters read it: a JSON number, or a string holding a plain
-- decimal such as "12.5"; NULL for anything else. numeric is exact, so sums never pass through a
-- float. A plain SQL expression, so the planner inlines it.
CREATE FUNCTION usage_numeric(value jsonb) RETURNS numeric
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE jsonb_typeof(value)
    WHEN 'number' THEN (value #>> '{}')::numeric
    WHEN 'string' THEN CASE WHEN (value #>> '{}') ~ '^-?[0-9]+(\.[0-9]+)?$' THEN (value #>> '{}')::numeric END
  END
$$;

-- The key UniqueCount meters count distinct values by: the value's own bytes when it is short
-- (compared exactly, no hashing cost), the MD5 of longer values; the prefixes keep the two apart.
CREATE FUNCTION usage_value_key(value text) RETURNS bytea
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN octet_length(value) <= 64 THEN '\x76'::bytea || convert_to(value, 'UTF8')
              ELSE '\x68'::bytea || decode(md5(value), 'hex') END
$$;

-- Rollups advance along usage_events.seq, and sequence values commit out of order. Every inserting
-- statement takes this lock (shared, held until its transaction ends, keyed by the table's oid)
-- before it draws a seq; a rollup pass takes it exclusively for the instant it reads max(seq), so
-- every seq up to that value is then committed or rolled back and none can still appear below it.
CREATE FUNCTION usage_events_writer_lock() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(TG_RELID::bigint);
  RETURN NULL;
END;
$$;

CREATE TRIGGER usage_events_writer_lock
  BEFORE INSERT ON "usage_events"
  FOR EACH STATEMENT EXECUTE FUNCTION usage_events_writer_lock();
