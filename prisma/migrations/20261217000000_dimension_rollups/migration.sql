-- Per-dimension-value rollups of grouped meters (dimensional SKUs): one series per meter and
-- group_by, keyed like usage_rollups plus the dimension value (its usage_value_key, so long values
-- stay within an index entry). first_seq ranks the values for the cardinality bound.
CREATE TABLE "usage_dimension_rollups" (
    "aggregator" TEXT NOT NULL,
    "customer_id" UUID NOT NULL,
    "subscription_key" UUID NOT NULL,
    "granularity" SMALLINT NOT NULL,
    "bucket_start" TIMESTAMPTZ(6) NOT NULL,
    "dims_key" BYTEA NOT NULL,
    "dims" JSONB NOT NULL,
    "first_seq" BIGINT NOT NULL,
    "event_count" BIGINT NOT NULL,
    "value_sum" numeric,
    "value_max" numeric,

    CONSTRAINT "usage_dimension_rollups_pkey" PRIMARY KEY ("aggregator","customer_id","granularity","bucket_start","subscription_key","dims_key"),
    CONSTRAINT "usage_dimension_rollups_granularity_check" CHECK ("granularity" IN (5, 60, 1440))
);

-- The distinct values (usage_value_key) of a grouped UniqueCount meter's property per bucket and
-- dimension value, as usage_rollup_values keeps them for plain meters.
CREATE TABLE "usage_dimension_rollup_values" (
    "aggregator" TEXT NOT NULL,
    "customer_id" UUID NOT NULL,
    "subscription_key" UUID NOT NULL,
    "granularity" SMALLINT NOT NULL,
    "bucket_start" TIMESTAMPTZ(6) NOT NULL,
    "dims_key" BYTEA NOT NULL,
    "value_key" BYTEA NOT NULL,

    CONSTRAINT "usage_dimension_rollup_values_pkey" PRIMARY KEY ("aggregator","customer_id","granularity","bucket_start","subscription_key","dims_key","value_key"),
    CONSTRAINT "usage_dimension_rollup_values_granularity_check" CHECK ("granularity" IN (5, 60, 1440))
);
