-- The end of the subscription's last closed period, on the subscription row itself: every period
-- close sets it in its transaction, under the row lock ingestion waits for, so an event that waited
-- for a close reads it as the close left it (a final close moves no period, so the period alone
-- cannot say that the last period is closed).
ALTER TABLE "subscriptions" ADD COLUMN "closed_through" TIMESTAMPTZ(6);
UPDATE "subscriptions" s SET "closed_through" = c.closed_through
  FROM (SELECT subscription_id, max(period_end) AS closed_through FROM subscription_period_closes GROUP BY subscription_id) c
 WHERE c.subscription_id = s.id;
