-- AlterTable
ALTER TABLE "webhook_events" ADD COLUMN     "recorded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- Events recorded before this migration were dated when recorded.
UPDATE "webhook_events" SET "recorded_at" = "created_at";

-- CreateIndex
CREATE INDEX "webhook_events_dispatched_at_recorded_at_idx" ON "webhook_events"("dispatched_at", "recorded_at");

