-- Plan versions: a plan's SKU set is frozen per version once a subscription uses it; a change to a
-- plan in use opens version N+1, which new subscriptions take, while existing ones stay on theirs.
-- A SKU belongs to the versions [version_from, version_to) of its plan (version_to null: still current).
ALTER TABLE "plans" ADD COLUMN "version" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "plans" ADD COLUMN "archived_at" TIMESTAMPTZ(6);
ALTER TABLE "products" ADD COLUMN "archived_at" TIMESTAMPTZ(6);
ALTER TABLE "meters" ADD COLUMN "archived_at" TIMESTAMPTZ(6);

CREATE TABLE "plan_versions" (
    "plan_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "plan_versions_pkey" PRIMARY KEY ("plan_id", "version"),
    CONSTRAINT "plan_versions_version_check" CHECK ("version" >= 1)
);
ALTER TABLE "plan_versions" ADD CONSTRAINT "plan_versions_plan_id_fkey" FOREIGN KEY ("plan_id") REFERENCES "plans"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Every existing plan gets its version 1, dated with the plan; every new plan gets its first
-- version with its row, whoever inserts it.
INSERT INTO "plan_versions" ("plan_id", "version", "created_at") SELECT "id", 1, "created_at" FROM "plans";

CREATE FUNCTION "plan_first_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "plan_versions" ("plan_id", "version", "created_at") VALUES (NEW."id", NEW."version", NEW."created_at");
  RETURN NEW;
END $$;
CREATE TRIGGER "plans_first_version" AFTER INSERT ON "plans" FOR EACH ROW EXECUTE FUNCTION "plan_first_version"();

ALTER TABLE "skus" ADD COLUMN "version_from" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "skus" ADD COLUMN "version_to" INTEGER;
ALTER TABLE "skus" ADD COLUMN "archived_at" TIMESTAMPTZ(6);
ALTER TABLE "skus" ADD CONSTRAINT "skus_version_range_check" CHECK ("version_from" >= 1 AND ("version_to" IS NULL OR "version_to" >= "version_from"));
ALTER TABLE "skus" ADD CONSTRAINT "skus_plan_version_from_fkey" FOREIGN KEY ("plan_id", "version_from") REFERENCES "plan_versions"("plan_id", "version") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Existing subscriptions and their plan phases are on version 1 of their plan.
ALTER TABLE "subscriptions" ADD COLUMN "plan_version" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "subscription_phases" ADD COLUMN "plan_version" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_plan_version_fkey" FOREIGN KEY ("plan_id", "plan_version") REFERENCES "plan_versions"("plan_id", "version") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "subscription_phases" ADD CONSTRAINT "subscription_phases_plan_version_fkey" FOREIGN KEY ("plan_id", "plan_version") REFERENCES "plan_versions"("plan_id", "version") ON DELETE RESTRICT ON UPDATE CASCADE;
CREATE INDEX "subscription_phases_plan_id_plan_version_idx" ON "subscription_phases"("plan_id", "plan_version");
