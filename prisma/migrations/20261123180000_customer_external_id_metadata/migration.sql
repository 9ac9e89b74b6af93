-- Customers: your own id for them (unique, usable as external_customer_id in usage events) and metadata.
ALTER TABLE "customers" ADD COLUMN "external_id" TEXT;
ALTER TABLE "customers" ADD COLUMN "metadata" JSONB NOT NULL DEFAULT '{}';
CREATE UNIQUE INDEX "customers_external_id_key" ON "customers"("external_id");
