-- Dimensional pricing: a usage SKU may price per value of 1-3 event properties. `skus.dimensional`
-- holds its terms ({ group_by, tier_scope, dimension_prices }, money as decimal strings); NULL for
-- every SKU priced as one quantity (all SKUs before this migration).
ALTER TABLE "skus" ADD COLUMN "dimensional" JSONB;

-- The dimension value an invoice line of a dimensional SKU bills ({"region": "eu"}; {} for the
-- `other` bucket beyond the cardinality bound); NULL on every other line. Billing matches a SKU's
-- lines across the bills of a period by (sku_id, dimensions).
ALTER TABLE "invoice_line_items" ADD COLUMN "dimensions" JSONB;
