-- The ledger rule, in one place. Every balance change (trial grant, purchase, consumption, transfer out
-- and in, refund, auto-recharge, adjustment) is a ledger entry applied by ledger_apply; a single entry
-- is a batch of one. The CHECK constraints on api_keys and ledger_entries stay as the last line of
-- defence; this file decides first, so a refused entry gets an outcome instead of an error.
--
-- Auto-recharge rule (invariant I6): while a key has auto-recharge on, a consumption that takes its
-- balance from at or above the threshold to below it inserts a pending attempt, in the same transaction;
-- the partial unique index on open attempts keeps it to one per key however many debits cross at once.
-- The app charges the attempt afterwards (app/server/api/billing/recharge-worker.ts) and credits only from
-- the payment's webhook. Only consumption crosses: a refund or a transfer must never buy tokens.
--
-- Alert rule (invariant I7): a threshold is armed exactly when the balance is at or above it. An entry
-- that takes the balance below an armed threshold disarms it and queues one alert mail; one that lifts
-- the balance back to a disarmed threshold re-arms it. ledger_settle_alerts is that rule; setting
-- thresholds (app/server/domain/notifications.ts) uses it too.
--
-- This is a repeatable migration: app/server/db/migrate.ts applies it after the versioned migrations,
-- in the same transaction, whenever its text changes. So every statement must be safe to run again.
-- CREATE OR REPLACE cannot change a function's parameters or result columns: when they change, put a
-- DROP FUNCTION IF EXISTS of the old signature before its CREATE.

-- Settles the thresholds of for_key, whose balance is now at_balance: disarms the armed ones above it
-- (queueing one mail each when notify) and re-arms the disarmed ones at or below it. Returns the number
-- of mails queued. The caller holds the key row's lock, which is what keeps thresholds and balance
-- consistent with each other.
-- alert: the mail text, {"subject": format(%s brand, %s threshold),
--   "body": format(%s prefix, %s last4, %s balance, %s threshold, %s link), "brand": …, "link": …}.
CREATE OR REPLACE FUNCTION ledger_settle_alerts(for_key uuid, at_balance bigint, notify boolean, alert jsonb)
RETURNS int
LANGUAGE plpgsql AS $$
DECLARE
	mailed int;
BEGIN
	WITH flipped AS (
		UPDATE balance_notifications n SET armed = NOT n.armed,
			-- Only a mail counts as firing; a silent disarm (notify off) leaves the last one recorded.
			last_fired_at = CASE WHEN n.armed AND notify THEN now() ELSE n.last_fired_at END
		WHERE n.key_id = for_key AND n.armed = (n.threshold > at_balance)
		RETURNING n.threshold, n.email, n.armed
	)
	INSERT INTO email_outbox ("to", subject, text, kind, meta)
	SELECT f.email,
		format(alert->>'subject', alert->>'brand', to_char(f.threshold, 'FM999,999,999,999,990')),
		format(alert->>'body', k.prefix, k.last4, to_char(at_balance, 'FM999,999,999,999,990'),
			to_char(f.threshold, 'FM999,999,999,999,990'), alert->>'link'),
		'balance_alert', jsonb_build_object('key_id', for_key, 'threshold', f.threshold, 'balance', at_balance)
	FROM flipped f JOIN api_keys k ON k.id = for_key
	WHERE notify AND NOT f.armed;
	GET DIAGNOSTICS mailed = ROW_COUNT;
	RETURN mailed;
