-- Double-entry ledger (SPEC §1): accounts per customer, currency and kind; journals (one per business
-- event, unique by its business key, so posting the same event twice writes one journal); entries.
CREATE TYPE "LedgerAccountKind" AS ENUM ('accounts_receivable', 'cash', 'revenue', 'deferred_revenue', 'tax_payable',
  'wallet', 'promotional_credit', 'promotional_expense');
CREATE TYPE "LedgerSide" AS ENUM ('debit', 'credit');

CREATE TABLE "ledger_accounts" (
    "id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "kind" "LedgerAccountKind" NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ledger_accounts_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "ledger_accounts_customer_id_currency_kind_key" ON "ledger_accounts"("customer_id", "currency", "kind");
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_customer_id_fkey"
  FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "ledger_journals" (
    "id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "kind" TEXT NOT NULL,
    "business_key" TEXT NOT NULL,
    "source_type" TEXT NOT NULL,
    "source_id" UUID NOT NULL,
    "invoice_id" UUID,
    "reverses_journal_id" UUID,
    "description" TEXT NOT NULL,
    "effective_at" TIMESTAMPTZ(6) NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ledger_journals_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "ledger_journals_business_key_key" ON "ledger_journals"("business_key");
-- A journal is reversed at most once.
CREATE UNIQUE INDEX "ledger_journals_reverses_journal_id_key" ON "ledger_journals"("reverses_journal_id");
CREATE INDEX "ledger_journals_customer_id_effective_at_idx" ON "ledger_journals"("customer_id", "effective_at");
CREATE INDEX "ledger_journals_invoice_id_idx" ON "ledger_journals"("invoice_id");
CREATE INDEX "ledger_journals_source_id_idx" ON "ledger_journals"("source_id");
ALTER TABLE "ledger_journals" ADD CONSTRAINT "ledger_journals_customer_id_fkey"
  FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "ledger_journals" ADD CONSTRAINT "ledger_journals_reverses_journal_id_fkey"
  FOREIGN KEY ("reverses_journal_id") REFERENCES "ledger_journals"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "ledger_entries" (
    "id" UUID NOT NULL,
    "journal_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "side" "LedgerSide" NOT NULL,
    "amount_nanos" DECIMAL(38,0) NOT NULL,
    "effective_at" TIMESTAMPTZ(6) NOT NULL,
    CONSTRAINT "ledger_entries_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "ledger_entries_amount_positive" CHECK ("amount_nanos" > 0)
);
CREATE INDEX "ledger_entries_journal_id_idx" ON "ledger_entries"("journal_id");
CREATE INDEX "ledger_entries_account_id_effective_at_idx" ON "ledger_entries"("account_id", "effective_at");
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_journal_id_fkey"
  FOREIGN KEY ("journal_id") REFERENCES "ledger_journals"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_account_id_fkey"
  FOREIGN KEY ("account_id") REFERENCES "ledger_accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Append-only: journals, entries and accounts are never updated or deleted (corrections are
-- reversing journals).
CREATE TRIGGER ledger_accounts_append_only BEFORE UPDATE OR DELETE ON "ledger_accounts"
  FOR EACH ROW EXECUTE FUNCTION refuse_mutation();
CREATE TRIGGER ledger_journals_append_only BEFORE UPDATE OR DELETE ON "ledger_journals"
  FOR EACH ROW EXECUTE FUNCTION refuse_mutation();
CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON "ledger_entries"
  FOR EACH ROW EXECUTE FUNCTION refuse_mutation();
CREATE TRIGGER ledger_entries_no_truncate BEFORE TRUNCATE ON "ledger_entries"
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_mutation();
CREATE TRIGGER ledger_journals_no_truncate BEFORE TRUNCATE ON "ledger_journals"
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_mutation();

-- Balance, checked at commit (deferred): every journal written in the transaction has entries, its
-- debits equal its credits, and each entry's account belongs to the journal's customer and currency.
CREATE FUNCTION ledger_journal_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  target UUID;
  debits NUMERIC;
  credits NUMERIC;
  entries INT;
  foreign_accounts INT;
BEGIN
  IF TG_TABLE_NAME = 'ledger_journals' THEN
    target := NEW.id;
  ELSE
    target := NEW.journal_id;
  END IF;
  SELECT COALESCE(sum(e.amount_nanos) FILTER (WHERE e.side = 'debit'), 0),
         COALESCE(sum(e.amount_nanos) FILTER (WHERE e.side = 'credit'), 0),
         count(*),
         count(*) FILTER (WHERE a.customer_id <> j.customer_id OR a.currency <> j.currency)
    INTO debits, credits, entries, foreign_accounts
    FROM ledger_journals j
    LEFT JOIN ledger_entries e ON e.journal_id = j.id
    LEFT JOIN ledger_accounts a ON a.id = e.account_id
   WHERE j.id = target AND e.id IS NOT NULL;
  IF entries = 0 THEN
    RAISE EXCEPTION 'ledger journal % has no entries', target USING ERRCODE = 'check_violation';
  END IF;
  IF debits <> credits THEN
    RAISE EXCEPTION 'ledger journal % does not balance: debits % <> credits %', target, debits, credits USING ERRCODE = 'check_violation';
  END IF;
  IF foreign_accounts > 0 THEN
    RAISE EXCEPTION 'ledger journal % posts to an account of another customer or currency', target USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END;
$$;

CREATE CONSTRAINT TRIGGER ledger_journals_balanced AFTER INSERT ON "ledger_journals"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_journal_balanced();
CREATE CONSTRAINT TRIGGER ledger_entries_balanced AFTER INSERT ON "ledger_entries"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_journal_balanced();

-- Credit wallets: one per customer and currency. The balance is the sum of its grants' remaining
-- credit (kept on the row under its lock); the ledger's wallet and promotional_credit accounts hold
-- the same amount.
CREATE TABLE "wallets" (
    "id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "balance_nanos" DECIMAL(38,0) NOT NULL DEFAULT 0,
    "auto_recharge_threshold_nanos" DECIMAL(38,0),
    "auto_recharge_target_nanos" DECIMAL(38,0),
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,
    CONSTRAINT "wallets_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "wallets_balance_not_negative" CHECK ("balance_nanos" >= 0),
    CONSTRAINT "wallets_auto_recharge_pair" CHECK (("auto_recharge_threshold_nanos" IS NULL) = ("auto_recharge_target_nanos" IS NULL)),
    CONSTRAINT "wallets_auto_recharge_target_above_threshold" CHECK ("auto_recharge_target_nanos" IS NULL OR "auto_recharge_target_nanos" > "auto_recharge_threshold_nanos")
);
CREATE UNIQUE INDEX "wallets_customer_id_currency_key" ON "wallets"("customer_id", "currency");
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_customer_id_fkey"
  FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- A grant of credit (a paid top-up or a promotional grant) and what is left of it.
CREATE TABLE "wallet_grants" (
    "id" UUID NOT NULL,
    "wallet_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "amount_nanos" DECIMAL(38,0) NOT NULL,
    "remaining_nanos" DECIMAL(38,0) NOT NULL,
    "expires_at" TIMESTAMPTZ(6),
    "granted_at" TIMESTAMPTZ(6) NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "wallet_grants_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "wallet_grants_kind" CHECK ("kind" IN ('paid', 'promotional')),
    CONSTRAINT "wallet_grants_amounts" CHECK ("amount_nanos" > 0 AND "remaining_nanos" >= 0 AND "remaining_nanos" <= "amount_nanos"),
    CONSTRAINT "wallet_grants_paid_never_expires" CHECK ("kind" = 'promotional' OR "expires_at" IS NULL)
);
CREATE INDEX "wallet_grants_wallet_id_idx" ON "wallet_grants"("wallet_id");
ALTER TABLE "wallet_grants" ADD CONSTRAINT "wallet_grants_wallet_id_fkey"
  FOREIGN KEY ("wallet_id") REFERENCES "wallets"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Paid top-ups through the processor (on request or by auto-recharge).
CREATE TABLE "wallet_top_ups" (
    "id" UUID NOT NULL,
    "wallet_id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "source" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "amount_nanos" DECIMAL(38,0) NOT NULL,
    "amount_minor" BIGINT NOT NULL,
    "payment_method_id" UUID,
    "processor_payment_intent_id" TEXT,
    "failure_message" TEXT,
    "grant_id" UUID,
    "requested_at" TIMESTAMPTZ(6) NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,
    CONSTRAINT "wallet_top_ups_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "wallet_top_ups_source" CHECK ("source" IN ('api', 'auto_recharge')),
    CONSTRAINT "wallet_top_ups_status" CHECK ("status" IN ('Pending', 'Succeeded', 'Failed')),
    CONSTRAINT "wallet_top_ups_amount_positive" CHECK ("amount_nanos" > 0 AND "amount_minor" > 0)
);
CREATE INDEX "wallet_top_ups_wallet_id_idx" ON "wallet_top_ups"("wallet_id");
CREATE UNIQUE INDEX "wallet_top_ups_processor_payment_intent_id_key" ON "wallet_top_ups"("processor_payment_intent_id");
-- At most one auto-recharge in flight per wallet, whatever the concurrency.
CREATE UNIQUE INDEX "wallet_top_ups_one_pending_recharge" ON "wallet_top_ups"("wallet_id")
  WHERE "source" = 'auto_recharge' AND "status" = 'Pending';
ALTER TABLE "wallet_top_ups" ADD CONSTRAINT "wallet_top_ups_wallet_id_fkey"
  FOREIGN KEY ("wallet_id") REFERENCES "wallets"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The wallet's history: every movement of its balance, append-only.
CREATE TABLE "wallet_transactions" (
    "id" UUID NOT NULL,
    "wallet_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "amount_nanos" DECIMAL(38,0) NOT NULL,
    "balance_after_nanos" DECIMAL(38,0) NOT NULL,
    "invoice_id" UUID,
    "grant_id" UUID,
    "top_up_id" UUID,
    "journal_id" UUID,
    "description" TEXT NOT NULL,
    "occurred_at" TIMESTAMPTZ(6) NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "wallet_transactions_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "wallet_transactions_kind" CHECK ("kind" IN ('top_up', 'promotional_grant', 'drawdown', 'expiry', 'void_return'))
);
CREATE INDEX "wallet_transactions_wallet_id_idx" ON "wallet_transactions"("wallet_id", "id");
ALTER TABLE "wallet_transactions" ADD CONSTRAINT "wallet_transactions_wallet_id_fkey"
  FOREIGN KEY ("wallet_id") REFERENCES "wallets"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
CREATE TRIGGER wallet_transactions_append_only BEFORE UPDATE OR DELETE ON "wallet_transactions"
  FOR EACH ROW EXECUTE FUNCTION refuse_mutation();

-- The wallet credit applied to an invoice at finalization (amount due = total − credited − wallet applied).
ALTER TABLE "invoices" ADD COLUMN "wallet_applied_nanos" DECIMAL(38,0) NOT NULL DEFAULT 0;

-- Frozen with the rest of a finalized invoice (a separate trigger, so the invoice trigger stays as it is).
CREATE FUNCTION invoice_wallet_applied_frozen() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status <> 'Draft' AND NEW.wallet_applied_nanos IS DISTINCT FROM OLD.wallet_applied_nanos THEN
    RAISE EXCEPTION 'invoice % is finalized and its wallet credit is immutable', OLD.id USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER invoices_wallet_applied_frozen BEFORE UPDATE ON "invoices"
  FOR EACH ROW EXECUTE FUNCTION invoice_wallet_applied_frozen();
