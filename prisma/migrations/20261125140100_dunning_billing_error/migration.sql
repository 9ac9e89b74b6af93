-- A dunning retry that failed in a way no automatic retry fixes, held for an operator: { step, type, message, failed_at }; null when none.
ALTER TABLE "dunning_schedules" ADD COLUMN "billing_error" JSONB;
