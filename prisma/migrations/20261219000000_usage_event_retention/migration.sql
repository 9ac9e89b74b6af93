-- Raw usage event retention (docs/usage-and-metering.md, "Retention and events over time"): raw events
-- of closed, final, rolled-up periods older than USAGE_EVENT_RETENTION_DAYS (in the customer's time)
-- leave usage_events through usage_events_prune, the one way a row of the table is ever deleted.

-- What the retention dropped, per customer and event type: every deleted event of the type lies
-- before `pruned_before` (the latest cutoff applied, customer time), and before the end of the part
-- of its subscription's periods that is final (usage_final_through). `rolled_up_by` names the rollup
-- series (cursor keys) whose rollups held every event the retention deleted: those answer the dropped
-- periods; a series not listed (a meter or dimensional SKU created after the first deletion) lacks them.
CREATE TABLE "usage_event_retention" (
  "customer_id" UUID NOT NULL,
  "event_type" TEXT NOT NULL,
  "pruned_before" TIMESTAMPTZ(6) NOT NULL,
  "rolled_up_by" TEXT[] NOT NULL,
  "events_deleted" BIGINT NOT NULL,
  "first_pruned_at" TIMESTAMPTZ(6) NOT NULL,
  "last_pruned_at" TIMESTAMPTZ(6) NOT NULL,
  CONSTRAINT "usage_event_retention_pkey" PRIMARY KEY ("customer_id", "event_type")
);
CREATE INDEX "usage_event_retention_event_type_idx" ON "usage_event_retention" ("event_type");

-- Where the billing of a subscription's usage is final, judged with `p_cutoff` (an instant in the
-- customer's time no event at or after which is dropped): the start of its first closed period that
-- something may still rate again from raw events, because it ends after the cutoff (late events may
-- still arrive for it), its own invoice is still a Draft (the Draft's refresh rates it), or late
-- events of it are not billed yet (the next close or correction rates it whole); else the end of its
-- last closed period (closed_through: its open period is rated at its close); for a subscription
-- without a close yet, its start; for an Expired one whose closed periods are all final, never.
-- Before the returned instant no reader rates the subscription's raw events any more.
CREATE FUNCTION usage_final_through(p_subscription uuid, p_cutoff timestamptz) RETURNS timestamptz
  LANGUAGE sql STABLE AS $$
  SELECT LEAST(
    CASE WHEN s.status = 'Expired' THEN 'infinity'::timestamptz
         ELSE COALESCE(s.closed_through, (SELECT min(p.starts_at) FROM subscription_phases p WHERE p.subscription_id = s.id), s.period_start) END,
    (SELECT min(c.period_start) FROM subscription_period_closes c
      WHERE c.subscription_id = s.id
        AND (c.period_end > p_cutoff
             OR EXISTS (SELECT 1 FROM invoices i WHERE i.id = c.invoice_id AND i.status = 'Draft')
             OR EXISTS (SELECT 1 FROM usage_events e
                        WHERE e.late AND e.customer_id = s.customer_id AND e.seq > c.accounted_seq
                          AND (e.subscription_id = s.id OR e.subscription_id IS NULL)
                          AND e.occurred_at >= c.period_start AND e.occurred_at < c.period_end))))
  FROM subscriptions s WHERE s.id = p_subscription
$$;

-- The rollup series (usage_rollup_cursors keys) that read events of a type: the default
-- aggregators' shared cursor, every meter of the type, and every dimension series of those meters
-- (src/db/metering/aggregators.ts dimensionKey: "dims:<meter id>:<group_by as JSON>").
CREATE FUNCTION usage_rollup_series_of(p_event_type text) RETURNS SETOF text
  LANGUAGE sql STABLE AS $$
  SELECT 'default'
  UNION
  SELECT m.id::text FROM meters m WHERE m.event_type = p_event_type
  UNION
  SELECT 'dims:' || m.id::text || ':' ||
         (SELECT '[' || COALESCE(string_agg(to_json(g.value)::text, ',' ORDER BY g.ordinality), '') || ']'
            FROM jsonb_array_elements_text(k.dimensional -> 'group_by') WITH ORDINALITY AS g(value, ordinality))
  FROM skus k JOIN meters m ON m.id = k.meter_id
  WHERE m.event_type = p_event_type AND k.dimensional IS NOT NULL AND m.aggregation::text IN ('Sum', 'Count', 'Max', 'UniqueCount')
$$;

-- Deletes up to `p_limit` raw events of one customer, each only when all of these hold:
-- - it is older than `p_retention_days` before the customer's now (its test clock's frozen time; a
--   clock that is advancing is left alone until it is ready), and that retention is longer than the
--   late-usage window, so the door refuses the event as too old if it is sent again;
-- - its type is read by no WEIGHTED_SUM meter (whose level sums every earlier event of the type);
-- - every rollup series of its type has rolled it up (a series without a cursor counts as 0);
-- - it lies before usage_final_through of every subscription it counts towards (the one it names,
--   or every subscription of the customer), so nothing rates it again.
-- Walks the (customer_id, event_type, occurred_at) index type by type, oldest first; records what it
-- deleted in usage_event_retention in the same transaction. Meters of a type are created under the
-- advisory lock taken here (src/db/metering/meters.ts), so none appears while the type is pruned.
-- Returns the number of events deleted (fewer than p_limit: nothing more to delete now).
-- SECURITY DEFINER: it deletes as the table's owner, the only role whose deletes the guard below
-- lets through, and only while this function runs; the service's role may call it, never delete.
CREATE FUNCTION usage_events_prune(p_customer uuid, p_retention_days integer, p_late_days integer, p_limit integer) RETURNS bigint
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = public, pg_temp
  SET billing.usage_events_prune = 'on'
AS $$
DECLARE
  v_cutoff timestamptz;
  v_types text[];
  v_type text;
  v_series text[];
  v_through bigint;
  v_deleted bigint := 0;
  v_n bigint;
BEGIN
  IF p_retention_days IS NULL OR p_late_days IS NULL OR p_limit IS NULL OR p_late_days < 1 OR p_retention_days <= p_late_days OR p_limit < 1 THEN
    RAISE EXCEPTION 'usage_events_prune: the retention (% days) must be longer than the late-usage window (% days) and the batch (%) at least 1 row',
      p_retention_days, p_late_days, p_limit USING ERRCODE = 'invalid_parameter_value';
  END IF;
  SELECT COALESCE(tc.frozen_time, now()) - p_retention_days * interval '1 day' INTO v_cutoff
  FROM customers c LEFT JOIN test_clocks tc ON tc.id = c.test_clock_id
  WHERE c.id = p_customer AND (tc.id IS NULL OR tc.status <> 'advancing');
  IF v_cutoff IS NULL THEN
    RETURN 0;
  END IF;
  -- The customer's event types, one index probe each.
  WITH RECURSIVE t(event_type) AS (
    (SELECT e.event_type FROM usage_events e WHERE e.customer_id = p_customer ORDER BY e.event_type LIMIT 1)
    UNION ALL
    SELECT (SELECT e.event_type FROM usage_events e WHERE e.customer_id = p_customer AND e.event_type > t.event_type ORDER BY e.event_type LIMIT 1)
    FROM t WHERE t.event_type IS NOT NULL
  )
  SELECT array_agg(t.event_type ORDER BY t.event_type) INTO v_types FROM t WHERE t.event_type IS NOT NULL;
  FOREACH v_type IN ARRAY COALESCE(v_types, '{}'::text[]) LOOP
    EXIT WHEN v_deleted >= p_limit;
    PERFORM pg_advisory_xact_lock(hashtextextended('meter-definition:' || v_type, 0));
    CONTINUE WHEN EXISTS (SELECT 1 FROM meters m WHERE m.event_type = v_type AND m.aggregation::text = 'WEIGHTED_SUM');
    SELECT array_agg(s.series ORDER BY s.series), min(COALESCE(c.position, 0)) INTO v_series, v_through
    FROM usage_rollup_series_of(v_type) AS s(series) LEFT JOIN usage_rollup_cursors c ON c.aggregator = s.series;
    CONTINUE WHEN COALESCE(v_through, 0) <= 0;
    WITH bounds AS MATERIALIZED (
      SELECT s.id, LEAST(v_cutoff, usage_final_through(s.id, v_cutoff)) AS bound
      FROM subscriptions s WHERE s.customer_id = p_customer
    ),
    doomed AS (
      SELECT e.seq FROM usage_events e
      WHERE e.customer_id = p_customer AND e.event_type = v_type
        AND e.occurred_at < (SELECT COALESCE(max(b.bound), v_cutoff) FROM bounds b)
        AND e.seq <= v_through
        AND e.occurred_at < CASE WHEN e.subscription_id IS NULL THEN (SELECT COALESCE(min(b.bound), v_cutoff) FROM bounds b)
                                 ELSE (SELECT b.bound FROM bounds b WHERE b.id = e.subscription_id) END
      ORDER BY e.occurred_at
      LIMIT p_limit - v_deleted
    )
    DELETE FROM usage_events e USING doomed d WHERE e.seq = d.seq;
    GET DIAGNOSTICS v_n = ROW_COUNT;
    CONTINUE WHEN v_n = 0;
    v_deleted := v_deleted + v_n;
    INSERT INTO usage_event_retention AS r (customer_id, event_type, pruned_before, rolled_up_by, events_deleted, first_pruned_at, last_pruned_at)
    VALUES (p_customer, v_type, v_cutoff, v_series, v_n, now(), now())
    ON CONFLICT (customer_id, event_type) DO UPDATE SET
      pruned_before = GREATEST(r.pruned_before, EXCLUDED.pruned_before),
      rolled_up_by = ARRAY(SELECT unnest(r.rolled_up_by) INTERSECT SELECT unnest(EXCLUDED.rolled_up_by) ORDER BY 1),
      events_deleted = r.events_deleted + EXCLUDED.events_deleted,
      last_pruned_at = EXCLUDED.last_pruned_at;
  END LOOP;
  RETURN v_deleted;
END;
$$;

-- Usage events stay append-only: UPDATE is refused as before; DELETE only by the table's owner with
-- billing.usage_events_prune on, which is how usage_events_prune runs (a setting anyone may set,
-- so the owner check is what keeps the service's role out; the owner could switch triggers off anyway).
CREATE FUNCTION usage_events_guard_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('billing.usage_events_prune', true) = 'on'
     AND current_user = (SELECT pg_get_userbyid(c.relowner) FROM pg_class c WHERE c.oid = TG_RELID) THEN
    RETURN NULL;
  END IF;
  RAISE EXCEPTION 'table % is append-only: raw events leave it only through the retention (usage_events_prune)', TG_TABLE_NAME
    USING ERRCODE = 'insufficient_privilege';
END;
$$;

DROP TRIGGER "usage_events_append_only" ON "usage_events";
CREATE TRIGGER "usage_events_append_only"
  BEFORE UPDATE ON "usage_events"
  FOR EACH ROW EXECUTE FUNCTION refuse_mutation();
CREATE TRIGGER "usage_events_delete_guard"
  BEFORE DELETE ON "usage_events"
  FOR EACH STATEMENT EXECUTE FUNCTION usage_events_guard_delete();
