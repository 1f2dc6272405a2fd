-- Hand-written (docs/ledger.md). The balance check of ledger_entries_balanced summed ALL the
-- entries of every posting the statement touched, looked up by posting_id in ledger_entries.
-- Its plan is cached per connection, and a plan made while the table was small (a new database,
-- stale statistics) walked a (merchant_id, mode, …) index filtering on posting_id: the cost of
-- every posting grew with the size of the merchant's ledger (the renewal benchmark found it).
--
-- The check now sums only the statement's new rows per posting, which is the same rule: entries
-- are append-only (UPDATE and DELETE are refused) and every earlier statement's rows balanced
-- per posting when they were written, so all of a posting's entries balance exactly when the new
-- ones do. It reads no table, so no plan can make it slow.
CREATE OR REPLACE FUNCTION ledger_entries_check() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  bad TEXT;
BEGIN
  SELECT id INTO bad FROM new_entries
   WHERE debit < 0 OR credit < 0 OR (debit = 0) = (credit = 0)
   LIMIT 1;
  IF bad IS NOT NULL THEN
    RAISE EXCEPTION 'ledger entry % must have exactly one positive side', bad USING ERRCODE = 'check_violation';
  END IF;
  SELECT posting_id INTO bad FROM new_entries
   GROUP BY posting_id
  HAVING SUM(debit) <> SUM(credit)
   LIMIT 1;
  IF bad IS NOT NULL THEN
    RAISE EXCEPTION 'ledger posting % does not balance', bad USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END $$;
