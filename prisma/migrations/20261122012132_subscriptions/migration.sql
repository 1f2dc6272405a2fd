-- CreateEnum
CREATE TYPE "SubscriptionStatus" AS ENUM ('trialing', 'active', 'past_due', 'unpaid', 'canceled', 'paused');

-- CreateEnum
CREATE TYPE "SubscriptionCollectionMethod" AS ENUM ('charge_automatically', 'send_invoice');

-- CreateEnum
CREATE TYPE "SubscriptionInterval" AS ENUM ('day', 'week', 'month', 'year');

-- CreateEnum
CREATE TYPE "TestClockStatus" AS ENUM ('ready', 'advancing');

-- CreateTable
CREATE TABLE "test_clocks" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "name" TEXT,
    "frozen_time" TIMESTAMPTZ(3) NOT NULL,
    "status" "TestClockStatus" NOT NULL DEFAULT 'ready',
    "deleted_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "test_clocks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "test_clock_customers" (
    "merchant_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "customer_id" TEXT NOT NULL,
    "test_clock_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "test_clock_customers_pkey" PRIMARY KEY ("merchant_id","mode","customer_id")
);

-- CreateTable
CREATE TABLE "subscriptions" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "customer_id" TEXT NOT NULL,
    "status" "SubscriptionStatus" NOT NULL,
    "collection_method" "SubscriptionCollectionMethod" NOT NULL,
    "days_until_due" INTEGER,
    "currency" TEXT NOT NULL,
    "interval" "SubscriptionInterval" NOT NULL,
    "interval_count" INTEGER NOT NULL,
    "billing_cycle_anchor" TIMESTAMPTZ(3) NOT NULL,
    "start_date" TIMESTAMPTZ(3) NOT NULL,
    "current_period_start" TIMESTAMPTZ(3) NOT NULL,
    "current_period_end" TIMESTAMPTZ(3) NOT NULL,
    "trial_start" TIMESTAMPTZ(3),
    "trial_end" TIMESTAMPTZ(3),
    "cancel_at_period_end" BOOLEAN NOT NULL DEFAULT false,
    "canceled_at" TIMESTAMPTZ(3),
    "ended_at" TIMESTAMPTZ(3),
    "paused_at" TIMESTAMPTZ(3),
    "status_before_pause" "SubscriptionStatus",
    "discount" JSONB,
    "discount_start" TIMESTAMPTZ(3),
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "test_clock_id" TEXT,
    "clock_synced_to" TIMESTAMPTZ(3),
    "workflow_attached_at" TIMESTAMPTZ(3),
    "workflow_ended_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "subscriptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "subscription_items" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "subscription_id" TEXT NOT NULL,
    "price_id" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL DEFAULT 1,
    "credit_rollover" BOOLEAN NOT NULL DEFAULT false,
    "included_units" BIGINT,
    "rolled_over_units" BIGINT NOT NULL DEFAULT 0,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "deleted_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "subscription_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "subscription_commands" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "subscription_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "subscription_commands_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "invoice_bank_claims" (
    "merchant_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "invoice_id" TEXT NOT NULL,
    "claim_id" TEXT NOT NULL,
    "bank_reference" TEXT NOT NULL,
    "due_date" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "invoice_bank_claims_pkey" PRIMARY KEY ("merchant_id","mode","invoice_id")
);

-- CreateIndex
CREATE INDEX "test_clocks_merchant_id_mode_created_at_id_idx" ON "test_clocks"("merchant_id", "mode", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "test_clocks_merchant_id_mode_id_key" ON "test_clocks"("merchant_id", "mode", "id");

-- CreateIndex
CREATE INDEX "test_clock_customers_merchant_id_mode_test_clock_id_idx" ON "test_clock_customers"("merchant_id", "mode", "test_clock_id");

-- CreateIndex
CREATE INDEX "subscriptions_merchant_id_mode_created_at_id_idx" ON "subscriptions"("merchant_id", "mode", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "subscriptions_merchant_id_mode_customer_id_created_at_id_idx" ON "subscriptions"("merchant_id", "mode", "customer_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "subscriptions_merchant_id_mode_status_created_at_id_idx" ON "subscriptions"("merchant_id", "mode", "status", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "subscriptions_merchant_id_mode_test_clock_id_idx" ON "subscriptions"("merchant_id", "mode", "test_clock_id");

-- CreateIndex
CREATE INDEX "subscriptions_workflow_attached_at_created_at_idx" ON "subscriptions"("workflow_attached_at", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "subscriptions_merchant_id_mode_id_key" ON "subscriptions"("merchant_id", "mode", "id");

-- CreateIndex
CREATE INDEX "subscription_items_merchant_id_mode_subscription_id_created_idx" ON "subscription_items"("merchant_id", "mode", "subscription_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "subscription_items_merchant_id_mode_id_key" ON "subscription_items"("merchant_id", "mode", "id");

-- CreateIndex
CREATE INDEX "subscription_commands_merchant_id_mode_subscription_id_idx" ON "subscription_commands"("merchant_id", "mode", "subscription_id");

-- AddForeignKey
ALTER TABLE "test_clock_customers" ADD CONSTRAINT "test_clock_customers_merchant_id_mode_test_clock_id_fkey" FOREIGN KEY ("merchant_id", "mode", "test_clock_id") REFERENCES "test_clocks"("merchant_id", "mode", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_merchant_id_mode_test_clock_id_fkey" FOREIGN KEY ("merchant_id", "mode", "test_clock_id") REFERENCES "test_clocks"("merchant_id", "mode", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscription_items" ADD CONSTRAINT "subscription_items_merchant_id_mode_subscription_id_fkey" FOREIGN KEY ("merchant_id", "mode", "subscription_id") REFERENCES "subscriptions"("merchant_id", "mode", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscription_commands" ADD CONSTRAINT "subscription_commands_merchant_id_mode_subscription_id_fkey" FOREIGN KEY ("merchant_id", "mode", "subscription_id") REFERENCES "subscriptions"("merchant_id", "mode", "id") ON DELETE CASCADE ON UPDATE CASCADE;

