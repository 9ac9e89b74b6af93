-- Consolidated billing: a Draft belongs to a billing group (the paying account, a currency and a
-- period) that every subscription billing to that account in that currency for that period shares,
-- instead of to one subscription period.
DROP INDEX "invoices_one_draft_per_subscription_period";
CREATE UNIQUE INDEX "invoices_one_draft_per_billing_group"
  ON "invoices" ("customer_id", "currency", "period_start", "period_end")
  WHERE "status" = 'Draft' AND "period_start" IS NOT NULL AND "period_end" IS NOT NULL;

-- What a subscription's period was already billed is read line by line.
CREATE INDEX "invoice_line_items_subscription_id_period_start_idx" ON "invoice_line_items"("subscription_id", "period_start");

-- A credit note that applies a credit invoice's credit (a downgrade's proration) points at it.
ALTER TABLE "credit_notes" ADD COLUMN "source_invoice_id" UUID;
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_source_invoice_id_fkey"
  FOREIGN KEY ("source_invoice_id") REFERENCES "invoices"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The invoice state machine in the database as well: created as Draft; Draft → Open; Open → Paid |
-- Void. A finalized invoice's content never changes; of its settlement, paid_at/paid_by are set
-- only by the move to Paid, voided_at only by the move to Void, and the credited amount only grows.
CREATE OR REPLACE FUNCTION invoice_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.status <> 'Draft' THEN
      RAISE EXCEPTION 'invoice % must be created as a Draft', NEW.id USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
  END IF;
  IF TG_OP = 'DELETE' THEN
    IF OLD.status <> 'Draft' THEN
      RAISE EXCEPTION 'invoice % is finalized and cannot be deleted', OLD.id USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN OLD;
  END IF;
  IF NEW.status <> OLD.status AND NOT (
       (OLD.status = 'Draft' AND NEW.status = 'Open') OR (OLD.status = 'Open' AND NEW.status IN ('Paid', 'Void'))) THEN
    RAISE EXCEPTION 'invoice % cannot move from % to %', OLD.id, OLD.status, NEW.status USING ERRCODE = 'insufficient_privilege';
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
    IF (NEW.paid_at, NEW.paid_by_actor_id, NEW.paid_by_actor_name) IS DISTINCT FROM (OLD.paid_at, OLD.paid_by_actor_id, OLD.paid_by_actor_name)
       AND NOT (OLD.status = 'Open' AND NEW.status = 'Paid') THEN
      RAISE EXCEPTION 'invoice % records its payment only when it is paid', OLD.id USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF NEW.voided_at IS DISTINCT FROM OLD.voided_at AND NOT (OLD.status = 'Open' AND NEW.status = 'Void') THEN
      RAISE EXCEPTION 'invoice % records its voiding only when it is voided', OLD.id USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF NEW.credited_nanos < OLD.credited_nanos THEN
      RAISE EXCEPTION 'invoice % credited amount cannot decrease', OLD.id USING ERRCODE = 'insufficient_privilege';
    END IF;
  END IF;
  RETURN NEW;
END;
$$;

DROP TRIGGER "invoices_immutable_when_finalized" ON "invoices";
CREATE TRIGGER invoices_immutable_when_finalized
  BEFORE INSERT OR UPDATE OR DELETE ON "invoices"
  FOR EACH ROW EXECUTE FUNCTION invoice_immutable();
