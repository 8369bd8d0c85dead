import type * as v from 'valibot'
import type { UsageSummary, usageSummaryQuery } from '~/contracts/usage-summary'
import { InvalidInput } from '../domain/refusals'
import { usageSummary } from '../domain/usage-summary'
import { keyOf, type Caller } from './caller'
import { logScopeOf } from './request-log/scope'
import { flushRequestLog } from './request-log/writer'

const DAY = 86_400_000
const MAX_DAYS = 366

/**
 * Requests, tokens and their cost over [start, end] (UTC days, by default the last 30) for the caller's key,
 * or for the signed-in owner every key of the account, together or the one `key_id` names.
 */
export async function usageSummaryFor(
  caller: Caller,
  { start, end, key_id }: v.InferOutput<typeof usageSummaryQuery>,
): Promise<UsageSummary> {
  const today = Math.floor(Date.now() / DAY) * DAY
  const last = end ? Date.parse(`${end}T00:00:00Z`) : today
  const first = start ? Date.parse(`${start}T00:00:00Z`) : last - 29 * DAY
  if (first > last) throw new InvalidInput([{ loc: ['query', 'start'], msg: 'must not be after end', type: 'range' }])
  if ((last - first) / DAY >= MAX_DAYS)
    throw new InvalidInput([{ loc: ['query', 'end'], msg: `range must be at most ${MAX_DAYS} days`, type: 'range' }])
  const scope = await logScopeOf(caller, key_id)
  const { key } = await keyOf(caller)
  await flushRequestLog()
  const summary = await usageSummary(scope.db, scope.keyIds, key_id ?? key.id, new Date(first), new Date(last + DAY))
  const labels = new Map(scope.keys.map((k) => [k.key_id, k.label]))
  return {
    start: new Date(first).toISOString().slice(0, 10),
    end: new Date(last).toISOString().slice(0, 10),
    ...summary,
    by_key: summary.by_key.map((row) => ({ ...row, label: labels.get(row.key_id) ?? row.key_id })),
    keys: scope.keys,
  }
}
