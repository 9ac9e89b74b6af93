-- Credit notes allocate their amount (Stripe's and Lago's split): the part that reduces what the
-- invoice still owes, the part refunded through the processor, the part put on the customer's credit
-- balance, and the part settled out of band. The parts sum to the amount (checked here too).
ALTER TABLE "credit_notes"
  ADD COLUMN "due_reduction_nanos" DECIMAL(38,0) NOT NULL DEFAULT 0,
  ADD COLUMN "refund_amount_nanos" DECIMAL(38,0) NOT NULL DEFAULT 0,
  ADD COLUMN "credit_amount_nanos" DECIMAL(38,0) NOT NULL DEFAULT 0,
  ADD COLUMN "out_of_band_amount_nanos" DECIMAL(38,0) NOT NULL DEFAULT 0;

-- Notes issued before the split: a note recorded with a refund was that refund, every other note
-- reduced the receivable. Credit notes are append-only; the backfill is the one exception.
ALTER TABLE "credit_notes" DISABLE TRIGGER credit_notes_append_only;
UPDATE "credit_notes" n
   SET "refund_amount_nanos" = CASE WHEN EXISTS (SELECT 1 FROM "refunds" r WHERE r."credit_note_id" = n."id") THEN n."amount_nanos" ELSE 0 END,
       "due_reduction_nanos" = CASE WHEN EXISTS (SELECT 1 FROM "refunds" r WHERE r."credit_note_id" = n."id") THEN 0 ELSE n."amount_nanos" END;
ALTER TABLE "credit_notes" ENABLE TRIGGER credit_notes_append_only;

ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_allocation" CHECK (
  "due_reduction_nanos" >= 0 AND "refund_amount_nanos" >= 0 AND "credit_amount_nanos" >= 0 AND "out_of_band_amount_nanos" >= 0
  AND "due_reduction_nanos" + "refund_amount_nanos" + "credit_amount_nanos" + "out_of_band_amount_nanos" = "amount_nanos");

-- A refund asked for with a credit note reserves the note's whole allocation while the processor is
-- called ({ amount_nanos, due_reduction_nanos, credit_amount_nanos, out_of_band_amount_nanos, reason,
-- memo }): a Pending refund's reservation counts against the invoice's bounds until the note is issued.
ALTER TABLE "refunds" ADD COLUMN "credit_note_request" JSONB;

-- The part of credited_nanos that reduced the amount due, and the customer credit balance applied at
-- finalization (amount due = total − due_reduced − wallet_applied − customer_balance_applied).
ALTER TABLE "invoices"
  ADD COLUMN "due_reduced_nanos" DECIMAL(38,0) NOT NULL DEFAULT 0,
  ADD COLUMN "customer_balance_applied_nanos" DECIMAL(38,0) NOT NULL DEFAULT 0;
UPDATE "invoices" i SET "due_reduced_nanos" = s.due
  FROM (SELECT "invoice_id", sum("due_reduction_nanos") AS due FROM "credit_notes" GROUP BY "invoice_id") s
 WHERE s."invoice_id" = i."id";
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_due_reduced_within_credited"
  CHECK ("due_reduced_nanos" >= 0 AND "due_reduced_nanos" <= "credited_nanos");
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_customer_balance_applied_not_negative" CHECK ("customer_balance_applied_nanos" >= 0);

-- Frozen with the rest of a finalized invoice, like the wallet credit; due_reduced only grows.
CREATE FUNCTION invoice_credit_allocation_frozen() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status <> 'Draft' AND NEW.customer_balance_applied_nanos IS DISTINCT FROM OLD.customer_balance_applied_nanos THEN
    RAISE EXCEPTION 'invoice % is finalized and its customer balance applied is immutable', OLD.id USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF NEW.due_reduced_nanos < OLD.due_reduced_nanos THEN
    RAISE EXCEPTION 'invoice % amount due reduced cannot decrease', OLD.id USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER invoices_credit_allocation_frozen BEFORE UPDATE ON "invoices"
  FOR EACH ROW EXECUTE FUNCTION invoice_credit_allocation_frozen();

-- The customer's credit balance per currency: credit notes put money on it, finalization of the
-- customer's next invoices in that currency spends it. Never negative.
ALTER TYPE "LedgerAccountKind" ADD VALUE 'customer_credit';

CREATE TABLE "customer_balances" (
    "id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "balance_nanos" DECIMAL(38,0) NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,
    CONSTRAINT "customer_balances_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "customer_balances_not_negative" CHECK ("balance_nanos" >= 0)
);
CREATE UNIQUE INDEX "customer_balances_customer_id_currency_key" ON "customer_balances"("customer_id", "currency");
ALTER TABLE "customer_balances" ADD CONSTRAINT "customer_balances_customer_id_fkey"
  FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Its history, append-only: credit_note (+), applied (− at an invoice's finalization), void_return
-- (+ what a voided invoice had applied), void_reversal (− what a voided invoice's credit notes had put on it).
CREATE TABLE "customer_balance_transactions" (
    "id" UUID NOT NULL,
    "balance_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "amount_nanos" DECIMAL(38,0) NOT NULL,
    "balance_after_nanos" DECIMAL(38,0) NOT NULL,
    "invoice_id" UUID,
    "credit_note_id" UUID,
    "journal_id" UUID,
    "description" TEXT NOT NULL,
    "occurred_at" TIMESTAMPTZ(6) NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "customer_balance_transactions_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "customer_balance_transactions_kind" CHECK ("kind" IN ('credit_note', 'applied', 'void_return', 'void_reversal')),
    CONSTRAINT "customer_balance_transactions_amount_nonzero" CHECK ("amount_nanos" <> 0)
);
CREATE INDEX "customer_balance_transactions_balance_id_idx" ON "customer_balance_transactions"("balance_id", "id");
CREATE INDEX "customer_balance_transactions_invoice_id_idx" ON "customer_balance_transactions"("invoice_id");
ALTER TABLE "customer_balance_transactions" ADD CONSTRAINT "customer_balance_transactions_balance_id_fkey"
  FOREIGN KEY ("balance_id") REFERENCES "customer_balances"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
CREATE TRIGGER customer_balance_transactions_append_only BEFORE UPDATE OR DELETE ON "customer_balance_transactions"
  FOR EACH ROW EXECUTE FUNCTION refuse_mutation();
