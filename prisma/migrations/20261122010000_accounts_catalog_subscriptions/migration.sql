-- CreateEnum
CREATE TYPE "AccountType" AS ENUM ('Organization', 'Individual', 'Subsidiary');

-- CreateEnum
CREATE TYPE "CustomerStatus" AS ENUM ('Active', 'Suspended', 'Closed');

-- CreateEnum
CREATE TYPE "Consolidation" AS ENUM ('Standalone', 'ConsolidateToParent');

-- CreateEnum
CREATE TYPE "BillingCadence" AS ENUM ('Monthly', 'Quarterly', 'SemiAnnual', 'Annual');

-- CreateEnum
CREATE TYPE "PricingModel" AS ENUM ('Flat', 'PerUnit', 'Graduated', 'Volume', 'Package', 'Committed');

-- CreateEnum
CREATE TYPE "SubscriptionStatus" AS ENUM ('Trialing', 'Active', 'PastDue', 'Paused', 'Cancelled', 'Expired');

-- CreateTable
CREATE TABLE "test_clocks" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "frozen_time" TIMESTAMPTZ(6) NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "test_clocks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "customers" (
    "id" UUID NOT NULL,
    "display_name" TEXT NOT NULL,
    "legal_name" TEXT,
    "email" TEXT NOT NULL,
    "account_type" "AccountType" NOT NULL,
    "status" "CustomerStatus" NOT NULL DEFAULT 'Active',
    "parent_id" UUID,
    "bill_to_id" UUID,
    "consolidation" "Consolidation" NOT NULL DEFAULT 'Standalone',
    "billing_currency" CHAR(3) NOT NULL,
    "payment_terms_days" INTEGER NOT NULL DEFAULT 30,
    "tax_id" TEXT,
    "test_clock_id" UUID,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "customers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "products" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "products_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "plans" (
    "id" UUID NOT NULL,
    "product_id" UUID,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "billing_cadence" "BillingCadence" NOT NULL,
    "trial_days" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "plans_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "skus" (
    "id" UUID NOT NULL,
    "plan_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "pricing_model" "PricingModel" NOT NULL,
    "unit_amount_nanos" DECIMAL(38,0) NOT NULL,
    "meter_event_type" TEXT,
    "currency" CHAR(3) NOT NULL,
    "tiers" JSONB,
    "package_size" DECIMAL(38,0),
    "package_rounding" TEXT,
    "commit_amount_nanos" DECIMAL(38,0),
    "overage_unit_amount_nanos" DECIMAL(38,0),
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "skus_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "subscriptions" (
    "id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "plan_id" UUID NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "status" "SubscriptionStatus" NOT NULL,
    "trial_days" INTEGER NOT NULL DEFAULT 0,
    "trial_end" TIMESTAMPTZ(6),
    "period_start" TIMESTAMPTZ(6) NOT NULL,
    "period_end" TIMESTAMPTZ(6) NOT NULL,
    "billing_anchor" TIMESTAMPTZ(6) NOT NULL,
    "charged_through_date" TIMESTAMPTZ(6),
    "contract_id" UUID,
    "test_clock_id" UUID,
    "cancelled_at" TIMESTAMPTZ(6),
    "paused_at" TIMESTAMPTZ(6),
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "subscriptions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "customers_parent_id_idx" ON "customers"("parent_id");

-- CreateIndex
CREATE INDEX "customers_created_at_id_idx" ON "customers"("created_at", "id");

-- CreateIndex
CREATE INDEX "skus_plan_id_idx" ON "skus"("plan_id");

-- CreateIndex
CREATE INDEX "subscriptions_customer_id_idx" ON "subscriptions"("customer_id");

-- CreateIndex
CREATE INDEX "subscriptions_test_clock_id_idx" ON "subscriptions"("test_clock_id");

-- AddForeignKey
ALTER TABLE "customers" ADD CONSTRAINT "customers_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "customers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "customers" ADD CONSTRAINT "customers_bill_to_id_fkey" FOREIGN KEY ("bill_to_id") REFERENCES "customers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "customers" ADD CONSTRAINT "customers_test_clock_id_fkey" FOREIGN KEY ("test_clock_id") REFERENCES "test_clocks"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "plans" ADD CONSTRAINT "plans_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "skus" ADD CONSTRAINT "skus_plan_id_fkey" FOREIGN KEY ("plan_id") REFERENCES "plans"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_plan_id_fkey" FOREIGN KEY ("plan_id") REFERENCES "plans"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_test_clock_id_fkey" FOREIGN KEY ("test_clock_id") REFERENCES "test_clocks"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
