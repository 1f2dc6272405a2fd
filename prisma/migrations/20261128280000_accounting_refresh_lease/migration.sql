-- AlterTable
ALTER TABLE "accounting_links" ADD COLUMN     "refresh_lease_until" TIMESTAMPTZ(3);

