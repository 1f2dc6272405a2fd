-- Issue 32: an hourly rollup may be spread over several slot rows (src/metering/rollups.ts,
-- ROLLUP_SLOTS), so concurrent ingest statements of one customer and hour do not queue on one
-- row; readers sum the slots. Existing rows become slot 0 (no rewrite of their values).
ALTER TABLE "meter_usage_hourly" ADD COLUMN "slot" SMALLINT NOT NULL DEFAULT 0;
ALTER TABLE "meter_usage_hourly" DROP CONSTRAINT "meter_usage_hourly_pkey";
ALTER TABLE "meter_usage_hourly" ADD CONSTRAINT "meter_usage_hourly_pkey" PRIMARY KEY ("merchant_id", "mode", "meter_id", "customer_id", "hour", "slot");
