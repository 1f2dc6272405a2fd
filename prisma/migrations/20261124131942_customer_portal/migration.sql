-- CreateTable
CREATE TABLE "customer_portal_links" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "customer_id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "reusable" BOOLEAN NOT NULL DEFAULT true,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),
    "consumed_at" TIMESTAMPTZ(3),
    "last_accessed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "customer_portal_links_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "portal_sessions" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "link_id" TEXT NOT NULL,
    "customer_id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "csrf_token" TEXT NOT NULL,
    "locale" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "portal_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "portal_settings" (
    "merchant_id" TEXT NOT NULL,
    "allow_cancel" BOOLEAN NOT NULL DEFAULT true,
    "allow_update_payment_methods" BOOLEAN NOT NULL DEFAULT true,
    "allow_update_billing_details" BOOLEAN NOT NULL DEFAULT true,
    "allow_pay_invoices" BOOLEAN NOT NULL DEFAULT true,
    "show_invoice_history" BOOLEAN NOT NULL DEFAULT true,
    "return_url" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "portal_settings_pkey" PRIMARY KEY ("merchant_id")
);

-- CreateTable
CREATE TABLE "merchant_business_details" (
    "merchant_id" TEXT NOT NULL,
    "legal_name" TEXT,
    "kennitala" TEXT,
    "vat_number" TEXT,
    "address_line1" TEXT,
    "address_line2" TEXT,
    "postal_code" TEXT,
    "city" TEXT,
    "country" TEXT,
    "support_email" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "merchant_business_details_pkey" PRIMARY KEY ("merchant_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "customer_portal_links_token_hash_key" ON "customer_portal_links"("token_hash");

-- CreateIndex
CREATE INDEX "customer_portal_links_merchant_id_mode_customer_id_created__idx" ON "customer_portal_links"("merchant_id", "mode", "customer_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "customer_portal_links_merchant_id_mode_id_key" ON "customer_portal_links"("merchant_id", "mode", "id");

-- CreateIndex
CREATE UNIQUE INDEX "portal_sessions_token_hash_key" ON "portal_sessions"("token_hash");

-- CreateIndex
CREATE INDEX "portal_sessions_merchant_id_mode_link_id_idx" ON "portal_sessions"("merchant_id", "mode", "link_id");

-- CreateIndex
CREATE INDEX "portal_sessions_expires_at_idx" ON "portal_sessions"("expires_at");

-- AddForeignKey
ALTER TABLE "customer_portal_links" ADD CONSTRAINT "customer_portal_links_merchant_id_mode_customer_id_fkey" FOREIGN KEY ("merchant_id", "mode", "customer_id") REFERENCES "customers"("merchant_id", "mode", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "portal_sessions" ADD CONSTRAINT "portal_sessions_merchant_id_mode_link_id_fkey" FOREIGN KEY ("merchant_id", "mode", "link_id") REFERENCES "customer_portal_links"("merchant_id", "mode", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "portal_settings" ADD CONSTRAINT "portal_settings_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "merchant_business_details" ADD CONSTRAINT "merchant_business_details_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

