-- CreateEnum
CREATE TYPE "PaymentStatus" AS ENUM ('requires_payment_method', 'processing', 'succeeded', 'failed', 'canceled', 'partially_refunded', 'refunded');

-- CreateEnum
CREATE TYPE "PaymentMethodType" AS ENUM ('card', 'apple_pay', 'google_pay', 'bank_invoice');

-- CreateEnum
CREATE TYPE "PaymentSessionUiMode" AS ENUM ('hosted', 'embedded');

-- CreateEnum
CREATE TYPE "PaymentSessionStatus" AS ENUM ('open', 'complete', 'expired');

-- CreateEnum
CREATE TYPE "RefundStatus" AS ENUM ('pending', 'succeeded', 'failed');

-- CreateEnum
CREATE TYPE "InvoiceStatus" AS ENUM ('draft', 'open', 'paid', 'void', 'uncollectible');

-- CreateEnum
CREATE TYPE "CreditNoteStatus" AS ENUM ('issued', 'void');

-- AlterTable
ALTER TABLE "customers" ADD COLUMN     "default_payment_method_id" TEXT;

-- CreateTable
CREATE TABLE "payments" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "customer_id" TEXT,
    "amount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "description" TEXT,
    "status" "PaymentStatus" NOT NULL,
    "amount_refunded" BIGINT NOT NULL DEFAULT 0,
    "payment_method_id" TEXT,
    "external_reference" TEXT,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "attempt_count" INTEGER NOT NULL DEFAULT 0,
    "acquirer_charge_id" TEXT,
    "failure_code" TEXT,
    "failure_message" TEXT,
    "succeeded_at" TIMESTAMPTZ(3),
    "canceled_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payment_methods" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "customer_id" TEXT NOT NULL,
    "type" "PaymentMethodType" NOT NULL,
    "brand" TEXT,
    "last4" TEXT,
    "exp_month" INTEGER,
    "exp_year" INTEGER,
    "acquirer_token" TEXT,
    "detached_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payment_methods_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payment_sessions" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "payment_id" TEXT NOT NULL,
    "ui_mode" "PaymentSessionUiMode" NOT NULL,
    "status" "PaymentSessionStatus" NOT NULL DEFAULT 'open',
    "customer_id" TEXT,
    "customer_email" TEXT,
    "return_url" TEXT,
    "cancel_url" TEXT,
    "origin" TEXT,
    "enabled_methods" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "locale" TEXT,
    "save_payment_method" BOOLEAN NOT NULL DEFAULT false,
    "client_secret_hash" TEXT,
    "external_reference" TEXT,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "saved_payment_method_id" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "completed_at" TIMESTAMPTZ(3),
    "expired_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payment_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "refunds" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "payment_id" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "status" "RefundStatus" NOT NULL DEFAULT 'pending',
    "reason" TEXT,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "acquirer_refund_id" TEXT,
    "failure_code" TEXT,
    "failure_message" TEXT,
    "succeeded_at" TIMESTAMPTZ(3),
    "failed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "refunds_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "invoice_number_sequences" (
    "merchant_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "next" INTEGER NOT NULL DEFAULT 1,

    CONSTRAINT "invoice_number_sequences_pkey" PRIMARY KEY ("merchant_id","mode")
);

