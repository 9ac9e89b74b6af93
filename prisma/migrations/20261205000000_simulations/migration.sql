-- Price simulations (docs/simulations.md): a candidate price re-rated over closed periods' recorded
-- usage, apart from billing. One row per simulation (its request and progress), one per
-- (simulation, subscription, period) re-rated. Nothing here is read by billing.
CREATE TABLE "simulations" (
    "id" UUID NOT NULL,
    "status" TEXT NOT NULL,
    "candidate" JSONB NOT NULL,
    "scope" JSONB NOT NULL,
    "last_periods" INTEGER NOT NULL,
    "subscriptions_total" INTEGER,
    "subscriptions_done" INTEGER NOT NULL DEFAULT 0,
    "periods_done" INTEGER NOT NULL DEFAULT 0,
    "error" JSONB,
    "requested_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(6),
    CONSTRAINT "simulations_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "simulations_status" CHECK ("status" IN ('running', 'cancelling', 'completed', 'cancelled', 'failed'))
);

CREATE INDEX "simulations_created_at_idx" ON "simulations"("created_at");

CREATE TABLE "simulation_results" (
    "simulation_id" UUID NOT NULL,
    "subscription_id" UUID NOT NULL,
    "period_start" TIMESTAMPTZ(6) NOT NULL,
    "period_end" TIMESTAMPTZ(6) NOT NULL,
    "customer_id" UUID NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "actual_nanos" DECIMAL(38,0) NOT NULL,
    "candidate_nanos" DECIMAL(38,0) NOT NULL,
    CONSTRAINT "simulation_results_pkey" PRIMARY KEY ("simulation_id", "subscription_id", "period_start"),
    CONSTRAINT "simulation_results_simulation_id_fkey" FOREIGN KEY ("simulation_id") REFERENCES "simulations"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

CREATE INDEX "simulation_results_simulation_id_customer_id_idx" ON "simulation_results"("simulation_id", "customer_id");
