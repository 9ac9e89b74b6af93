-- Customer portal sessions (issue 32): one row per link minted; the link's secret is kept only as its SHA-256.
CREATE TABLE "portal_sessions" (
    "id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(6) NOT NULL,
    "revoked_at" TIMESTAMPTZ(6),
    "created_by" TEXT NOT NULL,
    "return_url" TEXT,
    "setup_checkout_session_id" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "portal_sessions_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "portal_sessions_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "portal_sessions_token_hash_hex" CHECK ("token_hash" ~ '^[0-9a-f]{64}$'),
    CONSTRAINT "portal_sessions_return_url_length" CHECK (char_length("return_url") <= 2000)
);

CREATE INDEX "portal_sessions_customer_id_created_at_idx" ON "portal_sessions"("customer_id", "created_at");
