-- Receivable items, for AR aging over a large ledger: one row per accounts_receivable account and
-- invoice (invoice_id null: the account's entries of journals without an invoice) holding the net of
-- all its entries (debits − credits), the earliest and latest effective time among them, and the
-- invoice's due date. Triggers keep it in the same transaction as every posting (and as the
-- finalization that sets the due date, which is immutable from then on), so it is never behind the
-- ledger. The entries stay the record: as of an instant T, an item whose entries are all at or
-- before T is open by its net, one with none by then is not there yet, and only an item with entries
-- on both sides of T is summed from its entries (see arAging in src/db/reports.ts).
CREATE TABLE "ledger_receivable_items" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "account_id" UUID NOT NULL,
    "invoice_id" UUID,
    "customer_id" UUID NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "due_at" TIMESTAMPTZ(6),
    "balance_nanos" DECIMAL(38,0) NOT NULL,
    "first_effective_at" TIMESTAMPTZ(6) NOT NULL,
    "last_effective_at" TIMESTAMPTZ(6) NOT NULL,
    CONSTRAINT "ledger_receivable_items_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "ledger_receivable_items_account_invoice_key" UNIQUE NULLS NOT DISTINCT ("account_id", "invoice_id")
);
ALTER TABLE "ledger_receivable_items" ADD CONSTRAINT "ledger_receivable_items_account_id_fkey"
  FOREIGN KEY ("account_id") REFERENCES "ledger_accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
-- The items open now (what a report as of a recent instant reads), and those with entries after an instant.
CREATE INDEX "ledger_receivable_items_open_idx" ON "ledger_receivable_items"("last_effective_at") WHERE "balance_nanos" <> 0;
CREATE INDEX "ledger_receivable_items_last_effective_at_idx" ON "ledger_receivable_items"("last_effective_at");
CREATE INDEX "ledger_receivable_items_customer_id_idx" ON "ledger_receivable_items"("customer_id");

-- One statement's receivable entries, netted per item first (an upsert may touch a row once), in key
-- order so concurrent postings lock items in the same order.
CREATE FUNCTION "ledger_receivable_items_post"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "ledger_receivable_items" AS r ("account_id", "invoice_id", "customer_id", "currency", "due_at", "balance_nanos", "first_effective_at", "last_effective_at")
  SELECT e."account_id", j."invoice_id", a."customer_id", a."currency", i."due_at",
         sum(CASE WHEN e."side" = 'debit' THEN e."amount_nanos" ELSE -e."amount_nanos" END), min(e."effective_at"), max(e."effective_at")
    FROM new_entries e
    JOIN "ledger_accounts" a ON a."id" = e."account_id" AND a."kind" = 'accounts_receivable'
    JOIN "ledger_journals" j ON j."id" = e."journal_id"
    LEFT JOIN "invoices" i ON i."id" = j."invoice_id"
   GROUP BY e."account_id", j."invoice_id", a."customer_id", a."currency", i."due_at"
   ORDER BY e."account_id", j."invoice_id"
  ON CONFLICT ("account_id", "invoice_id") DO UPDATE
     SET "due_at" = COALESCE(EXCLUDED."due_at", r."due_at"),
         "balance_nanos" = r."balance_nanos" + EXCLUDED."balance_nanos",
         "first_effective_at" = LEAST(r."first_effective_at", EXCLUDED."first_effective_at"),
         "last_effective_at" = GREATEST(r."last_effective_at", EXCLUDED."last_effective_at");
  RETURN NULL;
END $$;
CREATE TRIGGER "ledger_entries_receivable_items" AFTER INSERT ON "ledger_entries"
  REFERENCING NEW TABLE AS new_entries FOR EACH STATEMENT EXECUTE FUNCTION "ledger_receivable_items_post"();

-- The invoice's due date is set when it is finalized, after its finalization journal is posted (in
-- the same transaction); the guard on invoices keeps it from changing afterwards.
CREATE FUNCTION "ledger_receivable_items_due"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "ledger_receivable_items" SET "due_at" = NEW."due_at" WHERE "invoice_id" = NEW."id";
  RETURN NULL;
END $$;
CREATE TRIGGER "invoices_receivable_items_due" AFTER UPDATE OF "due_at" ON "invoices"
  FOR EACH ROW WHEN (OLD."due_at" IS DISTINCT FROM NEW."due_at") EXECUTE FUNCTION "ledger_receivable_items_due"();
CREATE INDEX "ledger_receivable_items_invoice_id_idx" ON "ledger_receivable_items"("invoice_id");

-- The items of the entries posted before this migration.
INSERT INTO "ledger_receivable_items" ("account_id", "invoice_id", "customer_id", "currency", "due_at", "balance_nanos", "first_effective_at", "last_effective_at")
SELECT e."account_id", j."invoice_id", a."customer_id", a."currency", i."due_at",
       sum(CASE WHEN e."side" = 'debit' THEN e."amount_nanos" ELSE -e."amount_nanos" END), min(e."effective_at"), max(e."effective_at")
  FROM "ledger_entries" e
  JOIN "ledger_accounts" a ON a."id" = e."account_id" AND a."kind" = 'accounts_receivable'
  JOIN "ledger_journals" j ON j."id" = e."journal_id"
  LEFT JOIN "invoices" i ON i."id" = j."invoice_id"
 GROUP BY e."account_id", j."invoice_id", a."customer_id", a."currency", i."due_at";
