-- How a line's amount came to be, beyond its rated detail: the plan version and phase, and per
-- metered line the meter (aggregation, property, filters), the window read, the events counted
-- with the first and last one, and the aggregate before it was clamped at zero. Written by the
-- period close (and any billing) in the transaction that writes the line; read by
-- GET /v1/invoices/:id/explain. Lines written before this column have none (NULL).
ALTER TABLE "invoice_line_items" ADD COLUMN "pricing_trace" JSONB;
