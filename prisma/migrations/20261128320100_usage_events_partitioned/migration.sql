-- Issue 32: usage_events partitioned by month of "timestamp" (docs/metering.md "Partitioning by
-- time"). A partitioned table's unique indexes must contain the partition key, so the
-- idempotency index moves to its own table, usage_event_keys (filled here from the events'
-- keys), and the primary key becomes (id, "timestamp").
--
-- The existing table is not copied: it is renamed usage_events_legacy and attached as the
-- partition FROM (MINVALUE) TO (the end of the current month), so the
-- migration costs one scan (ATTACH checks the range) and index builds, not a rewrite. Monthly
-- partitions follow it up to 4 months ahead, and a DEFAULT partition takes an event no monthly
-- partition covers (a far backfill below MINVALUE cannot happen; a test clock's far future can);
-- the maintenance schedule creates the next months and moves such rows out of the default one
-- (src/domain/usage-events/partitions.ts).

-- CreateTable
CREATE TABLE "usage_event_keys" (
    "merchant_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "timestamp" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "usage_event_keys_pkey" PRIMARY KEY ("merchant_id","mode","idempotency_key")
);

-- CreateIndex
CREATE INDEX "usage_event_keys_timestamp_idx" ON "usage_event_keys"("timestamp");

-- CreateTable
CREATE TABLE "usage_event_retention" (
    "id" INTEGER NOT NULL,
    "raw_from" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "usage_event_retention_pkey" PRIMARY KEY ("id")
);

INSERT INTO "usage_event_keys" ("merchant_id", "mode", "idempotency_key", "event_id", "timestamp")
SELECT "merchant_id", "mode", "idempotency_key", "id", "timestamp" FROM "usage_events" WHERE "idempotency_key" IS NOT NULL;

-- The current table becomes the first partition.
ALTER TABLE "usage_events" RENAME TO "usage_events_legacy";
ALTER TABLE "usage_events_legacy" DROP CONSTRAINT "usage_events_pkey";
DROP INDEX "usage_events_merchant_id_mode_idempotency_key_key";
ALTER INDEX "usage_events_merchant_id_mode_customer_id_event_name_timest_idx" RENAME TO "usage_events_legacy_customer_event_idx";
ALTER INDEX "usage_events_merchant_id_mode_timestamp_id_idx" RENAME TO "usage_events_legacy_timestamp_idx";
ALTER TABLE "usage_events_legacy" RENAME CONSTRAINT "usage_events_merchant_id_mode_customer_id_fkey" TO "usage_events_legacy_customer_fkey";
ALTER TABLE "usage_events_legacy" ADD CONSTRAINT "usage_events_legacy_pkey" PRIMARY KEY ("id", "timestamp");

-- CreateTable (partitioned by hand: Prisma's schema cannot say PARTITION BY)
CREATE TABLE "usage_events" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "customer_id" TEXT NOT NULL,
    "event_name" TEXT NOT NULL,
    "idempotency_key" TEXT,
    "timestamp" TIMESTAMPTZ(3) NOT NULL,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "usage_events_pkey" PRIMARY KEY ("id","timestamp")
) PARTITION BY RANGE ("timestamp");

-- CreateIndex
CREATE INDEX "usage_events_merchant_id_mode_customer_id_event_name_timest_idx" ON "usage_events"("merchant_id", "mode", "customer_id", "event_name", "timestamp");

-- CreateIndex
CREATE INDEX "usage_events_merchant_id_mode_timestamp_id_idx" ON "usage_events"("merchant_id", "mode", "timestamp" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "usage_events" ADD CONSTRAINT "usage_events_merchant_id_mode_customer_id_fkey" FOREIGN KEY ("merchant_id", "mode", "customer_id") REFERENCES "customers"("merchant_id", "mode", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The old table covers everything up to the end of the current month (on an empty table: up to
-- the current month, which then gets a monthly partition like the months after it). Events
-- after that (a test clock's future) are moved out first and re-inserted through the parent,
-- so they land in their monthly partition or the default one.
DO $$
DECLARE
  bound timestamptz;
  m timestamptz;
  later bigint;
BEGIN
  SELECT CASE WHEN count(*) = 0 THEN date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
              ELSE date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' + interval '1 month' END
    INTO bound FROM "usage_events_legacy";
  CREATE TEMP TABLE "usage_events_later" ON COMMIT DROP AS
    WITH moved AS (DELETE FROM "usage_events_legacy" WHERE "timestamp" >= bound RETURNING *) SELECT * FROM moved;
  EXECUTE format('ALTER TABLE "usage_events" ATTACH PARTITION "usage_events_legacy" FOR VALUES FROM (MINVALUE) TO (%L)', bound);
  m := bound;
  WHILE m < date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' + interval '5 months' LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF "usage_events" FOR VALUES FROM (%L) TO (%L)',
                   'usage_events_p' || to_char(m AT TIME ZONE 'UTC', 'YYYYMM'), m, m + interval '1 month');
    m := m + interval '1 month';
  END LOOP;
  CREATE TABLE "usage_events_default" PARTITION OF "usage_events" DEFAULT;
  INSERT INTO "usage_events" SELECT * FROM "usage_events_later";
END $$;
