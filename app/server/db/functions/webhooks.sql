-- balance.low, in the transaction that crossed the threshold. The balance alert is decided in the ledger's own
-- SQL (ledger_settle_alerts, under the key row's lock), which queues its mail into email_outbox; a trigger on
-- that row writes the webhook event beside it, so neither the ledger functions nor their callers change, and
-- an instance of the previous release crossing a threshold emits the event too. The event carries the key;
-- its owner, and so the endpoints it goes to, is resolved when it is fanned out (domain/webhook-owner.ts).
--
-- Repeatable (app/server/db/migrate.ts): applied again whenever this text changes, so every statement is safe
-- to run twice.
CREATE OR REPLACE FUNCTION webhook_event_of_balance_alert()
RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO webhook_events (type, key_id, data)
	VALUES ('balance.low', (NEW.meta->>'key_id')::uuid, jsonb_build_object(
		'key_id', NEW.meta->>'key_id',
		'threshold', (NEW.meta->>'threshold')::bigint,
		'balance', (NEW.meta->>'balance')::bigint));
	RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS email_outbox_balance_low_webhook ON email_outbox;
--> statement-breakpoint
CREATE TRIGGER email_outbox_balance_low_webhook
	AFTER INSERT ON email_outbox
	FOR EACH ROW WHEN (NEW.kind = 'balance_alert' AND NEW.meta ? 'key_id')
	EXECUTE FUNCTION webhook_event_of_balance_alert();
