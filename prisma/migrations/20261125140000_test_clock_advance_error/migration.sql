-- Why the latest advance of a test clock ended internal_failure: { step, type, message, failed_at } (the billing_error shape); null otherwise.
ALTER TABLE "test_clocks" ADD COLUMN "advance_error" JSONB;
