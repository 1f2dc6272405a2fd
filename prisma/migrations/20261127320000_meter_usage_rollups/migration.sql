-- CreateTable
CREATE TABLE "meter_usage_hourly" (
    "merchant_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "meter_id" TEXT NOT NULL,
    "customer_id" TEXT NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "n" BIGINT NOT NULL,
    "nv" BIGINT NOT NULL,
    "sum" DECIMAL,
    "min" DECIMAL,
    "max" DECIMAL,

    CONSTRAINT "meter_usage_hourly_pkey" PRIMARY KEY ("merchant_id","mode","meter_id","customer_id","hour")
);

-- CreateTable
CREATE TABLE "meter_usage_values" (
    "merchant_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "meter_id" TEXT NOT NULL,
    "customer_id" TEXT NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "value" TEXT NOT NULL,

    CONSTRAINT "meter_usage_values_pkey" PRIMARY KEY ("merchant_id","mode","meter_id","customer_id","hour","value")
);


-- Hand-written: the rollups of the meters that already exist, from the events already stored
-- (an archived meter's only from events received no later than its archived_at), with the
-- same expressions as src/metering/rollups.ts (NUMERIC_TEXT guard, `unique` value text).
INSERT INTO "meter_usage_hourly" ("merchant_id", "mode", "meter_id", "customer_id", "hour", "n", "nv", "sum", "min", "max")
SELECT m."merchant_id", m."mode", m."id", e."customer_id", date_trunc('hour', e."timestamp", 'UTC'),
       count(*), count(x.v), sum(x.v), min(x.v), max(x.v)
  FROM "meters" m
  JOIN "usage_events" e ON e."merchant_id" = m."merchant_id" AND e."mode" = m."mode" AND e."event_name" = m."event_name"
   AND e."metadata" @> m."filter" AND (m."archived_at" IS NULL OR e."received_at" <= m."archived_at")
  CROSS JOIN LATERAL (SELECT CASE WHEN e."metadata"->>m."aggregate_property" ~ '^-?[0-9]{1,30}([.][0-9]{1,30})?$'
                                  THEN (e."metadata"->>m."aggregate_property")::numeric END AS v) x
 GROUP BY 1, 2, 3, 4, 5;

INSERT INTO "meter_usage_values" ("merchant_id", "mode", "meter_id", "customer_id", "hour", "value")
SELECT DISTINCT m."merchant_id", m."mode", m."id", e."customer_id", date_trunc('hour', e."timestamp", 'UTC'), e."metadata"->>m."aggregate_property"
  FROM "meters" m
  JOIN "usage_events" e ON e."merchant_id" = m."merchant_id" AND e."mode" = m."mode" AND e."event_name" = m."event_name"
   AND e."metadata" @> m."filter" AND (m."archived_at" IS NULL OR e."received_at" <= m."archived_at")
 WHERE m."aggregate_type" = 'unique' AND jsonb_typeof(e."metadata"->m."aggregate_property") IN ('string', 'number', 'boolean');
