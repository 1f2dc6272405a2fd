-- CreateEnum
CREATE TYPE "AccountingLinkStatus" AS ENUM ('active', 'disconnected', 'error');

-- CreateEnum
CREATE TYPE "AccountingSyncStatus" AS ENUM ('pending', 'synced', 'failed');

-- CreateTable
CREATE TABLE "accounting_links" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "provider" TEXT NOT NULL,
    "status" "AccountingLinkStatus" NOT NULL DEFAULT 'active',
    "current_key" TEXT,
    "credentials" TEXT NOT NULL,
    "access_token_expires_at" TIMESTAMPTZ(3),
    "provider_tenant" TEXT,
    "default_gl_account" TEXT,
    "vat_code_mapping" JSONB NOT NULL DEFAULT '{}',
    "status_reason" TEXT,
    "error_at" TIMESTAMPTZ(3),
    "disconnected_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "accounting_links_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "accounting_oauth_states" (
    "state_hash" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "provider" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "accounting_oauth_states_pkey" PRIMARY KEY ("state_hash")
);

-- CreateTable
CREATE TABLE "accounting_sync_records" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "link_id" TEXT NOT NULL,
    "posting_id" TEXT NOT NULL,
    "seq" BIGINT NOT NULL,
    "status" "AccountingSyncStatus" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "provider_id" TEXT,
    "provider_message" TEXT,
    "last_attempt_at" TIMESTAMPTZ(3),
    "synced_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "accounting_sync_records_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "accounting_links_current_key_key" ON "accounting_links"("current_key");

-- CreateIndex
CREATE INDEX "accounting_links_merchant_id_mode_created_at_id_idx" ON "accounting_links"("merchant_id", "mode", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "accounting_links_merchant_id_mode_id_key" ON "accounting_links"("merchant_id", "mode", "id");

-- CreateIndex
CREATE INDEX "accounting_oauth_states_expires_at_idx" ON "accounting_oauth_states"("expires_at");

-- CreateIndex
CREATE INDEX "accounting_sync_records_link_id_status_seq_idx" ON "accounting_sync_records"("link_id", "status", "seq");

-- CreateIndex
CREATE INDEX "accounting_sync_records_merchant_id_mode_link_id_created_at_idx" ON "accounting_sync_records"("merchant_id", "mode", "link_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "accounting_sync_records_merchant_id_mode_id_key" ON "accounting_sync_records"("merchant_id", "mode", "id");

-- CreateIndex
CREATE UNIQUE INDEX "accounting_sync_records_link_id_posting_id_key" ON "accounting_sync_records"("link_id", "posting_id");

-- AddForeignKey
ALTER TABLE "accounting_sync_records" ADD CONSTRAINT "accounting_sync_records_merchant_id_mode_link_id_fkey" FOREIGN KEY ("merchant_id", "mode", "link_id") REFERENCES "accounting_links"("merchant_id", "mode", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

