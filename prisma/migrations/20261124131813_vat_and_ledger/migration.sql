-- AlterTable
ALTER TABLE "products" ADD COLUMN     "vat_rate" TEXT;

-- AlterTable
ALTER TABLE "prices" ADD COLUMN     "vat_rate" TEXT;

-- AlterTable
ALTER TABLE "invoices" ADD COLUMN     "prices_include_vat" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "vat_amount" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "vat_breakdown" JSONB NOT NULL DEFAULT '[]';

-- AlterTable
ALTER TABLE "invoice_lines" ADD COLUMN     "ledger_account" TEXT,
ADD COLUMN     "vat_amount" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "vat_basis_points" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "vat_rate" TEXT;

-- AlterTable
ALTER TABLE "invoice_items" ADD COLUMN     "vat_rate" TEXT;

-- AlterTable
ALTER TABLE "credit_notes" ADD COLUMN     "vat_amount" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "vat_breakdown" JSONB NOT NULL DEFAULT '[]';

-- CreateTable
CREATE TABLE "vat_settings" (
    "merchant_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "country" TEXT NOT NULL DEFAULT 'IS',
    "default_vat_rate" TEXT NOT NULL DEFAULT 'standard',
    "prices_include_vat" BOOLEAN NOT NULL DEFAULT true,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "vat_settings_pkey" PRIMARY KEY ("merchant_id","mode")
);

-- CreateTable
CREATE TABLE "ledger_postings" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "kind" TEXT NOT NULL,
    "source_key" TEXT NOT NULL,
    "invoice_id" TEXT,
    "customer_id" TEXT,
    "payment_id" TEXT,
    "credit_note_id" TEXT,
    "refund_id" TEXT,
    "currency" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "method" TEXT,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_postings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ledger_entries" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "posting_id" TEXT NOT NULL,
    "account" TEXT NOT NULL,
    "debit" BIGINT NOT NULL DEFAULT 0,
    "credit" BIGINT NOT NULL DEFAULT 0,
    "currency" TEXT NOT NULL,
    "invoice_id" TEXT,
    "customer_id" TEXT,
    "vat_rate" TEXT,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_entries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ledger_postings_merchant_id_mode_seq_idx" ON "ledger_postings"("merchant_id", "mode", "seq");

-- CreateIndex
CREATE INDEX "ledger_postings_merchant_id_mode_invoice_id_idx" ON "ledger_postings"("merchant_id", "mode", "invoice_id");

-- CreateIndex
CREATE UNIQUE INDEX "ledger_postings_merchant_id_mode_id_key" ON "ledger_postings"("merchant_id", "mode", "id");

-- CreateIndex
CREATE UNIQUE INDEX "ledger_postings_merchant_id_mode_source_key_key" ON "ledger_postings"("merchant_id", "mode", "source_key");

-- CreateIndex
CREATE INDEX "ledger_entries_merchant_id_mode_created_at_id_idx" ON "ledger_entries"("merchant_id", "mode", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "ledger_entries_merchant_id_mode_posting_id_idx" ON "ledger_entries"("merchant_id", "mode", "posting_id");

-- CreateIndex
CREATE INDEX "ledger_entries_merchant_id_mode_invoice_id_idx" ON "ledger_entries"("merchant_id", "mode", "invoice_id");

-- CreateIndex
CREATE INDEX "ledger_entries_merchant_id_mode_customer_id_account_idx" ON "ledger_entries"("merchant_id", "mode", "customer_id", "account");

-- CreateIndex
CREATE INDEX "ledger_entries_merchant_id_mode_account_idx" ON "ledger_entries"("merchant_id", "mode", "account");

-- AddForeignKey
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_merchant_id_mode_posting_id_fkey" FOREIGN KEY ("merchant_id", "mode", "posting_id") REFERENCES "ledger_postings"("merchant_id", "mode", "id") ON DELETE RESTRICT ON UPDATE CASCADE;


-- Hand-written (docs/ledger.md): the ledger refuses what the posting function must never do.
-- 1. Every entry has exactly one positive side.
-- 2. After each INSERT statement, every posting it touched balances (Σ debit = Σ credit over
--    ALL of the posting's entries), so a posting must be written whole, in one statement.
-- 3. Entries and postings are append-only: UPDATE and DELETE are refused.
CREATE FUNCTION ledger_entries_check() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  bad TEXT;
BEGIN
  SELECT id INTO bad FROM new_entries
   WHERE debit < 0 OR credit < 0 OR (debit = 0) = (credit = 0)
   LIMIT 1;
  IF bad IS NOT NULL THEN
    RAISE EXCEPTION 'ledger entry % must have exactly one positive side', bad USING ERRCODE = 'check_violation';
  END IF;
  SELECT e.posting_id INTO bad FROM ledger_entries e
   WHERE e.posting_id IN (SELECT DISTINCT posting_id FROM new_entries)
   GROUP BY e.posting_id
  HAVING SUM(e.debit) <> SUM(e.credit)
   LIMIT 1;
  IF bad IS NOT NULL THEN
    RAISE EXCEPTION 'ledger posting % does not balance', bad USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER ledger_entries_balanced AFTER INSERT ON "ledger_entries"
  REFERENCING NEW TABLE AS new_entries FOR EACH STATEMENT EXECUTE FUNCTION ledger_entries_check();

CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the ledger is append-only: % on % refused', TG_OP, TG_TABLE_NAME USING ERRCODE = 'check_violation';
END $$;

CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON "ledger_entries"
  FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER ledger_postings_append_only BEFORE UPDATE OR DELETE ON "ledger_postings"
  FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
