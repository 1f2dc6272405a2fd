-- AlterTable
ALTER TABLE "invoices" ADD COLUMN     "last_payment_error_at" TIMESTAMPTZ(3),
ADD COLUMN     "last_payment_error_code" TEXT,
ADD COLUMN     "last_payment_error_message" TEXT;

-- CreateIndex
CREATE INDEX "invoices_merchant_id_mode_payment_id_idx" ON "invoices"("merchant_id", "mode", "payment_id");

