-- The reference a manual payment was recorded with (a check number, a wire reference), shown as the
-- invoice's paid_by.reference. Bounded at the door (200 characters) and here.
ALTER TABLE "invoices" ADD COLUMN "paid_reference" TEXT;
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_paid_reference_length" CHECK (char_length("paid_reference") <= 200);

-- Recorded with the payment and frozen after it, like paid_by (a separate trigger, so the invoice trigger stays as it is).
CREATE FUNCTION invoice_paid_reference_frozen() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.paid_reference IS DISTINCT FROM OLD.paid_reference AND NOT (OLD.status = 'Open' AND NEW.status = 'Paid') THEN
    RAISE EXCEPTION 'invoice % records its payment reference only when it is paid', OLD.id USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER invoices_paid_reference_frozen BEFORE UPDATE ON "invoices"
  FOR EACH ROW EXECUTE FUNCTION invoice_paid_reference_frozen();
