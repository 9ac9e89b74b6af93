-- Payments and dunning: payment methods on file, payments (one per collection attempt), refunds,
-- processor notifications stored once by their event id, and dunning schedules.

-- CreateEnum
CREATE TYPE "PaymentStatus" AS ENUM ('Pending', 'RequiresCapture', 'Succeeded', 'Failed', 'Canceled');

-- CreateEnum
CREATE TYPE "DunningStatus" AS ENUM ('Active', 'Resolved', 'Exhausted');

-- CreateTable
CREATE TABLE "processor_customers" (
    "customer_id" UUID NOT NULL,
    "processor_customer_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "processor_customers_pkey" PRIMARY KEY ("customer_id")
);

-- CreateTable
CREATE TABLE "payment_methods" (
    "id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "processor_payment_method_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "brand" TEXT,
    "last4" TEXT,
    "exp_month" INTEGER,
    "exp_year" INTEGER,
    "is_default" BOOLEAN NOT NULL DEFAULT false,
    "detached_at" TIMESTAMPTZ(6),
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payment_methods_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payments" (
    "id" UUID NOT NULL,
    "invoice_id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "payment_method_id" UUID,
    "attempt" INTEGER NOT NULL,
    "request_key" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "dunning_attempt" INTEGER,
    "status" "PaymentStatus" NOT NULL,
    "capture_method" TEXT NOT NULL DEFAULT 'automatic',
    "amount_nanos" DECIMAL(38,0) NOT NULL,
    "amount_minor" BIGINT NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "refunded_nanos" DECIMAL(38,0) NOT NULL DEFAULT 0,
    "refunded_minor" BIGINT NOT NULL DEFAULT 0,
    "processor_payment_intent_id" TEXT,
    "processor_status" TEXT,
    "failure_code" TEXT,
    "failure_message" TEXT,
    "attempted_at" TIMESTAMPTZ(6) NOT NULL,
    "settled_at" TIMESTAMPTZ(6),
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "payments_pkey" PRIMARY KEY ("id"),
    -- Never more refunded than was collected.
    CONSTRAINT "payments_refunded_within_amount" CHECK ("refunded_minor" >= 0 AND "refunded_minor" <= "amount_minor")
);

-- CreateTable
CREATE TABLE "refunds" (
    "id" UUID NOT NULL,
    "payment_id" UUID NOT NULL,
    "invoice_id" UUID NOT NULL,
    "amount_nanos" DECIMAL(38,0) NOT NULL,
    "amount_minor" BIGINT NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "status" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "processor_refund_id" TEXT,
    "credit_note_id" UUID,
    "failure_message" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "refunds_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "processor_events" (
    "id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "object_id" TEXT,
    "payload" JSONB NOT NULL,
    "received_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "processed_at" TIMESTAMPTZ(6),
    "outcome" TEXT,

    CONSTRAINT "processor_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dunning_schedules" (
    "id" UUID NOT NULL,
    "invoice_id" UUID NOT NULL,
    "subscription_id" UUID,
    "customer_id" UUID NOT NULL,
    "status" "DunningStatus" NOT NULL DEFAULT 'Active',
    "attempt_count" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(6),
    "schedule_days" INTEGER[],
    "failed_at" TIMESTAMPTZ(6) NOT NULL,
    "test_clock_id" UUID,
    "closed_reason" TEXT,
    "closed_at" TIMESTAMPTZ(6),
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "dunning_schedules_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "dunning_schedules_attempt_count_range" CHECK ("attempt_count" >= 0 AND "attempt_count" <= coalesce(cardinality("schedule_days"), 0))
);

-- CreateIndex
CREATE UNIQUE INDEX "processor_customers_processor_customer_id_key" ON "processor_customers"("processor_customer_id");

-- CreateIndex
CREATE INDEX "payment_methods_customer_id_idx" ON "payment_methods"("customer_id");

-- One default payment method per customer, and one attached row per processor payment method.
CREATE UNIQUE INDEX "payment_methods_one_default" ON "payment_methods"("customer_id") WHERE "is_default" AND "detached_at" IS NULL;
CREATE UNIQUE INDEX "payment_methods_attached_once" ON "payment_methods"("customer_id", "processor_payment_method_id") WHERE "detached_at" IS NULL;

-- CreateIndex
CREATE UNIQUE INDEX "payments_processor_payment_intent_id_key" ON "payments"("processor_payment_intent_id");

-- CreateIndex
CREATE INDEX "payments_status_idx" ON "payments"("status");

-- CreateIndex
CREATE UNIQUE INDEX "payments_invoice_id_attempt_key" ON "payments"("invoice_id", "attempt");

-- CreateIndex
CREATE UNIQUE INDEX "payments_invoice_id_request_key_key" ON "payments"("invoice_id", "request_key");

-- CreateIndex
CREATE UNIQUE INDEX "refunds_processor_refund_id_key" ON "refunds"("processor_refund_id");

-- CreateIndex
CREATE UNIQUE INDEX "refunds_credit_note_id_key" ON "refunds"("credit_note_id");

-- CreateIndex
CREATE INDEX "refunds_invoice_id_idx" ON "refunds"("invoice_id");

-- CreateIndex
CREATE INDEX "processor_events_processed_at_received_at_idx" ON "processor_events"("processed_at", "received_at");

-- CreateIndex
CREATE UNIQUE INDEX "dunning_schedules_invoice_id_key" ON "dunning_schedules"("invoice_id");

-- CreateIndex
CREATE INDEX "dunning_schedules_status_next_attempt_at_idx" ON "dunning_schedules"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "dunning_schedules_test_clock_id_status_idx" ON "dunning_schedules"("test_clock_id", "status");

-- AddForeignKey
ALTER TABLE "processor_customers" ADD CONSTRAINT "processor_customers_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payments" ADD CONSTRAINT "payments_invoice_id_fkey" FOREIGN KEY ("invoice_id") REFERENCES "invoices"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payments" ADD CONSTRAINT "payments_payment_method_id_fkey" FOREIGN KEY ("payment_method_id") REFERENCES "payment_methods"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_payment_id_fkey" FOREIGN KEY ("payment_id") REFERENCES "payments"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dunning_schedules" ADD CONSTRAINT "dunning_schedules_invoice_id_fkey" FOREIGN KEY ("invoice_id") REFERENCES "invoices"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dunning_schedules" ADD CONSTRAINT "dunning_schedules_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "subscriptions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
