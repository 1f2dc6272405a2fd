-- OAuth token refresh: one refresher at a time by a lease on the link row (set and cleared in
-- short transactions around the provider call), instead of a row lock held across it (issue 28).

-- AlterTable
ALTER TABLE "accounting_links" ADD COLUMN     "refresh_lease_until" TIMESTAMPTZ(3);

