-- A batch of usage events is stored by ONE autocommitted statement whenever that statement can show
-- that every id it skipped (ON CONFLICT DO NOTHING) is the same customer's event: an explicit
-- transaction costs two more round trips per batch (BEGIN, COMMIT), each waiting for the API's busy
-- event loop, which slowed batch ingestion by 15-25%. When the statement cannot show it (the row is
-- another customer's, or was committed while the insert waited on it, so the statement's snapshot
-- does not see it), the statement calls this, which aborts it (nothing stored) with SQLSTATE UE001;
-- the caller then re-runs the batch in a transaction that checks the skipped ids in a second statement.
CREATE FUNCTION usage_events_abort_unproven(unproven bigint) RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN
  IF unproven > 0 THEN
    RAISE EXCEPTION '% skipped event ids are not proven duplicates of the same customer''s events', unproven
      USING ERRCODE = 'UE001';
  END IF;
  RETURN unproven;
END;
$$;
