-- This migration created meter_consume_batch, the first group-commit function for metering. Its rule now
-- lives in app/server/db/functions/ledger.sql (ledger_apply), applied after every versioned migration,
-- and 0004 drops the old function where this migration already ran. A fresh database has nothing to do
-- here, so the old copy of the rule is not kept twice in the tree.
SELECT 1;