END
$$;
--> statement-breakpoint
-- A function whose arguments or result columns change gets a new name (expand), and the name the previous
-- release calls stays until the release after (contract; README "Rolling deploys"): during a rolling deploy the
-- previous release's instances keep calling theirs, and one restarted then puts its own text back under its
-- name, which must not be this one's. ledger_apply (result without `cap`, before per-key controls) is the
-- previous release's; the next release drops it.
--
-- Applies a batch of entries in ONE transaction, so one WAL flush makes them all durable, and answers
-- each entry with its own outcome. entries is a JSON array of
--   {"key_id": uuid, "amount": tokens, signed (credits > 0, debits < 0), "type": a ledger entry type,
--    "external_ref": the event behind the entry, "product", "model", "counterparty_key_id": or null}
-- and item is an entry's position in it, from 0. alert is the mail text (see ledger_settle_alerts).
--
-- Outcomes: applied; duplicate (the event is already recorded for this key: its entry id and the
-- current balance, so a replay looks like the first answer); conflict (the event is recorded for
-- another key); not_found (no such key); revoked (a revoked key refuses every entry, credits too, but a
-- refund: tokens a key's owner revoked it with are still taken back when their purchase is refunded);
-- insufficient (a debit past the balance); invalid (no event, or an amount whose sign does not fit
-- the type, as the ledger_entries_type_sign CHECK would say, but without aborting the batch).
-- recharges is 1 when the entry opened an auto-recharge attempt (see the rule above).
--
-- Per-key controls (README "Per-key controls"), judged only for consumption, under the key row's lock so
-- that concurrent debits can never overshoot a cap: expired (the key's expires_at has passed);
-- out_of_scope (the entry's product or model is not in the key's allowed lists; the reader is judged by its
-- product alone); over_daily_cap and
-- over_monthly_cap (the consumption would take the key's spend in the UTC day or month past its cap,
-- answered in `cap`). The spend counters on the key row are consumption net of give-backs: a
-- `usage-reversal:` credit lowers the day's and month's counters when its debit fell in them.
--
-- Cost: entries are visited by key id, then by position. Key id order is the order transfers lock in,
-- so batches never deadlock with each other or with a transfer. Each key row is locked once and its
-- balance written once per batch, however many entries it has; a hot key costs one ledger INSERT per
-- entry. The largest armed and the smallest disarmed threshold of the key are cached, so an entry that
-- crosses neither never touches balance_notifications. No EXCEPTION blocks (each would start a
-- subtransaction): a race with another transaction recording the same event is settled by
-- ON CONFLICT DO NOTHING, entry by entry, without aborting the batch.
CREATE OR REPLACE FUNCTION ledger_apply_v2(entries jsonb, alert jsonb)
RETURNS TABLE (item int, outcome text, entry_id bigint, balance bigint, alerts int, recharges int, cap bigint)
LANGUAGE plpgsql AS $$
DECLARE
	today date := (now() AT TIME ZONE 'UTC')::date;
	this_month date := date_trunc('month', now() AT TIME ZONE 'UTC')::date;
	key_expired boolean;
	key_products text[];
	key_models text[];
	key_daily_cap bigint;
	key_monthly_cap bigint;
	key_spent_day bigint;
	key_spent_month bigint;
	stored_spent_day bigint;
	stored_spent_month bigint;
	refusal text;
	debited_on date;
	entry record;
	current_key uuid;
	key_found boolean := false;
	key_revoked boolean;
	key_balance bigint;
	stored_balance bigint;  -- what the key row holds; written back once, when its entries are done
	armed_max bigint;
	disarmed_min bigint;
	recharge_at bigint;
	well_formed boolean;
	new_entry bigint;
	recorded_key uuid;
	recorded_entry bigint;
BEGIN
	FOR entry IN
		SELECT e.* FROM ROWS FROM (jsonb_to_recordset(entries) AS (key_id uuid, amount bigint, type text,
			external_ref text, product text, model text, counterparty_key_id uuid))
			WITH ORDINALITY AS e (key_id, amount, type, external_ref, product, model, counterparty_key_id, ordinal)
		ORDER BY e.key_id, e.ordinal
	LOOP
		IF current_key IS DISTINCT FROM entry.key_id THEN
			IF key_balance IS DISTINCT FROM stored_balance OR key_spent_day IS DISTINCT FROM stored_spent_day
				OR key_spent_month IS DISTINCT FROM stored_spent_month THEN
				UPDATE api_keys SET balance = key_balance, spent_day = key_spent_day, spent_day_of = today,
					spent_month = key_spent_month, spent_month_of = this_month
				WHERE id = current_key;
			END IF;
			current_key := entry.key_id;
			SELECT a.balance, a.revoked_at IS NOT NULL,
				(SELECT max(n.threshold) FROM balance_notifications n WHERE n.key_id = a.id AND n.armed),
				(SELECT min(n.threshold) FROM balance_notifications n WHERE n.key_id = a.id AND NOT n.armed),
				a.auto_recharge_threshold, coalesce(a.expires_at <= now(), false), a.allowed_products, a.allowed_models,
				a.daily_cap, a.monthly_cap,
				CASE WHEN a.spent_day_of = today THEN a.spent_day ELSE 0 END,
				CASE WHEN a.spent_month_of = this_month THEN a.spent_month ELSE 0 END
			INTO key_balance, key_revoked, armed_max, disarmed_min, recharge_at, key_expired, key_products, key_models,
				key_daily_cap, key_monthly_cap, key_spent_day, key_spent_month
			FROM api_keys a WHERE a.id = current_key FOR UPDATE OF a;
			key_found := FOUND;
			stored_balance := key_balance;
			stored_spent_day := key_spent_day;
			stored_spent_month := key_spent_month;
		END IF;

		item := entry.ordinal - 1;
		outcome := NULL;
		entry_id := NULL;
		alerts := 0;
		recharges := 0;
		cap := NULL;
		new_entry := NULL;
		well_formed := coalesce(entry.external_ref IS NOT NULL AND CASE
			WHEN entry.type IN ('trial', 'purchase', 'transfer_in') THEN entry.amount > 0
			WHEN entry.type IN ('consume', 'transfer_out', 'refund') THEN entry.amount < 0
			WHEN entry.type = 'adjustment' THEN entry.amount <> 0
			ELSE false END, false);
		refusal := NULL;
		IF key_found AND entry.type = 'consume' AND well_formed THEN
			IF key_expired THEN
				refusal := 'expired';
			ELSIF NOT coalesce(entry.product = ANY(key_products), key_products IS NULL)
				-- The reader's model is the server's converter, not one a request chooses: its product alone governs it.
				OR (entry.product IS DISTINCT FROM 'reader' AND NOT coalesce(entry.model = ANY(key_models), key_models IS NULL)) THEN
				refusal := 'out_of_scope';
			ELSIF key_spent_day - entry.amount > key_daily_cap THEN
				refusal := 'over_daily_cap';
				cap := key_daily_cap;
			ELSIF key_spent_month - entry.amount > key_monthly_cap THEN
				refusal := 'over_monthly_cap';
				cap := key_monthly_cap;
			END IF;
		END IF;
		IF key_found AND (NOT key_revoked OR entry.type = 'refund') AND well_formed AND refusal IS NULL
			AND key_balance + entry.amount >= 0 THEN
			INSERT INTO ledger_entries (key_id, type, amount, balance_after, external_ref, product, model, counterparty_key_id)
			VALUES (current_key, entry.type, entry.amount, key_balance + entry.amount, entry.external_ref,
				entry.product, entry.model, entry.counterparty_key_id)
			ON CONFLICT (external_ref) DO NOTHING
			RETURNING id INTO new_entry;
		END IF;

		IF new_entry IS NOT NULL THEN
			key_balance := key_balance + entry.amount;
			outcome := 'applied';
			entry_id := new_entry;
			IF armed_max > key_balance OR disarmed_min <= key_balance THEN
				-- No mail for transfer_out or on a revoked key: the sender is revoked right after, so telling
				-- its holder the balance is low would only confuse.
				alerts := ledger_settle_alerts(current_key, key_balance, entry.type <> 'transfer_out' AND NOT key_revoked, alert);
				SELECT max(n.threshold) FILTER (WHERE n.armed), min(n.threshold) FILTER (WHERE NOT n.armed)
				INTO armed_max, disarmed_min
				FROM balance_notifications n WHERE n.key_id = current_key;
			END IF;
			IF entry.type = 'consume' THEN
				key_spent_day := key_spent_day - entry.amount;
				key_spent_month := key_spent_month - entry.amount;
			ELSIF entry.type = 'adjustment' AND entry.amount > 0 AND entry.external_ref LIKE 'usage-reversal:%' THEN
				SELECT (d.created_at AT TIME ZONE 'UTC')::date INTO debited_on
				FROM ledger_entries d WHERE d.external_ref = 'usage:' || substr(entry.external_ref, 16) AND d.key_id = current_key;
				IF debited_on = today THEN
					key_spent_day := greatest(0, key_spent_day - entry.amount);
				END IF;
				IF date_trunc('month', debited_on)::date = this_month THEN
					key_spent_month := greatest(0, key_spent_month - entry.amount);
				END IF;
			END IF;
			IF entry.type = 'consume' AND key_balance < recharge_at AND key_balance - entry.amount >= recharge_at THEN
				INSERT INTO auto_recharge_attempts (key_id) VALUES (current_key) ON CONFLICT DO NOTHING;
				GET DIAGNOSTICS recharges = ROW_COUNT;
			END IF;
		ELSE
			-- Not written: a replay of a recorded event, or a refusal.
			SELECT e.key_id, e.id INTO recorded_key, recorded_entry FROM ledger_entries e WHERE e.external_ref = entry.external_ref;
			IF FOUND THEN
				outcome := CASE WHEN recorded_key = entry.key_id THEN 'duplicate' ELSE 'conflict' END;
				entry_id := CASE WHEN recorded_key = entry.key_id THEN recorded_entry END;
			ELSE
				outcome := CASE WHEN NOT key_found THEN 'not_found' WHEN key_revoked AND entry.type <> 'refund' THEN 'revoked'
					WHEN NOT well_formed THEN 'invalid' WHEN refusal IS NOT NULL THEN refusal ELSE 'insufficient' END;
			END IF;
		END IF;
		balance := key_balance;
		RETURN NEXT;
	END LOOP;
	IF key_balance IS DISTINCT FROM stored_balance OR key_spent_day IS DISTINCT FROM stored_spent_day
		OR key_spent_month IS DISTINCT FROM stored_spent_month THEN
		UPDATE api_keys SET balance = key_balance, spent_day = key_spent_day, spent_day_of = today,
			spent_month = key_spent_month, spent_month_of = this_month
		WHERE id = current_key;
	END IF;
END
$$;
--> statement-breakpoint
-- ledger_apply_v3: ledger_apply_v2 with shared balances (README "Organisations"). A key whose
-- api_keys.balance_key_id is set (a key of an organisation with a shared balance) spends that row's balance
-- instead of its own: every entry of the key is recorded under the key (key_id: its history, its caps and
-- spend counters, its scopes, expiry and revocation stay the key's), names the balance it moved in
-- balance_key_id, and its balance_after is that balance. Alerts and the auto-recharge crossing are judged on
-- the balance row (the organisation's alerts and card); a balance is the sum of the entries naming it in
-- balance_key_id, or in key_id when that is null. Arguments and outcomes are v2's, with over_spend_limit
-- added; the result adds `spend_limit`.
--
-- Locks: entries are visited by balance row, then that row's own entries first, then by key id, then by
-- position; the balance row is locked before any key drawing on it, each row once per batch. So every batch
-- takes its locks in one global order (the project limits of its keys, then balance row id, then key id) and
-- batches never deadlock with each other;
-- a key's balance_key_id is fixed when the key is made, so the unlocked read that orders the batch is exact.
-- Transfers and other single-row writers never hold a key drawing on a shared balance while asking for its
-- balance row (transfers refuse such keys). Each balance row is written once per batch however many keys draw
-- on it, and each key row once (its spend counters) when they changed.
--
-- Spend limits (app/server/db/functions/spend-limits.sql), judged for consumption after the caps, only for a
-- key some limit governs, and only for an entry that would otherwise be applied (the balance covers it, the event
-- is new): over_spend_limit (the consumption would pass one of them, answered in `spend_limit`). Judging counts
-- it in every limit at once and may queue their alert mails (added to `alerts`); should the insert then find the
-- event recorded after all (a concurrent transaction recorded it), the count is taken back. A `usage-reversal:`
-- credit takes its tokens off the limits that counted its debit. The alert argument also carries the limit mails'
-- text and the list price (see spend_limits_take); a key's price per token is read once per batch.
CREATE OR REPLACE FUNCTION ledger_apply_v3(entries jsonb, alert jsonb)
RETURNS TABLE (item int, outcome text, entry_id bigint, balance bigint, alerts int, recharges int, cap bigint,
	spend_limit jsonb)
LANGUAGE plpgsql AS $$
DECLARE
	today date := (now() AT TIME ZONE 'UTC')::date;
	this_month date := date_trunc('month', now() AT TIME ZONE 'UTC')::date;
	key_expired boolean;
	key_products text[];
	key_models text[];
	key_daily_cap bigint;
	key_monthly_cap bigint;
	key_spent_day bigint;
	key_spent_month bigint;
	stored_spent_day bigint;
	stored_spent_month bigint;
	refusal text;
	debited_on date;
	debited_at timestamptz;
	key_limited boolean;
	key_usd_price numeric;
	taken jsonb;
	limit_mails int;
	entry record;
	current_key uuid;
	current_account uuid;   -- the row whose balance the current key moves (the key itself, or its balance row)
	key_found boolean := false;
	account_found boolean := false;
	key_revoked boolean;
	account_balance bigint;
	stored_balance bigint;  -- what the balance row holds; written back once, when its entries are done
	armed_max bigint;
	disarmed_min bigint;
	recharge_at bigint;
	well_formed boolean;
	new_entry bigint;
	recorded_key uuid;
	recorded_entry bigint;
BEGIN
	-- Project limits first, before any key row (see spend_limits_lock_projects); one probe when no project has one.
	IF EXISTS (SELECT 1 FROM spend_limits l WHERE l.subject_kind = 'project') THEN
		PERFORM spend_limits_lock_projects(ARRAY(SELECT DISTINCT e.key_id FROM jsonb_to_recordset(entries) AS e (key_id uuid)));
	END IF;
	FOR entry IN
		SELECT e.*, coalesce(a.balance_key_id, e.key_id) AS account_id
		FROM ROWS FROM (jsonb_to_recordset(entries) AS (key_id uuid, amount bigint, type text,
			external_ref text, product text, model text, counterparty_key_id uuid))
			WITH ORDINALITY AS e (key_id, amount, type, external_ref, product, model, counterparty_key_id, ordinal)
		LEFT JOIN api_keys a ON a.id = e.key_id
		ORDER BY coalesce(a.balance_key_id, e.key_id), a.balance_key_id IS NOT NULL, e.key_id, e.ordinal
	LOOP
		IF current_account IS DISTINCT FROM entry.account_id THEN
			-- The balance row done: its balance, with the spend counters of the key just done when that is the
			-- row itself (one write), else the key's counters and the balance apart.
			IF current_key IS NOT DISTINCT FROM current_account THEN
				IF account_balance IS DISTINCT FROM stored_balance OR key_spent_day IS DISTINCT FROM stored_spent_day
					OR key_spent_month IS DISTINCT FROM stored_spent_month THEN
					UPDATE api_keys SET balance = account_balance, spent_day = key_spent_day, spent_day_of = today,
						spent_month = key_spent_month, spent_month_of = this_month
					WHERE id = current_account;
				END IF;
			ELSE
				IF key_spent_day IS DISTINCT FROM stored_spent_day OR key_spent_month IS DISTINCT FROM stored_spent_month THEN
					UPDATE api_keys SET spent_day = key_spent_day, spent_day_of = today,
						spent_month = key_spent_month, spent_month_of = this_month
					WHERE id = current_key;
				END IF;
				IF account_balance IS DISTINCT FROM stored_balance THEN
					UPDATE api_keys SET balance = account_balance WHERE id = current_account;
				END IF;
			END IF;
			-- The next balance row, locked before any key drawing on it; read with its own key state, so a key
			-- that is its own balance (every key but an organisation's) costs one read, as in v2.
			current_account := entry.account_id;
			SELECT a.balance,
				(SELECT max(n.threshold) FROM balance_notifications n WHERE n.key_id = a.id AND n.armed),
				(SELECT min(n.threshold) FROM balance_notifications n WHERE n.key_id = a.id AND NOT n.armed),
				a.auto_recharge_threshold, a.revoked_at IS NOT NULL, coalesce(a.expires_at <= now(), false),
				a.allowed_products, a.allowed_models, a.daily_cap, a.monthly_cap,
				CASE WHEN a.spent_day_of = today THEN a.spent_day ELSE 0 END,
				CASE WHEN a.spent_month_of = this_month THEN a.spent_month ELSE 0 END,
				spend_limits_govern(a.id)
			INTO account_balance, armed_max, disarmed_min, recharge_at, key_revoked, key_expired, key_products,
				key_models, key_daily_cap, key_monthly_cap, key_spent_day, key_spent_month, key_limited
			FROM api_keys a WHERE a.id = current_account FOR UPDATE OF a;
			account_found := FOUND;
			key_usd_price := CASE WHEN key_limited THEN spend_limits_price(current_account, alert) END;
			key_found := FOUND;
			stored_balance := account_balance;
			stored_spent_day := key_spent_day;
			stored_spent_month := key_spent_month;
			current_key := current_account;
		END IF;
		IF current_key IS DISTINCT FROM entry.key_id THEN
			-- A key drawing on the balance row: the previous key's counters written, this one locked after the row.
			IF key_spent_day IS DISTINCT FROM stored_spent_day OR key_spent_month IS DISTINCT FROM stored_spent_month THEN
				UPDATE api_keys SET spent_day = key_spent_day, spent_day_of = today,
					spent_month = key_spent_month, spent_month_of = this_month
				WHERE id = current_key;
			END IF;
			current_key := entry.key_id;
			SELECT a.revoked_at IS NOT NULL, coalesce(a.expires_at <= now(), false), a.allowed_products, a.allowed_models,
				a.daily_cap, a.monthly_cap,
				CASE WHEN a.spent_day_of = today THEN a.spent_day ELSE 0 END,
				CASE WHEN a.spent_month_of = this_month THEN a.spent_month ELSE 0 END,
				spend_limits_govern(a.id)
			INTO key_revoked, key_expired, key_products, key_models,
				key_daily_cap, key_monthly_cap, key_spent_day, key_spent_month, key_limited
			FROM api_keys a WHERE a.id = current_key FOR UPDATE OF a;
			key_found := FOUND AND account_found;
			-- Its limits in dollars read at what the balance it draws on was bought at.
			key_usd_price := CASE WHEN key_limited THEN spend_limits_price(current_account, alert) END;
			stored_spent_day := key_spent_day;
			stored_spent_month := key_spent_month;
		END IF;

		item := entry.ordinal - 1;
		outcome := NULL;
		entry_id := NULL;
		alerts := 0;
		recharges := 0;
		cap := NULL;
		spend_limit := NULL;
		limit_mails := NULL;
		new_entry := NULL;
		well_formed := coalesce(entry.external_ref IS NOT NULL AND CASE
			WHEN entry.type IN ('trial', 'purchase', 'transfer_in') THEN entry.amount > 0
			WHEN entry.type IN ('consume', 'transfer_out', 'refund') THEN entry.amount < 0
			WHEN entry.type = 'adjustment' THEN entry.amount <> 0
			ELSE false END, false);
		refusal := NULL;
		IF key_found AND entry.type = 'consume' AND well_formed THEN
			IF key_expired THEN
				refusal := 'expired';
			ELSIF NOT coalesce(entry.product = ANY(key_products), key_products IS NULL)
				OR (entry.product IS DISTINCT FROM 'reader' AND NOT coalesce(entry.model = ANY(key_models), key_models IS NULL)) THEN
				refusal := 'out_of_scope';
			ELSIF key_spent_day - entry.amount > key_daily_cap THEN
				refusal := 'over_daily_cap';
				cap := key_daily_cap;
			ELSIF key_spent_month - entry.amount > key_monthly_cap THEN
				refusal := 'over_monthly_cap';
				cap := key_monthly_cap;
			ELSIF key_limited AND NOT key_revoked AND account_balance + entry.amount >= 0
				AND NOT EXISTS (SELECT 1 FROM ledger_entries d WHERE d.external_ref = entry.external_ref) THEN
				taken := spend_limits_take(current_key, -entry.amount, key_usd_price, alert);
				IF taken ? 'refused' THEN
					refusal := 'over_spend_limit';
					spend_limit := taken->'refused';
				ELSE
					limit_mails := (taken->>'alerts')::int;
				END IF;
			END IF;
		END IF;
		IF key_found AND (NOT key_revoked OR entry.type = 'refund') AND well_formed AND refusal IS NULL
			AND account_balance + entry.amount >= 0 THEN
			INSERT INTO ledger_entries (key_id, type, amount, balance_after, external_ref, product, model,
				counterparty_key_id, balance_key_id)
			VALUES (current_key, entry.type, entry.amount, account_balance + entry.amount, entry.external_ref,
				entry.product, entry.model, entry.counterparty_key_id,
				CASE WHEN current_account <> current_key THEN current_account END)
			ON CONFLICT (external_ref) DO NOTHING
			RETURNING id INTO new_entry;
		END IF;

		IF new_entry IS NOT NULL THEN
			account_balance := account_balance + entry.amount;
			outcome := 'applied';
			entry_id := new_entry;
			IF armed_max > account_balance OR disarmed_min <= account_balance THEN
				alerts := ledger_settle_alerts(current_account, account_balance,
					entry.type <> 'transfer_out' AND NOT key_revoked, alert);
				SELECT max(n.threshold) FILTER (WHERE n.armed), min(n.threshold) FILTER (WHERE NOT n.armed)
				INTO armed_max, disarmed_min
				FROM balance_notifications n WHERE n.key_id = current_account;
			END IF;
			IF entry.type = 'consume' THEN
				key_spent_day := key_spent_day - entry.amount;
				key_spent_month := key_spent_month - entry.amount;
				alerts := alerts + coalesce(limit_mails, 0);
			ELSIF entry.type = 'adjustment' AND entry.amount > 0 AND entry.external_ref LIKE 'usage-reversal:%' THEN
				SELECT d.created_at INTO debited_at
				FROM ledger_entries d WHERE d.external_ref = 'usage:' || substr(entry.external_ref, 16) AND d.key_id = current_key;
				debited_on := (debited_at AT TIME ZONE 'UTC')::date;
				IF key_limited AND debited_at IS NOT NULL THEN
					PERFORM spend_limits_release(current_key, entry.amount, debited_at);
				END IF;
				IF debited_on = today THEN
					key_spent_day := greatest(0, key_spent_day - entry.amount);
				END IF;
				IF date_trunc('month', debited_on)::date = this_month THEN
					key_spent_month := greatest(0, key_spent_month - entry.amount);
				END IF;
			END IF;
			IF entry.type = 'consume' AND account_balance < recharge_at AND account_balance - entry.amount >= recharge_at THEN
				INSERT INTO auto_recharge_attempts (key_id) VALUES (current_account) ON CONFLICT DO NOTHING;
				GET DIAGNOSTICS recharges = ROW_COUNT;
			END IF;
		ELSE
			IF limit_mails IS NOT NULL THEN
				-- Counted in the limits, then found recorded by a concurrent transaction: not this entry's to count.
				PERFORM spend_limits_release(current_key, -entry.amount, now());
			END IF;
			SELECT e.key_id, e.id INTO recorded_key, recorded_entry FROM ledger_entries e WHERE e.external_ref = entry.external_ref;
			IF FOUND THEN
				outcome := CASE WHEN recorded_key = entry.key_id THEN 'duplicate' ELSE 'conflict' END;
				entry_id := CASE WHEN recorded_key = entry.key_id THEN recorded_entry END;
			ELSE
				outcome := CASE WHEN NOT key_found THEN 'not_found' WHEN key_revoked AND entry.type <> 'refund' THEN 'revoked'
					WHEN NOT well_formed THEN 'invalid' WHEN refusal IS NOT NULL THEN refusal ELSE 'insufficient' END;
			END IF;
		END IF;
		balance := account_balance;
		RETURN NEXT;
	END LOOP;
	IF current_key IS DISTINCT FROM current_account THEN
		IF key_spent_day IS DISTINCT FROM stored_spent_day OR key_spent_month IS DISTINCT FROM stored_spent_month THEN
			UPDATE api_keys SET spent_day = key_spent_day, spent_day_of = today,
				spent_month = key_spent_month, spent_month_of = this_month
			WHERE id = current_key;
		END IF;
		IF account_balance IS DISTINCT FROM stored_balance THEN
			UPDATE api_keys SET balance = account_balance WHERE id = current_account;
		END IF;
	ELSIF account_balance IS DISTINCT FROM stored_balance OR key_spent_day IS DISTINCT FROM stored_spent_day
		OR key_spent_month IS DISTINCT FROM stored_spent_month THEN
		UPDATE api_keys SET balance = account_balance, spent_day = key_spent_day, spent_day_of = today,
			spent_month = key_spent_month, spent_month_of = this_month
		WHERE id = current_account;
	END IF;
END
$$;
