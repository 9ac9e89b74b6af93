-- A spend alert evaluation that failed in a way no retry fixes: shown on the customer's alerts until
-- an evaluation succeeds again ({ step, type, message, failed_at }; null when none).
ALTER TABLE spend_alerts ADD COLUMN evaluation_error JSONB;

-- The history records when an evaluation failed and when one succeeded again.
ALTER TABLE spend_alert_events DROP CONSTRAINT "spend_alert_events_kind_check";
ALTER TABLE spend_alert_events ADD CONSTRAINT "spend_alert_events_kind_check"
    CHECK ("kind" IN ('created', 'triggered', 'reset', 'disabled', 'evaluation_failed', 'evaluation_recovered'));
