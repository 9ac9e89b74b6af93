-- Shadow billing (docs/shadow-billing.md): a candidate plan version attached to live subscriptions
-- (named ones, or those on a plan) as a shadow. Each period close of a covered subscription also
-- rates the period with the candidate, after the close, and stores the result here. Nothing here is
-- read by billing, invoices, documents or hosted pages.
CREATE TABLE "shadow_billing_attachments" (
    "id" UUID NOT NULL,
    "plan_id" UUID NOT NULL,
    "plan_version" INTEGER NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "scope" JSONB NOT NULL,
    "scope_plan_id" UUID,
    "scope_subscription_ids" UUID[] NOT NULL DEFAULT ARRAY[]::UUID[],
    "attached_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "detached_at" TIMESTAMPTZ(6),
    CONSTRAINT "shadow_billing_attachments_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "shadow_billing_attachments_plan_version_fkey" FOREIGN KEY ("plan_id", "plan_version") REFERENCES "plan_versions"("plan_id", "version") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "shadow_billing_attachments_scope" CHECK (("scope_plan_id" IS NULL) <> (cardinality("scope_subscription_ids") = 0))
);

CREATE INDEX "shadow_billing_attachments_live_idx" ON "shadow_billing_attachments"("scope_plan_id") WHERE "detached_at" IS NULL;
CREATE INDEX "shadow_billing_attachments_live_subscriptions_idx" ON "shadow_billing_attachments" USING GIN ("scope_subscription_ids") WHERE "detached_at" IS NULL;

-- One shadow rating of one closed period of one subscription under one attachment: what the close
-- billed for the period (actual), what the candidate rates (shadow), and the candidate's lines; or
-- the failure that kept it from rating (status failed, error).
CREATE TABLE "shadow_billing_results" (
    "attachment_id" UUID NOT NULL,
    "subscription_id" UUID NOT NULL,
    "period_start" TIMESTAMPTZ(6) NOT NULL,
    "period_end" TIMESTAMPTZ(6) NOT NULL,
    "invoice_id" UUID,
    "customer_id" UUID NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "status" TEXT NOT NULL,
    "actual_nanos" DECIMAL(38,0),
    "shadow_nanos" DECIMAL(38,0),
    "delta_nanos" DECIMAL(38,0),
    "lines" JSONB NOT NULL DEFAULT '[]',
    "error" JSONB,
    "rated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "shadow_billing_results_pkey" PRIMARY KEY ("attachment_id", "subscription_id", "period_start"),
    CONSTRAINT "shadow_billing_results_attachment_id_fkey" FOREIGN KEY ("attachment_id") REFERENCES "shadow_billing_attachments"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "shadow_billing_results_status" CHECK ("status" IN ('rated', 'failed')),
    CONSTRAINT "shadow_billing_results_rated" CHECK ("status" <> 'rated' OR ("actual_nanos" IS NOT NULL AND "shadow_nanos" IS NOT NULL AND "delta_nanos" = "shadow_nanos" - "actual_nanos"))
);

CREATE INDEX "shadow_billing_results_period_start_idx" ON "shadow_billing_results"("period_start");
CREATE INDEX "shadow_billing_results_invoice_id_idx" ON "shadow_billing_results"("invoice_id");
