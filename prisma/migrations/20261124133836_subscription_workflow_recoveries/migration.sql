-- CreateTable
CREATE TABLE "subscription_workflow_recoveries" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "subscription_id" TEXT NOT NULL,
    "closed_run_id" TEXT NOT NULL,
    "closed_status" TEXT NOT NULL,
    "closed_at" TIMESTAMPTZ(3),
    "action" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "subscription_workflow_recoveries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "subscription_workflow_recoveries_subscription_id_created_at_idx" ON "subscription_workflow_recoveries"("subscription_id", "created_at");

-- CreateIndex
CREATE INDEX "subscription_workflow_recoveries_created_at_idx" ON "subscription_workflow_recoveries"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "subscription_workflow_recoveries_subscription_id_closed_run_key" ON "subscription_workflow_recoveries"("subscription_id", "closed_run_id");

