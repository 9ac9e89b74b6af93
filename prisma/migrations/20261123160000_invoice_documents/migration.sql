-- Invoice documents (issue 19): the payer's postal address, and the rendered PDFs.

-- The bill-to address printed on invoices: { line1, line2, city, state, postal_code, country }.
ALTER TABLE "customers" ADD COLUMN "billing_address" JSONB;

-- One row per rendered edition of a finalized invoice (open, paid, void, and again after each
-- credit note) or of a credit note: the PDF bytes, their SHA-256, and the parties as printed, so
-- later editions keep the seller and payer blocks of the first. Drafts are never stored.
CREATE TABLE "documents" (
    "id" UUID NOT NULL,
    "invoice_id" UUID,
    "credit_note_id" UUID,
    "edition" TEXT NOT NULL,
    "sha256" CHAR(64) NOT NULL,
    "content" BYTEA NOT NULL,
    "parties" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "documents_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "documents_one_owner" CHECK (("invoice_id" IS NULL) <> ("credit_note_id" IS NULL)),
    CONSTRAINT "documents_sha256_hex" CHECK ("sha256" ~ '^[0-9a-f]{64}$')
);

CREATE UNIQUE INDEX "documents_invoice_id_edition_key" ON "documents"("invoice_id", "edition");
CREATE UNIQUE INDEX "documents_credit_note_id_edition_key" ON "documents"("credit_note_id", "edition");

ALTER TABLE "documents" ADD CONSTRAINT "documents_invoice_id_fkey" FOREIGN KEY ("invoice_id") REFERENCES "invoices"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "documents" ADD CONSTRAINT "documents_credit_note_id_fkey" FOREIGN KEY ("credit_note_id") REFERENCES "credit_notes"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Documents are immutable like the invoices they show: refuse UPDATE and DELETE.
CREATE TRIGGER documents_append_only
  BEFORE UPDATE OR DELETE ON "documents"
  FOR EACH ROW EXECUTE FUNCTION refuse_mutation();
