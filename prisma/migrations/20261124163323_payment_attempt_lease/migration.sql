-- AlterTable
ALTER TABLE "payments" ADD COLUMN     "attempt_held_until" TIMESTAMPTZ(3);

