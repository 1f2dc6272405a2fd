-- CreateEnum
CREATE TYPE "SimWallet" AS ENUM ('apple_pay', 'google_pay');

-- CreateEnum
CREATE TYPE "SimChargeStatus" AS ENUM ('succeeded', 'declined');

-- CreateEnum
CREATE TYPE "SimRefundStatus" AS ENUM ('succeeded', 'failed');

-- CreateEnum
CREATE TYPE "SimBankClaimStatus" AS ENUM ('open', 'paid', 'cancelled');

-- CreateTable
CREATE TABLE "sim_card_tokens" (
    "token" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "number" TEXT NOT NULL,
    "brand" TEXT NOT NULL,
    "last4" TEXT NOT NULL,
    "exp_month" INTEGER NOT NULL,
    "exp_year" INTEGER NOT NULL,
    "holder_name" TEXT,
    "wallet" "SimWallet",
    "behaviour" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sim_card_tokens_pkey" PRIMARY KEY ("token")
);

-- CreateTable
CREATE TABLE "sim_charges" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "token" TEXT,
    "number" TEXT NOT NULL,
    "brand" TEXT NOT NULL,
    "last4" TEXT NOT NULL,
    "wallet" "SimWallet",
    "amount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "status" "SimChargeStatus" NOT NULL,
    "decline_code" TEXT,
    "decline_message" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sim_charges_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sim_refunds" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "charge_id" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "status" "SimRefundStatus" NOT NULL,
    "failure_code" TEXT,
    "failure_message" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sim_refunds_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sim_charge_faults" (
    "merchant_id" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sim_charge_faults_pkey" PRIMARY KEY ("merchant_id","idempotency_key")
);

-- CreateTable
CREATE TABLE "sim_bank_claims" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "kennitala" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "due_date" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3),
    "reference" TEXT NOT NULL,
    "bank_reference" TEXT NOT NULL,
    "status" "SimBankClaimStatus" NOT NULL DEFAULT 'open',
    "paid_at" TIMESTAMPTZ(3),
    "paid_amount" BIGINT,
    "cancelled_at" TIMESTAMPTZ(3),
    "cancel_idempotency_key" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sim_bank_claims_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "sim_card_tokens_merchant_id_idempotency_key_key" ON "sim_card_tokens"("merchant_id", "idempotency_key");

-- CreateIndex
CREATE INDEX "sim_charges_merchant_id_created_at_idx" ON "sim_charges"("merchant_id", "created_at");

-- CreateIndex
CREATE INDEX "sim_charges_token_idx" ON "sim_charges"("token");

-- CreateIndex
CREATE UNIQUE INDEX "sim_charges_merchant_id_idempotency_key_key" ON "sim_charges"("merchant_id", "idempotency_key");

-- CreateIndex
CREATE INDEX "sim_refunds_charge_id_idx" ON "sim_refunds"("charge_id");

-- CreateIndex
CREATE UNIQUE INDEX "sim_refunds_merchant_id_idempotency_key_key" ON "sim_refunds"("merchant_id", "idempotency_key");

-- CreateIndex
CREATE INDEX "sim_bank_claims_merchant_id_created_at_idx" ON "sim_bank_claims"("merchant_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "sim_bank_claims_merchant_id_idempotency_key_key" ON "sim_bank_claims"("merchant_id", "idempotency_key");

-- AddForeignKey
ALTER TABLE "sim_charges" ADD CONSTRAINT "sim_charges_token_fkey" FOREIGN KEY ("token") REFERENCES "sim_card_tokens"("token") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sim_refunds" ADD CONSTRAINT "sim_refunds_charge_id_fkey" FOREIGN KEY ("charge_id") REFERENCES "sim_charges"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

