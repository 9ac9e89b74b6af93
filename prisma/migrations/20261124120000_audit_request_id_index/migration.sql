-- What one API call changed: the audit log filtered by the request id it was answered with.
CREATE INDEX "audit_log_request_id_idx" ON "audit_log"("request_id");
