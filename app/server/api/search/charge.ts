import { currentRequest } from '../../request-context'
import type { Db } from '../../db/types'
import type { ApiKey } from '../../domain/keys'
import { applyEntry } from '../../domain/ledger'
import { consume } from '../../domain/metering'
import { errorFields, log } from '../../log'
import { afterLedger } from '../after-ledger'

export interface Charge {
  /** Gives the tokens back when the request could not be answered after all. */
  refund(): Promise<void>
}

/**
 * Debits a search request's tokens from the caller's key before anything is computed: a key that cannot
 * pay is refused with 402 and costs no work. The debit is named after the request id (`X-Request-Id`,
 * kept when the client sends one), so a client retrying a request with its id is charged once.
 */
export async function chargeRequest(
  db: Db,
  key: ApiKey,
  usage: { tokens: number; product: string; model: string },
): Promise<Charge> {
  if (usage.tokens === 0) return { refund: async () => undefined }
  const usageEventId = `v1:${key.id}:${currentRequest()?.requestId ?? crypto.randomUUID()}`
  const result = await consume(db, { keyId: key.id, usageEventId, ...usage })
  afterLedger(result)
  return {
    async refund() {
      // A retried request's debit belongs to the first attempt, which may have been answered.
      if (result.duplicate) return
      await giveBack(db, key, { ...usage, usageEventId })
    },
  }
}

/**
 * Credits back tokens a usage event debited and did not use, as the one `usage-reversal:` entry of that
 * event (the usage tab nets it out of the event's product and model).
 */
export async function giveBack(
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
      externalRef: `usage-reversal:${usage.usageEventId}`,
      product: usage.product,
      model: usage.model,
    })
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