-- CreateTable
CREATE TABLE "invoices" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "customer_id" TEXT,
    "subscription_id" TEXT,
    "payment_id" TEXT,
    "period_key" TEXT,
    "payment_key" TEXT,
    "number" TEXT,
    "status" "InvoiceStatus" NOT NULL DEFAULT 'draft',
    "billing_reason" TEXT NOT NULL,
    "collection_method" TEXT,
    "currency" TEXT NOT NULL,
    "subtotal" BIGINT NOT NULL DEFAULT 0,
    "discount_amount" BIGINT NOT NULL DEFAULT 0,
    "total" BIGINT NOT NULL DEFAULT 0,
    "amount_due" BIGINT NOT NULL DEFAULT 0,
    "amount_paid" BIGINT NOT NULL DEFAULT 0,
    "period_start" TIMESTAMPTZ(3) NOT NULL,
    "period_end" TIMESTAMPTZ(3) NOT NULL,
    "due_date" TIMESTAMPTZ(3),
    "attempt_count" INTEGER NOT NULL DEFAULT 0,
    "next_payment_attempt_at" TIMESTAMPTZ(3),
    "finalized_at" TIMESTAMPTZ(3),
    "paid_at" TIMESTAMPTZ(3),
    "voided_at" TIMESTAMPTZ(3),
    "uncollectible_at" TIMESTAMPTZ(3),
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "invoices_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "invoice_lines" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "invoice_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "quantity" BIGINT NOT NULL DEFAULT 1,
    "unit_amount" BIGINT,
    "amount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "period_start" TIMESTAMPTZ(3),
    "period_end" TIMESTAMPTZ(3),
    "price_id" TEXT,
    "subscription_item_id" TEXT,
    "invoice_item_id" TEXT,
    "proration" BOOLEAN NOT NULL DEFAULT false,
    "details" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "invoice_lines_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "invoice_items" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "customer_id" TEXT NOT NULL,
    "subscription_id" TEXT,
    "invoice_id" TEXT,
    "amount" BIGINT NOT NULL,
    "quantity" INTEGER NOT NULL DEFAULT 1,
    "currency" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "proration" BOOLEAN NOT NULL DEFAULT false,
    "period_start" TIMESTAMPTZ(3),
    "period_end" TIMESTAMPTZ(3),
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "invoice_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "credit_notes" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "invoice_id" TEXT NOT NULL,
    "refund_id" TEXT,
    "amount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "reason" TEXT,
    "status" "CreditNoteStatus" NOT NULL DEFAULT 'issued',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "credit_notes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "payments_merchant_id_mode_created_at_id_idx" ON "payments"("merchant_id", "mode", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "payments_merchant_id_mode_status_created_at_id_idx" ON "payments"("merchant_id", "mode", "status", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "payments_merchant_id_mode_customer_id_idx" ON "payments"("merchant_id", "mode", "customer_id");

-- CreateIndex
CREATE UNIQUE INDEX "payments_merchant_id_mode_id_key" ON "payments"("merchant_id", "mode", "id");

