-- A step of the contract's workflow that failed in a way no automatic retry fixes, held for an operator: { step, type, message, failed_at }; null when none.
ALTER TABLE "contracts" ADD COLUMN "billing_error" JSONB;
