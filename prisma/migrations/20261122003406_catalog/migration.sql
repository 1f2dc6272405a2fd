-- CreateEnum
CREATE TYPE "PriceType" AS ENUM ('one_time', 'recurring');

-- CreateEnum
CREATE TYPE "PriceInterval" AS ENUM ('day', 'week', 'month', 'year');

-- CreateEnum
CREATE TYPE "PriceUsageType" AS ENUM ('licensed', 'metered');

-- CreateEnum
CREATE TYPE "PriceAggregateUsage" AS ENUM ('sum', 'max', 'last_during_period');

-- CreateEnum
CREATE TYPE "PriceTiersMode" AS ENUM ('graduated', 'volume');

-- CreateEnum
CREATE TYPE "MeterAggregateType" AS ENUM ('count', 'sum', 'max', 'min', 'avg', 'unique');

-- CreateTable
CREATE TABLE "customers" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT,
    "phone" TEXT,
    "kennitala" TEXT,
    "external_id" TEXT,
    "vat_number" TEXT,
    "currency" TEXT,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "billing_address_line1" TEXT,
    "billing_address_line2" TEXT,
    "billing_city" TEXT,
    "billing_postal_code" TEXT,
    "billing_country" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "customers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "products" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "products_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "prices" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "product_id" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "type" "PriceType" NOT NULL,
    "unit_amount" BIGINT,
    "recurring_interval" "PriceInterval",
    "recurring_interval_count" INTEGER,
    "recurring_usage_type" "PriceUsageType",
    "recurring_aggregate_usage" "PriceAggregateUsage",
    "tiers_mode" "PriceTiersMode",
    "tiers" JSONB,
    "meter_id" TEXT,
    "included_units" BIGINT,
    "accounting_code" TEXT,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "prices_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "meters" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "name" TEXT NOT NULL,
    "event_name" TEXT NOT NULL,
    "aggregate_type" "MeterAggregateType" NOT NULL,
    "aggregate_property" TEXT,
    "filter" JSONB NOT NULL DEFAULT '{}',
    "unit_label" TEXT,
    "unit_multiplier" INTEGER NOT NULL DEFAULT 1,
    "archived_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "meters_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "usage_events" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "customer_id" TEXT NOT NULL,
    "event_name" TEXT NOT NULL,
    "idempotency_key" TEXT,
    "timestamp" TIMESTAMPTZ(3) NOT NULL,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "usage_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "customers_merchant_id_mode_created_at_id_idx" ON "customers"("merchant_id", "mode", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "customers_merchant_id_mode_id_key" ON "customers"("merchant_id", "mode", "id");

-- CreateIndex
CREATE UNIQUE INDEX "customers_merchant_id_mode_external_id_key" ON "customers"("merchant_id", "mode", "external_id");

-- CreateIndex
CREATE INDEX "products_merchant_id_mode_created_at_id_idx" ON "products"("merchant_id", "mode", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "products_merchant_id_mode_id_key" ON "products"("merchant_id", "mode", "id");

-- CreateIndex
CREATE INDEX "prices_merchant_id_mode_created_at_id_idx" ON "prices"("merchant_id", "mode", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "prices_merchant_id_mode_product_id_created_at_id_idx" ON "prices"("merchant_id", "mode", "product_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "prices_merchant_id_mode_meter_id_idx" ON "prices"("merchant_id", "mode", "meter_id");

-- CreateIndex
CREATE UNIQUE INDEX "prices_merchant_id_mode_id_key" ON "prices"("merchant_id", "mode", "id");

-- CreateIndex
CREATE INDEX "meters_merchant_id_mode_created_at_id_idx" ON "meters"("merchant_id", "mode", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "meters_merchant_id_mode_event_name_idx" ON "meters"("merchant_id", "mode", "event_name");

-- CreateIndex
CREATE UNIQUE INDEX "meters_merchant_id_mode_id_key" ON "meters"("merchant_id", "mode", "id");

-- CreateIndex
CREATE INDEX "usage_events_merchant_id_mode_customer_id_event_name_timest_idx" ON "usage_events"("merchant_id", "mode", "customer_id", "event_name", "timestamp");

-- CreateIndex
CREATE INDEX "usage_events_merchant_id_mode_timestamp_id_idx" ON "usage_events"("merchant_id", "mode", "timestamp" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "usage_events_merchant_id_mode_idempotency_key_key" ON "usage_events"("merchant_id", "mode", "idempotency_key");

-- AddForeignKey
ALTER TABLE "prices" ADD CONSTRAINT "prices_merchant_id_mode_product_id_fkey" FOREIGN KEY ("merchant_id", "mode", "product_id") REFERENCES "products"("merchant_id", "mode", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "prices" ADD CONSTRAINT "prices_merchant_id_mode_meter_id_fkey" FOREIGN KEY ("merchant_id", "mode", "meter_id") REFERENCES "meters"("merchant_id", "mode", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "usage_events" ADD CONSTRAINT "usage_events_merchant_id_mode_customer_id_fkey" FOREIGN KEY ("merchant_id", "mode", "customer_id") REFERENCES "customers"("merchant_id", "mode", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

