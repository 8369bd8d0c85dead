-- Spend limits (app/server/db/schema/spend-limits.ts): the rule ledger_apply_v3 applies to every consumption of a
-- key that has one, in the debit's own transaction. A repeatable migration like ledger.sql: safe to run again.
--
-- Reserve before work, settle after: a metered request is debited before anything is computed (its expected
-- tokens, or a meter's first reservation) and its unused or unanswered tokens are given back afterwards as its
-- `usage-reversal:` credit. A limit counts exactly that: the debit adds to `used` only if every limit of the key
-- still has room for it (else the debit is refused, nothing counted), and the give-back takes its tokens off
-- again. So what a limit holds at any moment is what was delivered plus what running requests have reserved,
-- and no number of concurrent requests can pass it: the check and the count happen with the limit rows locked.
--
-- Every limit counts tokens; a limit in dollars allows floor(amount / price) tokens, where price is what a token
-- of the key cost (spend_limit_usd_per_token), so its spend reads in dollars at the price paid, as the usage
-- tab prices it.
--
-- Subjects: a key's own limits (`subject_kind = 'key'`) and its project's (`subject_kind = 'project'`, the key's
-- api_keys.project_id), which all the project's keys count into together: the rows are locked in
-- spend_limits_judge, which is what makes a limit several keys share exact (the key row's lock covers only one).
-- A project's keys need not draw on one balance row, so ledger_apply_v3 locks the project limits of a batch's
-- keys first, in id order, before any key row (spend_limits_lock_projects); transfers do the same.
--
-- The functions ledger_apply_v3 calls for every entry are PL/pgSQL with their queries inline, so their plans are
-- kept for the session (a LANGUAGE sql function that cannot be inlined is planned again at every call).

-- The project a key belongs to, or null: its project's limits govern it beside its own.
CREATE OR REPLACE FUNCTION spend_limit_project_of(for_key uuid)
RETURNS uuid
LANGUAGE sql STABLE AS $$
	SELECT a.project_id FROM api_keys a WHERE a.id = for_key
$$;
--> statement-breakpoint
-- Locks the limits of the projects of these keys, in id order: ledger_apply_v3 and transfers call it before they
-- lock any key row, so a project's limit shared by keys of different balance rows is always taken first and
-- two transactions never hold a key row and a project limit in opposite orders.
CREATE OR REPLACE FUNCTION spend_limits_lock_projects(for_keys uuid[])
RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
	PERFORM 1 FROM spend_limits l
	WHERE l.subject_kind = 'project' AND l.subject_id IN (SELECT a.project_id FROM api_keys a WHERE a.id = ANY(for_keys))
	ORDER BY l.id FOR UPDATE OF l;
END
$$;
--> statement-breakpoint
-- The limits that govern a key, locked in id order (so two transactions never wait on each other in opposite
-- orders): for reading them off the hot path.
CREATE OR REPLACE FUNCTION spend_limits_of(for_key uuid)
RETURNS SETOF spend_limits
LANGUAGE sql AS $$
	SELECT l.* FROM spend_limits l WHERE ((l.subject_kind = 'key' AND l.subject_id = for_key) OR (l.subject_kind = 'project' AND l.subject_id = spend_limit_project_of(for_key))) ORDER BY l.id FOR UPDATE
$$;
--> statement-breakpoint
-- Whether any limit governs the key: ledger_apply_v3 asks once per key and batch, so a key without limits pays
-- one index probe and nothing more.
CREATE OR REPLACE FUNCTION spend_limits_govern(for_key uuid)
RETURNS boolean
LANGUAGE plpgsql STABLE AS $$
BEGIN
	RETURN EXISTS (SELECT 1 FROM spend_limits l WHERE ((l.subject_kind = 'key' AND l.subject_id = for_key) OR (l.subject_kind = 'project' AND l.subject_id = spend_limit_project_of(for_key))));
END
$$;
--> statement-breakpoint
-- The first day of the calendar period (UTC) that holds `at`: its day, its week (from Monday), its month.
CREATE OR REPLACE FUNCTION spend_limit_period_start(period text, at timestamptz)
RETURNS date
LANGUAGE sql STABLE AS $$
	SELECT CASE period
		WHEN 'day' THEN (at AT TIME ZONE 'UTC')::date
		WHEN 'week' THEN date_trunc('week', at AT TIME ZONE 'UTC')::date
		ELSE date_trunc('month', at AT TIME ZONE 'UTC')::date END
$$;
--> statement-breakpoint
-- When the period that holds `at` ends (UTC midnight of the next day, Monday or first of the month).
CREATE OR REPLACE FUNCTION spend_limit_resets_at(period text, at timestamptz)
RETURNS timestamptz
LANGUAGE sql STABLE AS $$
	SELECT (spend_limit_period_start(period, at) + CASE period WHEN 'day' THEN interval '1 day'
		WHEN 'week' THEN interval '7 days' ELSE interval '1 month' END) AT TIME ZONE 'UTC'
$$;
--> statement-breakpoint
-- What one token of the key cost in dollars: its paid purchases in USD (amounts in cents), else `list_price`
-- (the smallest pack's price per token, for a key holding only free or transferred tokens).
CREATE OR REPLACE FUNCTION spend_limit_usd_per_token(for_key uuid, list_price numeric)
RETURNS numeric
LANGUAGE sql STABLE AS $$
	SELECT coalesce(
		(SELECT nullif(sum(p.amount), 0)::numeric / 100 / nullif(sum(p.tokens), 0) FROM purchases p
			WHERE p.key_id = for_key AND p.status = 'paid' AND lower(p.currency) = 'usd'),
		list_price)
$$;
--> statement-breakpoint
-- The tokens a limit allows in a period.
CREATE OR REPLACE FUNCTION spend_limit_tokens(unit text, amount numeric, usd_per_token numeric)
RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE WHEN unit = 'tokens' THEN amount::bigint
		ELSE least(floor(amount / usd_per_token), 9000000000000000000)::bigint END
$$;
--> statement-breakpoint
-- What a token of the key costs in dollars when a dollar limit governs it, else null (no purchase to read).
-- ledger_apply_v3 asks once per key and batch. alert: see spend_limits_take ("list_usd_per_token").
CREATE OR REPLACE FUNCTION spend_limits_price(for_key uuid, alert jsonb)
RETURNS numeric
LANGUAGE plpgsql STABLE AS $$
BEGIN
	IF EXISTS (SELECT 1 FROM spend_limits l WHERE ((l.subject_kind = 'key' AND l.subject_id = for_key) OR (l.subject_kind = 'project' AND l.subject_id = spend_limit_project_of(for_key))) AND l.unit = 'usd') THEN
		RETURN spend_limit_usd_per_token(for_key, (alert->>'list_usd_per_token')::numeric);
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
-- Judges a consumption of `tokens` now against every limit of the key, locking them (in id order) until the
-- transaction ends: `refused` is the first limit it would take past its allowance, as the JSON of its refusal
-- (id, unit, amount, period, used, allowed, resets_at), or null when every limit has room; `crossing` lists
-- the limits it would take to their alert share for the first time in their period.
CREATE OR REPLACE FUNCTION spend_limits_judge(for_key uuid, tokens bigint, usd_per_token numeric,
	OUT refused jsonb, OUT crossing uuid[])
LANGUAGE plpgsql AS $$
DECLARE
	l record;
	allowed bigint;
	used_now bigint;
	period_now date;
BEGIN
	crossing := '{}';
	FOR l IN SELECT * FROM spend_limits s WHERE ((s.subject_kind = 'key' AND s.subject_id = for_key) OR (s.subject_kind = 'project' AND s.subject_id = spend_limit_project_of(for_key))) ORDER BY s.id FOR UPDATE
	LOOP
		period_now := spend_limit_period_start(l.period, now());
		allowed := spend_limit_tokens(l.unit, l.amount, usd_per_token);
		used_now := CASE WHEN l.period_of = period_now THEN l.used ELSE 0 END;
		IF used_now + tokens > allowed THEN
			IF refused IS NULL THEN
				refused := jsonb_build_object('id', l.id, 'unit', l.unit, 'amount', l.amount, 'period', l.period,
					'used', used_now, 'allowed', allowed, 'resets_at', spend_limit_resets_at(l.period, now()));
			END IF;
		ELSIF l.alert_percent IS NOT NULL AND l.alerted_of IS DISTINCT FROM period_now
			AND (used_now + tokens) * 100 >= l.alert_percent::numeric * allowed THEN
			crossing := crossing || l.id;
		END IF;
	END LOOP;
END
$$;
--> statement-breakpoint
-- Judges a consumption of `tokens` now (spend_limits_judge) and, when every limit has room, counts it in each (a
-- limit whose period has passed starts again from 0) and queues one mail for each limit this takes to its alert
-- share for the first time in the period. Answers {"refused": …} or {"alerts": mails queued}. ledger_apply_v3
-- calls it only for an entry it would otherwise apply; in the rare race where the entry's event is recorded by
-- a concurrent transaction meanwhile, it takes the count back (spend_limits_release) and a mail may stay queued.
-- alert: the mail text, {"limit_subject": format(%s brand, %s percent), "limit_body": format(%s prefix, %s last4,
--   %s used, %s period word, %s limit, %s resets at, %s link), "limit_periods": {"day": word, …},
--   "limit_link": …, "brand": …, "list_usd_per_token": n}.
CREATE OR REPLACE FUNCTION spend_limits_take(for_key uuid, tokens bigint, usd_per_token numeric, alert jsonb)
RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
	judged record;
	mailed int;
BEGIN
	judged := spend_limits_judge(for_key, tokens, usd_per_token);
	IF judged.refused IS NOT NULL THEN
		RETURN jsonb_build_object('refused', judged.refused);
	END IF;
	WITH counted AS (
		UPDATE spend_limits l SET
			used = CASE WHEN l.period_of = spend_limit_period_start(l.period, now()) THEN l.used ELSE 0 END + tokens,
			period_of = spend_limit_period_start(l.period, now()),
			alerted_of = CASE WHEN l.id = ANY(judged.crossing) THEN spend_limit_period_start(l.period, now())
				ELSE l.alerted_of END
		WHERE ((l.subject_kind = 'key' AND l.subject_id = for_key) OR (l.subject_kind = 'project' AND l.subject_id = spend_limit_project_of(for_key)))
		RETURNING l.*
	)
	INSERT INTO email_outbox ("to", subject, text, kind, meta)
	SELECT c.alert_email,
		format(alert->>'limit_subject', alert->>'brand', c.alert_percent || '%'),
		format(alert->>'limit_body', k.prefix, k.last4,
			spend_limit_text(c.unit, c.used, usd_per_token), alert->'limit_periods'->>c.period,
			spend_limit_text(c.unit, c.amount, 1), to_char(spend_limit_resets_at(c.period, now()) AT TIME ZONE 'UTC',
				'YYYY-MM-DD"T"HH24:MI:SS"Z"'), alert->>'limit_link'),
		'spend_limit_alert', jsonb_build_object('key_id', for_key, 'limit_id', c.id, 'period_of', c.period_of,
			'used', c.used)
	FROM counted c JOIN api_keys k ON k.id = for_key
	WHERE c.id = ANY(judged.crossing);
	GET DIAGNOSTICS mailed = ROW_COUNT;
	RETURN jsonb_build_object('alerts', mailed);
END
$$;
--> statement-breakpoint
-- A limit's measure as a mail reads it: tokens grouped, or dollars (tokens × price per token, or an amount
-- already in dollars with price 1) to the cent, and finer under a cent.
CREATE OR REPLACE FUNCTION spend_limit_text(unit text, n numeric, usd_per_token numeric)
RETURNS text
LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE WHEN unit = 'tokens' THEN to_char(n, 'FM999,999,999,999,999,990') || ' tokens'
		ELSE '$' || to_char(n * usd_per_token, 'FM999,999,999,990.00999999') END
$$;
--> statement-breakpoint
-- Takes a give-back of `tokens` off the key's limits whose counted period holds the debit it gives back
-- (`debited_at`): a limit set later started from what its period had consumed, that debit included, and a
-- period that has passed is counted from 0 anyway.
CREATE OR REPLACE FUNCTION spend_limits_release(for_key uuid, tokens bigint, debited_at timestamptz)
RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
	UPDATE spend_limits l SET used = greatest(0, l.used - tokens)
	WHERE ((l.subject_kind = 'key' AND l.subject_id = for_key) OR (l.subject_kind = 'project' AND l.subject_id = spend_limit_project_of(for_key)))
		AND l.period_of = spend_limit_period_start(l.period, debited_at);
END
$$;
