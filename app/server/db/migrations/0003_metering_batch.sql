-- Group commit for metering: a whole batch of usage debits in ONE transaction, so one WAL flush makes
-- them all durable. Items are visited by key id (the lock order transfers use, so a batch never
-- deadlocks with a transfer or another batch) and, per key, in arrival order. Each key row is locked
-- once and its balance written once per batch, however many items it has; a hot key costs one
-- ledger INSERT per debit. No EXCEPTION blocks (no subtransactions): the idempotency race with another
-- transaction is settled by ON CONFLICT DO NOTHING, item by item, without aborting the batch.
-- Outcomes: applied, duplicate, conflict (event recorded for another key), not_found, revoked,
-- insufficient, invalid.
CREATE FUNCTION meter_consume_batch(items jsonb, subject_format text, body_format text, brand text, alerts_url text)
RETURNS TABLE (item int, outcome text, entry_id bigint, new_balance bigint, alerts int)
LANGUAGE plpgsql AS $$
DECLARE
	it record;
	cur uuid;
	key_found boolean := false;
	revoked boolean;
	bal bigint;
	start_bal bigint;
	pfx text;
	l4 text;
	armed_max bigint;
	disarmed_min bigint;
	eid bigint;
	ref_key uuid;
BEGIN
	FOR it IN SELECT * FROM jsonb_to_recordset(items) AS t(i int, k uuid, n bigint, r text, p text, m text) ORDER BY t.k, t.i LOOP
		IF cur IS DISTINCT FROM it.k THEN
			IF bal IS DISTINCT FROM start_bal THEN
				UPDATE api_keys SET balance = bal WHERE id = cur;
			END IF;
			cur := it.k;
			SELECT a.balance, a.revoked_at IS NOT NULL, a.prefix, a.last4,
				(SELECT max(b.threshold) FROM balance_notifications b WHERE b.key_id = a.id AND b.armed),
				(SELECT min(b.threshold) FROM balance_notifications b WHERE b.key_id = a.id AND NOT b.armed)
			INTO bal, revoked, pfx, l4, armed_max, disarmed_min
			FROM api_keys a WHERE a.id = cur FOR UPDATE OF a;
			key_found := FOUND;
			start_bal := bal;
		END IF;

		item := it.i;
		outcome := NULL;
		entry_id := NULL;
		alerts := 0;
		eid := NULL;
		IF key_found AND NOT revoked AND it.n > 0 AND bal >= it.n THEN
			INSERT INTO ledger_entries (key_id, type, amount, balance_after, external_ref, product, model)
			VALUES (cur, 'consume', -it.n, bal - it.n, it.r, it.p, it.m)
			ON CONFLICT (external_ref) DO NOTHING
			RETURNING id INTO eid;
		END IF;

		IF eid IS NOT NULL THEN
			bal := bal - it.n;
			outcome := 'applied';
			entry_id := eid;
			-- Same rule as applyEntry: disarm (and mail) thresholds now above the balance, re-arm those at or below it.
			IF armed_max > bal OR disarmed_min <= bal THEN
				WITH flipped AS (
					UPDATE balance_notifications b SET armed = NOT b.armed,
						last_fired_at = CASE WHEN b.armed THEN now() ELSE b.last_fired_at END
					WHERE b.key_id = cur AND b.armed = (b.threshold > bal)
					RETURNING b.threshold, b.email, b.armed
				)
				INSERT INTO email_outbox ("to", subject, text, kind, meta)
				SELECT f.email,
					format(subject_format, brand, to_char(f.threshold, 'FM999,999,999,999,990')),
					format(body_format, pfx, l4, to_char(bal, 'FM999,999,999,999,990'), to_char(f.threshold, 'FM999,999,999,999,990'), alerts_url),
					'balance_alert', jsonb_build_object('key_id', cur, 'threshold', f.threshold, 'balance', bal)
				FROM flipped f WHERE NOT f.armed;
				GET DIAGNOSTICS alerts = ROW_COUNT;
				SELECT max(b.threshold) FILTER (WHERE b.armed), min(b.threshold) FILTER (WHERE NOT b.armed)
				INTO armed_max, disarmed_min
				FROM balance_notifications b WHERE b.key_id = cur;
			END IF;
		ELSE
			SELECT e.key_id, e.id INTO ref_key, eid FROM ledger_entries e WHERE e.external_ref = it.r;
			IF FOUND THEN
				outcome := CASE WHEN ref_key = it.k THEN 'duplicate' ELSE 'conflict' END;
				entry_id := eid;
			ELSE
				outcome := CASE WHEN NOT key_found THEN 'not_found' WHEN revoked THEN 'revoked'
					WHEN it.n IS NULL OR it.n <= 0 THEN 'invalid' ELSE 'insufficient' END;
			END IF;
		END IF;
		new_balance := bal;
		RETURN NEXT;
	END LOOP;
	IF bal IS DISTINCT FROM start_bal THEN
		UPDATE api_keys SET balance = bal WHERE id = cur;
	END IF;
END
$$;
