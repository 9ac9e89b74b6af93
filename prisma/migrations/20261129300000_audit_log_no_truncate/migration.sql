-- The audit trail is append-only like the ledger and usage events: TRUNCATE is refused too (row
-- triggers do not fire for it).
CREATE TRIGGER audit_log_no_truncate
  BEFORE TRUNCATE ON "audit_log"
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_mutation();
