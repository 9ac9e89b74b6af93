-- CreateEnum
CREATE TYPE "InvoiceStatus" AS ENUM ('Draft', 'Open', 'Paid', 'Void');

-- AlterTable
ALTER TABLE "subscriptions" ADD COLUMN     "progressive_threshold_nanos" DECIMAL(38,0);

-- CreateTable
CREATE TABLE "subscription_phases" (
    "id" UUID NOT NULL,
    "subscription_id" UUID NOT NULL,
    "plan_id" UUID NOT NULL,
    "starts_at" TIMESTAMPTZ(6) NOT NULL,
    "ends_at" TIMESTAMPTZ(6),
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "subscription_phases_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "invoices" (
    "id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "subscription_id" UUID,
    "currency" CHAR(3) NOT NULL,
    "status" "InvoiceStatus" NOT NULL DEFAULT 'Draft',
    "invoice_number" TEXT,
    "billing_reason" TEXT NOT NULL,
    "period_start" TIMESTAMPTZ(6),
    "period_end" TIMESTAMPTZ(6),
    "subtotal_nanos" DECIMAL(38,0) NOT NULL DEFAULT 0,
    "tax_nanos" DECIMAL(38,0) NOT NULL DEFAULT 0,
    "credits_applied_nanos" DECIMAL(38,0) NOT NULL DEFAULT 0,
    "total_nanos" DECIMAL(38,0) NOT NULL DEFAULT 0,
    "credited_nanos" DECIMAL(38,0) NOT NULL DEFAULT 0,
    "tax_adapter" TEXT,
    "test_clock_id" UUID,
    "due_at" TIMESTAMPTZ(6),
    "finalized_at" TIMESTAMPTZ(6),
    "paid_at" TIMESTAMPTZ(6),
    "paid_by_actor_id" TEXT,
    "paid_by_actor_name" TEXT,
    "voided_at" TIMESTAMPTZ(6),
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "invoices_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "invoice_line_items" (
    "id" UUID NOT NULL,
    "invoice_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "sku_id" UUID,
    "plan_id" UUID,
    "subscription_id" UUID,
    "customer_id" UUID,
    "customer_name" TEXT,
    "quantity" TEXT NOT NULL DEFAULT '1',
    "unit_amount_nanos" DECIMAL(38,0),
    "amount_nanos" DECIMAL(38,0) NOT NULL,
    "is_tax" BOOLEAN NOT NULL DEFAULT false,
    "period_start" TIMESTAMPTZ(6),
    "period_end" TIMESTAMPTZ(6),
    "detail" JSONB,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "invoice_line_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "document_counters" (
    "name" TEXT NOT NULL,
    "value" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "document_counters_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "credit_notes" (
    "id" UUID NOT NULL,
    "number" TEXT NOT NULL,
    "invoice_id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "amount_nanos" DECIMAL(38,0) NOT NULL,
    "reason" TEXT NOT NULL,
    "memo" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "credit_notes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "subscription_phases_subscription_id_starts_at_idx" ON "subscription_phases"("subscription_id", "starts_at");

-- CreateIndex
CREATE UNIQUE INDEX "invoices_invoice_number_key" ON "invoices"("invoice_number");

-- CreateIndex
CREATE INDEX "invoices_customer_id_status_idx" ON "invoices"("customer_id", "status");

-- CreateIndex
CREATE INDEX "invoices_subscription_id_period_start_idx" ON "invoices"("subscription_id", "period_start");

-- CreateIndex
CREATE INDEX "invoices_status_idx" ON "invoices"("status");

-- CreateIndex
CREATE INDEX "invoice_line_items_invoice_id_idx" ON "invoice_line_items"("invoice_id");

-- CreateIndex
CREATE INDEX "invoice_line_items_subscription_id_sku_id_idx" ON "invoice_line_items"("subscription_id", "sku_id");

-- CreateIndex
CREATE UNIQUE INDEX "credit_notes_number_key" ON "credit_notes"("number");

-- CreateIndex
CREATE INDEX "credit_notes_invoice_id_idx" ON "credit_notes"("invoice_id");

-- AddForeignKey
ALTER TABLE "subscription_phases" ADD CONSTRAINT "subscription_phases_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "subscriptions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "subscriptions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invoice_line_items" ADD CONSTRAINT "invoice_line_items_invoice_id_fkey" FOREIGN KEY ("invoice_id") REFERENCES "invoices"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_invoice_id_fkey" FOREIGN KEY ("invoice_id") REFERENCES "invoices"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- One Draft per subscription period: billing the same period again refreshes it instead.
CREATE UNIQUE INDEX "invoices_one_draft_per_subscription_period"
  ON "invoices" ("subscription_id", "period_start") WHERE "status" = 'Draft' AND "subscription_id" IS NOT NULL;

-- A finalized invoice is immutable: its content never changes, only its settlement moves
-- (Open → Paid | Void, credited amount); it cannot be deleted.
CREATE FUNCTION invoice_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF OLD.status <> 'Draft' THEN
      RAISE EXCEPTION 'invoice % is finalized and cannot be deleted', OLD.id USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN OLD;
  END IF;
  IF OLD.status <> 'Draft' THEN
    IF (NEW.customer_id, NEW.subscription_id, NEW.currency, NEW.invoice_number, NEW.billing_reason, NEW.period_start,
        NEW.period_end, NEW.subtotal_nanos, NEW.tax_nanos, NEW.credits_applied_nanos, NEW.total_nanos, NEW.tax_adapter,
        NEW.finalized_at, NEW.due_at)
       IS DISTINCT FROM
       (OLD.customer_id, OLD.subscription_id, OLD.currency, OLD.invoice_number, OLD.billing_reason, OLD.period_start,
        OLD.period_end, OLD.subtotal_nanos, OLD.tax_nanos, OLD.credits_applied_nanos, OLD.total_nanos, OLD.tax_adapter,
        OLD.finalized_at, OLD.due_at) THEN
      RAISE EXCEPTION 'invoice % is finalized and immutable', OLD.id USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF NEW.status <> OLD.status AND NOT (OLD.status = 'Open' AND NEW.status IN ('Paid', 'Void')) THEN
      RAISE EXCEPTION 'invoice % cannot move from % to %', OLD.id, OLD.status, NEW.status USING ERRCODE = 'insufficient_privilege';
    END IF;
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER invoices_immutable_when_finalized
  BEFORE UPDATE OR DELETE ON "invoices"
  FOR EACH ROW EXECUTE FUNCTION invoice_immutable();

CREATE FUNCTION invoice_lines_only_on_drafts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  parent_status "InvoiceStatus";
BEGIN
  SELECT status INTO parent_status FROM invoices WHERE id = COALESCE(NEW.invoice_id, OLD.invoice_id);
  IF parent_status IS DISTINCT FROM 'Draft' THEN
    RAISE EXCEPTION 'lines of finalized invoice % are immutable', COALESCE(NEW.invoice_id, OLD.invoice_id)
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN COALESCE(NEW, OLD);
END;
$$;

CREATE TRIGGER invoice_lines_immutable_when_finalized
  BEFORE INSERT OR UPDATE OR DELETE ON "invoice_line_items"
  FOR EACH ROW EXECUTE FUNCTION invoice_lines_only_on_drafts();

CREATE TRIGGER credit_notes_append_only
  BEFORE UPDATE OR DELETE ON "credit_notes"
  FOR EACH ROW EXECUTE FUNCTION refuse_mutation();

INSERT INTO "document_counters" ("name", "value") VALUES ('invoice', 0), ('credit_note', 0);
