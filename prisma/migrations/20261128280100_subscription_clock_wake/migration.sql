-- Test clocks: the clock time from which a subscription has something due. An advance wakes only
-- the subscriptions due by the new time (or whose wake time is unknown: null) (issue 28).

-- AlterTable
ALTER TABLE "subscriptions" ADD COLUMN     "clock_wake_at" TIMESTAMPTZ(3);

