-- Spend alerts (SPEC §1 Spend alerts, §4, §6 spend_alert.triggered): thresholds on a customer's
-- current-period spend, with their append-only history.
CREATE TYPE "SpendAlertType" AS ENUM ('SoftLimit', 'HardLimit');
CREATE TYPE "SpendAlertStatus" AS ENUM ('Armed', 'Triggered', 'Disabled');

CREATE TABLE "spend_alerts" (
    "id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "alert_type" "SpendAlertType" NOT NULL,
    "threshold_nanos" DECIMAL(38,0) NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "meter_event_type" TEXT,
    "status" "SpendAlertStatus" NOT NULL DEFAULT 'Armed',
    "triggered_at" TIMESTAMPTZ(6),
    "triggered_spend_nanos" DECIMAL(38,0),
    "triggered_period_start" TIMESTAMPTZ(6),
    "last_evaluated_at" TIMESTAMPTZ(6),
    "last_spend_nanos" DECIMAL(38,0),
    "disabled_at" TIMESTAMPTZ(6),
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,
    CONSTRAINT "spend_alerts_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "spend_alerts_threshold_positive" CHECK ("threshold_nanos" > 0),
    -- Triggered carries what triggered it; Disabled is final (see the trigger below).
    CONSTRAINT "spend_alerts_triggered_fields" CHECK ("status" <> 'Triggered' OR ("triggered_at" IS NOT NULL AND "triggered_spend_nanos" IS NOT NULL))
);
CREATE INDEX "spend_alerts_customer_id_status_idx" ON "spend_alerts"("customer_id", "status");
ALTER TABLE "spend_alerts" ADD CONSTRAINT "spend_alerts_customer_id_fkey"
  FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- A disabled alert stays disabled; an alert is never deleted (its history refers to it).
CREATE FUNCTION spend_alert_disabled_is_final() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'spend alert % cannot be deleted; disable it', OLD.id USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF OLD.status = 'Disabled' AND NEW.status <> 'Disabled' THEN
    RAISE EXCEPTION 'spend alert % is disabled', OLD.id USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER spend_alerts_disabled_is_final
  BEFORE UPDATE OR DELETE ON "spend_alerts"
  FOR EACH ROW EXECUTE FUNCTION spend_alert_disabled_is_final();

CREATE TABLE "spend_alert_events" (
    "id" UUID NOT NULL,
    "alert_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "reason" TEXT,
    "spend_nanos" DECIMAL(38,0),
    "period_start" TIMESTAMPTZ(6),
    "actor_type" TEXT NOT NULL,
    "actor_id" TEXT NOT NULL,
    "at" TIMESTAMPTZ(6) NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "spend_alert_events_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "spend_alert_events_kind_check" CHECK ("kind" IN ('created', 'triggered', 'reset', 'disabled'))
);
CREATE INDEX "spend_alert_events_alert_id_created_at_idx" ON "spend_alert_events"("alert_id", "created_at");
ALTER TABLE "spend_alert_events" ADD CONSTRAINT "spend_alert_events_alert_id_fkey"
  FOREIGN KEY ("alert_id") REFERENCES "spend_alerts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TRIGGER spend_alert_events_append_only
  BEFORE UPDATE OR DELETE ON "spend_alert_events"
  FOR EACH ROW EXECUTE FUNCTION refuse_mutation();
