-- AlterTable
ALTER TABLE "idempotency_keys" ADD COLUMN     "update_attempt" INTEGER NOT NULL DEFAULT 0;

