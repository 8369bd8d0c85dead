import { sql } from 'drizzle-orm'
import { rowsOf } from '../db/rows'
import type { Db } from '../db/types'
import { IdempotencyKeyInFlight, IdempotencyKeyMismatch } from './refusals'

/** How long an `Idempotency-Key` names its request's answer, as long as an `X-Request-Id` names its debit. */
export const IDEMPOTENCY_WINDOW_HOURS = 24

/**
 * A claim older than this whose request never stored an answer or let go (its process died) is taken over by
 * the next request with the key; longer than any request takes (deep search stops within its timeouts).
 */
export const STALE_CLAIM_MINUTES = 15

/** What one API key's `Idempotency-Key` names: the key, and the hash of the request it was first sent with. */
export interface IdempotencyTarget {
  keyId: string
  idempotencyKey: string
  requestHash: string
}

/** A stored answer, as replayed. */
export interface StoredAnswer {
  status: number
  body: string
  headers: Record<string, string>
}

export type IdempotencyClaim = { claimed: string } | { replay: StoredAnswer }

interface Row {
  claim: string
  request_hash: string
  status: number | null
  response: string | null
  response_headers: Record<string, string> | string | null
}

/**
 * Claims the key for this request, or answers what it already names: the stored answer of the same request
 * (`replay`), `IdempotencyKeyMismatch` for another request, `IdempotencyKeyInFlight` while its first request
 * runs. The claim is one upsert, so of two requests sent at once exactly one claims and the other is told the
 * first is in flight; a row past the window, or a claim gone stale, is taken over as if it were not there.
 */
export async function claimIdempotencyKey(db: Db, target: IdempotencyTarget): Promise<IdempotencyClaim> {
  // A row released between the upsert and the read is claimed on the next pass.
  for (let pass = 0; pass < 3; pass++) {
    const claim = crypto.randomUUID()
    const [taken] = rowsOf<{ claim: string }>(
      await db.execute(sql`
        insert into idempotency_keys (key_id, idempotency_key, request_hash, claim)
        values (${target.keyId}::uuid, ${target.idempotencyKey}, ${target.requestHash}, ${claim}::uuid)
        on conflict (key_id, idempotency_key) do update
          set request_hash = excluded.request_hash, claim = excluded.claim, status = null, response = null,
            response_headers = null, created_at = now()
          where idempotency_keys.created_at <= now() - make_interval(hours => ${IDEMPOTENCY_WINDOW_HOURS})
            or (idempotency_keys.status is null
              and idempotency_keys.created_at <= now() - make_interval(mins => ${STALE_CLAIM_MINUTES}))
        returning claim`),
    )
    if (taken?.claim === claim) return { claimed: claim }
    const [row] = rowsOf<Row>(
      await db.execute(sql`
        select claim, request_hash, status, response, response_headers from idempotency_keys
        where key_id = ${target.keyId}::uuid and idempotency_key = ${target.idempotencyKey}`),
    )
    if (!row) continue
    if (row.request_hash !== target.requestHash) throw new IdempotencyKeyMismatch(target.idempotencyKey)
    if (row.status === null || row.response === null) throw new IdempotencyKeyInFlight(target.idempotencyKey)
    const headers = typeof row.response_headers === 'string' ? JSON.parse(row.response_headers) : row.response_headers
    return { replay: { status: row.status, body: row.response, headers: headers ?? {} } }
  }
  throw new IdempotencyKeyInFlight(target.idempotencyKey)
}

/** Stores the claimed request's answer, unless its claim was taken over meanwhile. */
export async function storeIdempotentAnswer(
  db: Db,
  target: Omit<IdempotencyTarget, 'requestHash'>,
  claim: string,
  answer: StoredAnswer,
): Promise<void> {
  await db.execute(sql`
    update idempotency_keys
    set status = ${answer.status}, response = ${answer.body}, response_headers = ${JSON.stringify(answer.headers)}::jsonb
    where key_id = ${target.keyId}::uuid and idempotency_key = ${target.idempotencyKey} and claim = ${claim}::uuid`)
}

/** Lets the key go (its request was refused or failed, charging nothing), so the same key may be sent again. */
export async function releaseIdempotencyKey(
  db: Db,
  target: Omit<IdempotencyTarget, 'requestHash'>,
  claim: string,
): Promise<void> {
  await db.execute(sql`
    delete from idempotency_keys
    where key_id = ${target.keyId}::uuid and idempotency_key = ${target.idempotencyKey} and claim = ${claim}::uuid
      and status is null`)
}

/** Removes rows past the window, `batch` at a time (so no statement holds many locks); answers how many. */
export async function pruneIdempotencyKeys(db: Db, batch = 10_000): Promise<number> {
  let removed = 0
  for (;;) {
    const count = rowsOf(
      await db.execute(sql`
        delete from idempotency_keys where (key_id, idempotency_key) in (
          select key_id, idempotency_key from idempotency_keys
          where created_at < now() - make_interval(hours => ${IDEMPOTENCY_WINDOW_HOURS}) limit ${batch}
        ) returning 1 as gone`),
    ).length
    removed += count
    if (count < batch) return removed
  }
}
