-- AlterTable
ALTER TABLE "subscriptions" ADD COLUMN     "trial_will_end_notified_for" TIMESTAMPTZ(3);

