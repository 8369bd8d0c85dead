-- Consumption now goes through ledger_apply (app/server/db/functions/ledger.sql), like every other
-- balance change, so the batch function of 0003 has no caller left.
DROP FUNCTION IF EXISTS meter_consume_batch(jsonb, text, text, text, text);
