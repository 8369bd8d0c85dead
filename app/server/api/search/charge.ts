import type { Db } from '../../db/types'
import type { ApiKey } from '../../domain/keys'
import { refuseKeyUse } from '../../domain/key-controls'
import { applyEntry } from '../../domain/ledger'
import { consume, usageAnswered, usageReversalRef } from '../../domain/metering'
import { RequestIdReused } from '../../domain/refusals'
import { errorFields, log } from '../../log'
import { afterLedger } from '../after-ledger'
import type { Caller } from '../caller'

/**
 * The call a charge is for: its request id names the debit (outside a request, the caller gives one), and its
 * request log row, if it has one, counts the tokens.
 */
export type ChargedCall = Pick<Caller, 'requestId' | 'requestLog' | 'batch'>

export interface Charge {
  /** Gives the tokens back when the request could not be answered after all. */
  refund(): Promise<void>
}

/** How many times one request id may be sent again after its request failed (its tokens given back). */
const RETRIES_PER_REQUEST_ID = 5

/**
 * Debits a search request's tokens from the caller's key before anything is computed: a key that cannot
 * pay is refused with 402 and costs no work. The debit is named after the request id (`X-Request-Id`,
 * kept when the client sends one), so one id is charged once, and a request sent again with an id already
 * charged and answered is refused with 409 before it is computed: an id never buys a second answer. An id
 * whose request failed (its tokens given back) may be sent again, as the next attempt of that id.
 */
export async function chargeRequest(
  call: ChargedCall,
  db: Db,
  key: ApiKey,
  usage: { tokens: number; product: string; model: string },
): Promise<Charge> {
  refuseKeyUse(key, usage)
  if (usage.tokens === 0) return { refund: async () => undefined }
  if (call.batch) return collectBatchLine(call.batch, usage)
  const requestUsage = requestUsageId(call, key)
  for (let attempt = 0; attempt <= RETRIES_PER_REQUEST_ID; attempt++) {
    const usageEventId = attempt === 0 ? requestUsage : `${requestUsage}:retry-${attempt}`
    const result = await consume(db, { keyId: key.id, usageEventId, ...usage })
    if (result.duplicate) {
      if (await usageAnswered(db, usageEventId)) break
      continue
    }
    afterLedger(result)
    call.requestLog?.noteTokens(usage)
    return { refund: () => giveBack(call, db, key, { ...usage, usageEventId }) }
  }
  throw new RequestIdReused(requestUsage)
}

/**
 * A batch line's tokens, noted for its part's debit (debited when the part is recorded, at the batch price)
 * and taken off again if the line fails after all.
 */
function collectBatchLine(
  charges: NonNullable<Caller['batch']>,
  usage: { tokens: number; product: string; model: string },
): Charge {
  const use = (sign: 1 | -1) => {
    const name = `${usage.product}\u0000${usage.model}`
    const noted = charges.uses.get(name) ?? { product: usage.product, model: usage.model, tokens: 0 }
    noted.tokens += sign * usage.tokens
    charges.uses.set(name, noted)
    charges.tokens += sign * usage.tokens
  }
  use(1)
  return { refund: async () => use(-1) }
}

/**
 * Refuses, before any work, a request whose id this key already spent on an answered request: for calls
 * that can price their answer only after computing it (the reader converts the page first).
 */
export async function refuseReusedRequestId(call: ChargedCall, db: Db, key: Pick<ApiKey, 'id'>): Promise<void> {
  const usageEventId = requestUsageId(call, key)
  if (await usageAnswered(db, usageEventId)) throw new RequestIdReused(usageEventId)
}

/** The usage event a metered request's debit is named after: its key and its request id. */
function requestUsageId(call: ChargedCall, key: Pick<ApiKey, 'id'>): string {
  return `v1:${key.id}:${call.requestId}`
}

/**
 * Credits back tokens a usage event debited and did not use, as the one `usage-reversal:` entry of that
 * event (the usage tab nets it out of the event's product and model).
 */
export async function giveBack(
  call: ChargedCall,
  db: Db,
  key: Pick<ApiKey, 'id'>,
  usage: { tokens: number; product: string; model: string; usageEventId: string },
): Promise<void> {
  if (usage.tokens <= 0) return
  try {
    await applyEntry(db, {
      keyId: key.id,
      amount: usage.tokens,
      type: 'adjustment',
      externalRef: usageReversalRef(usage.usageEventId),
      product: usage.product,
      model: usage.model,
    })
    call.requestLog?.noteTokens({ ...usage, tokens: -usage.tokens })
  } catch (error) {
    // The key was revoked meanwhile (its balance moved on by a transfer), so it takes no credit: left to an operator.
    log('error', 'refund of an unanswered request failed', { error: errorFields(error) })
  }
}

/** Runs `compute` on a paid request, giving the tokens back if it fails. */
export async function paidFor<T>(charge: Charge, compute: () => Promise<T>): Promise<T> {
  try {
    return await compute()
  } catch (error) {
    await charge.refund()
    throw error
  }
}
