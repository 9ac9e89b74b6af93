-- Contracts (SPEC §2 Contract): contracts with their ramp phases (terms) and the subscriptions they
-- adopt. Dates are civil dates; ranges are half-open [start_date, end_date).
CREATE TYPE "ContractStatus" AS ENUM ('Draft', 'Active', 'Amended', 'Expired', 'Terminated');
CREATE TYPE "AdoptionType" AS ENUM ('PLG', 'Coterm', 'Recontract');

CREATE TABLE "contracts" (
    "id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "status" "ContractStatus" NOT NULL,
    "start_date" DATE NOT NULL,
    "end_date" DATE NOT NULL,
    "discount_bps" INTEGER,
    "rate_overrides" JSONB,
    "tier_overrides" JSONB,
    "escalation" JSONB,
    "parent_contract_id" UUID,
    "amendment_reason" TEXT,
    "effective_date" DATE,
    "escalation_steps" INTEGER NOT NULL DEFAULT 0,
    "terminated_on" DATE,
    "termination_reason" TEXT,
    "test_clock_id" UUID,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,
    CONSTRAINT "contracts_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "contracts_dates_check" CHECK ("end_date" > "start_date")
);
-- One successor per contract: two concurrent amendments can never fork the chain.
CREATE UNIQUE INDEX "contracts_parent_contract_id_key" ON "contracts"("parent_contract_id");
CREATE INDEX "contracts_customer_id_status_idx" ON "contracts"("customer_id", "status");
CREATE INDEX "contracts_test_clock_id_idx" ON "contracts"("test_clock_id");
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_customer_id_fkey"
  FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_parent_contract_id_fkey"
  FOREIGN KEY ("parent_contract_id") REFERENCES "contracts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "contract_terms" (
    "id" UUID NOT NULL,
    "contract_id" UUID NOT NULL,
    "phase" INTEGER NOT NULL,
    "start_date" DATE NOT NULL,
    "end_date" DATE NOT NULL,
    "committed_amount_nanos" DECIMAL(38,0) NOT NULL,
    "description" TEXT NOT NULL,
    "discount_bps" INTEGER,
    "rate_overrides" JSONB,
    "tier_overrides" JSONB,
    "commit_product_tag" TEXT,
    "trued_up_at" TIMESTAMPTZ(6),
    "true_up_nanos" DECIMAL(38,0),
    CONSTRAINT "contract_terms_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "contract_terms_dates_check" CHECK ("end_date" > "start_date")
);
CREATE UNIQUE INDEX "contract_terms_contract_id_phase_key" ON "contract_terms"("contract_id", "phase");
ALTER TABLE "contract_terms" ADD CONSTRAINT "contract_terms_contract_id_fkey"
  FOREIGN KEY ("contract_id") REFERENCES "contracts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "contract_subscriptions" (
    "id" UUID NOT NULL,
    "contract_id" UUID NOT NULL,
    "subscription_id" UUID NOT NULL,
    "adoption_type" "AdoptionType" NOT NULL,
    "coterm_fee_nanos" DECIMAL(38,0),
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "contract_subscriptions_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "contract_subscriptions_subscription_id_key" ON "contract_subscriptions"("subscription_id");
CREATE INDEX "contract_subscriptions_contract_id_idx" ON "contract_subscriptions"("contract_id");
ALTER TABLE "contract_subscriptions" ADD CONSTRAINT "contract_subscriptions_contract_id_fkey"
  FOREIGN KEY ("contract_id") REFERENCES "contracts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "contract_subscriptions" ADD CONSTRAINT "contract_subscriptions_subscription_id_fkey"
  FOREIGN KEY ("subscription_id") REFERENCES "subscriptions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_contract_id_fkey"
  FOREIGN KEY ("contract_id") REFERENCES "contracts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- A contract that left Active keeps its content: only Draft and Active rows change, and a terminal
-- status (Amended, Expired, Terminated) is final. The terms of a contract past Active are frozen,
-- except for the true-up record of a phase, which the lifecycle writes once.
CREATE OR REPLACE FUNCTION contract_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'contract % cannot be deleted', OLD.id USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF OLD.status IN ('Amended', 'Expired', 'Terminated') THEN
    RAISE EXCEPTION 'contract % is % and immutable', OLD.id, OLD.status USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER contracts_immutable BEFORE UPDATE OR DELETE ON "contracts"
  FOR EACH ROW EXECUTE FUNCTION contract_immutable();