-- CreateIndex
CREATE INDEX "payment_methods_merchant_id_mode_created_at_id_idx" ON "payment_methods"("merchant_id", "mode", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "payment_methods_merchant_id_mode_customer_id_created_at_idx" ON "payment_methods"("merchant_id", "mode", "customer_id", "created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "payment_methods_merchant_id_mode_id_key" ON "payment_methods"("merchant_id", "mode", "id");

-- CreateIndex
CREATE UNIQUE INDEX "payment_sessions_client_secret_hash_key" ON "payment_sessions"("client_secret_hash");

-- CreateIndex
CREATE INDEX "payment_sessions_merchant_id_mode_payment_id_idx" ON "payment_sessions"("merchant_id", "mode", "payment_id");

-- CreateIndex
CREATE INDEX "payment_sessions_status_expires_at_idx" ON "payment_sessions"("status", "expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "payment_sessions_merchant_id_mode_id_key" ON "payment_sessions"("merchant_id", "mode", "id");

-- CreateIndex
CREATE INDEX "refunds_merchant_id_mode_payment_id_created_at_idx" ON "refunds"("merchant_id", "mode", "payment_id", "created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "refunds_merchant_id_mode_id_key" ON "refunds"("merchant_id", "mode", "id");

-- CreateIndex
CREATE INDEX "invoices_merchant_id_mode_created_at_id_idx" ON "invoices"("merchant_id", "mode", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "invoices_merchant_id_mode_status_created_at_id_idx" ON "invoices"("merchant_id", "mode", "status", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "invoices_merchant_id_mode_customer_id_idx" ON "invoices"("merchant_id", "mode", "customer_id");

-- CreateIndex
CREATE INDEX "invoices_merchant_id_mode_subscription_id_idx" ON "invoices"("merchant_id", "mode", "subscription_id");

-- CreateIndex
CREATE UNIQUE INDEX "invoices_merchant_id_mode_id_key" ON "invoices"("merchant_id", "mode", "id");

-- CreateIndex
CREATE UNIQUE INDEX "invoices_merchant_id_mode_period_key_key" ON "invoices"("merchant_id", "mode", "period_key");

-- CreateIndex
CREATE UNIQUE INDEX "invoices_merchant_id_mode_payment_key_key" ON "invoices"("merchant_id", "mode", "payment_key");

-- CreateIndex
CREATE UNIQUE INDEX "invoices_merchant_id_mode_number_key" ON "invoices"("merchant_id", "mode", "number");

-- CreateIndex
CREATE INDEX "invoice_lines_merchant_id_mode_invoice_id_idx" ON "invoice_lines"("merchant_id", "mode", "invoice_id");

-- CreateIndex
CREATE UNIQUE INDEX "invoice_lines_invoice_id_position_key" ON "invoice_lines"("invoice_id", "position");

-- CreateIndex
CREATE INDEX "invoice_items_merchant_id_mode_created_at_id_idx" ON "invoice_items"("merchant_id", "mode", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "invoice_items_merchant_id_mode_customer_id_invoice_id_idx" ON "invoice_items"("merchant_id", "mode", "customer_id", "invoice_id");

-- CreateIndex
CREATE INDEX "invoice_items_merchant_id_mode_subscription_id_invoice_id_idx" ON "invoice_items"("merchant_id", "mode", "subscription_id", "invoice_id");

-- CreateIndex
CREATE UNIQUE INDEX "invoice_items_merchant_id_mode_id_key" ON "invoice_items"("merchant_id", "mode", "id");

-- CreateIndex
CREATE INDEX "credit_notes_merchant_id_mode_invoice_id_created_at_idx" ON "credit_notes"("merchant_id", "mode", "invoice_id", "created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "credit_notes_merchant_id_mode_id_key" ON "credit_notes"("merchant_id", "mode", "id");

-- CreateIndex
CREATE UNIQUE INDEX "credit_notes_merchant_id_mode_refund_id_key" ON "credit_notes"("merchant_id", "mode", "refund_id");

-- AddForeignKey
ALTER TABLE "customers" ADD CONSTRAINT "customers_merchant_id_mode_default_payment_method_id_fkey" FOREIGN KEY ("merchant_id", "mode", "default_payment_method_id") REFERENCES "payment_methods"("merchant_id", "mode", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payments" ADD CONSTRAINT "payments_merchant_id_mode_customer_id_fkey" FOREIGN KEY ("merchant_id", "mode", "customer_id") REFERENCES "customers"("merchant_id", "mode", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payments" ADD CONSTRAINT "payments_merchant_id_mode_payment_method_id_fkey" FOREIGN KEY ("merchant_id", "mode", "payment_method_id") REFERENCES "payment_methods"("merchant_id", "mode", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_merchant_id_mode_customer_id_fkey" FOREIGN KEY ("merchant_id", "mode", "customer_id") REFERENCES "customers"("merchant_id", "mode", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payment_sessions" ADD CONSTRAINT "payment_sessions_merchant_id_mode_payment_id_fkey" FOREIGN KEY ("merchant_id", "mode", "payment_id") REFERENCES "payments"("merchant_id", "mode", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payment_sessions" ADD CONSTRAINT "payment_sessions_merchant_id_mode_saved_payment_method_id_fkey" FOREIGN KEY ("merchant_id", "mode", "saved_payment_method_id") REFERENCES "payment_methods"("merchant_id", "mode", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_merchant_id_mode_payment_id_fkey" FOREIGN KEY ("merchant_id", "mode", "payment_id") REFERENCES "payments"("merchant_id", "mode", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_merchant_id_mode_customer_id_fkey" FOREIGN KEY ("merchant_id", "mode", "customer_id") REFERENCES "customers"("merchant_id", "mode", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_merchant_id_mode_payment_id_fkey" FOREIGN KEY ("merchant_id", "mode", "payment_id") REFERENCES "payments"("merchant_id", "mode", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_merchant_id_mode_invoice_id_fkey" FOREIGN KEY ("merchant_id", "mode", "invoice_id") REFERENCES "invoices"("merchant_id", "mode", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invoice_items" ADD CONSTRAINT "invoice_items_merchant_id_mode_customer_id_fkey" FOREIGN KEY ("merchant_id", "mode", "customer_id") REFERENCES "customers"("merchant_id", "mode", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invoice_items" ADD CONSTRAINT "invoice_items_merchant_id_mode_invoice_id_fkey" FOREIGN KEY ("merchant_id", "mode", "invoice_id") REFERENCES "invoices"("merchant_id", "mode", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_merchant_id_mode_invoice_id_fkey" FOREIGN KEY ("merchant_id", "mode", "invoice_id") REFERENCES "invoices"("merchant_id", "mode", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_merchant_id_mode_refund_id_fkey" FOREIGN KEY ("merchant_id", "mode", "refund_id") REFERENCES "refunds"("merchant_id", "mode", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

