/** Metering: a search service charges a key for one usage event, once however often it is sent. */
import type * as v from 'valibot'
import type { usageAnswer, usageBody } from '~/contracts/metering'
import { getDb } from '../db/client'
import { findKey } from '../domain/keys'
import { consume } from '../domain/metering'
import { UnknownKey } from '../domain/refusals'
import { afterLedger } from './after-ledger'

export async function meterUsage(body: v.InferOutput<typeof usageBody>): Promise<v.InferOutput<typeof usageAnswer>> {
  const db = await getDb()
  let keyId = body.key_id
  if (body.api_key !== undefined) {
    const key = await findKey(db, body.api_key)
    if (!key) throw new UnknownKey()
    keyId = key.id
  }
  const result = await consume(db, {
    keyId: keyId!,
    tokens: body.tokens,
    usageEventId: body.usage_event_id,
    product: body.product,
    model: body.model,
  })
  afterLedger(result)
  return {
    usage_event_id: body.usage_event_id,
    key_id: keyId!,
    tokens: body.tokens,
    balance: result.balance,
    duplicate: result.duplicate,
  }
}
