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

