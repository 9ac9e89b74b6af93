-- A step of an auto-recharge's workflow (recording the top-up Failed) that failed in a way no automatic retry fixes, held for an operator: { step, type, message, failed_at }; null when none.
ALTER TABLE "wallet_top_ups" ADD COLUMN "billing_error" JSONB;
