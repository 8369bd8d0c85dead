import * as v from 'valibot'
import { limitIdParam, type SpendLimit, type SpendLimitInput } from '~/contracts/spend-limits'
import { keyAccess } from '../../domain/key-access'
import { SpendLimitNotFound } from '../../domain/refusals'
import { addKeySpendLimit, keySpendLimits, removeKeySpendLimit } from '../../domain/spend-limits'
import type { Caller } from '../caller'
import { auditBy } from '../audit/actor'
import { accountOf } from './session'

/** A path id that is not a uuid names no limit: 404, as another key's limit does. */
export function parseLimitId(params: Record<string, string>): string {
  const parsed = v.safeParse(limitIdParam, params.limitId)
  if (!parsed.success) throw new SpendLimitNotFound()
  return parsed.output
}

/** The spend limits of one of the signed-in account's keys, with what each counted in its period. */
export async function spendLimitsFor(caller: Caller, keyId: string): Promise<{ limits: SpendLimit[] }> {
  const { db, user } = await accountOf(caller)
  await keyAccess(db, user.uid, keyId, 'keys.read')
  return { limits: await keySpendLimits(db, keyId) }
}

export async function addSpendLimitFor(caller: Caller, keyId: string, input: SpendLimitInput): Promise<SpendLimit> {
  const { db, user } = await accountOf(caller)
  return addKeySpendLimit(db, auditBy(caller), user.uid, keyId, input)
}

export async function removeSpendLimitFor(caller: Caller, keyId: string, limitId: string): Promise<{ detail: string }> {
  const { db, user } = await accountOf(caller)
  await removeKeySpendLimit(db, auditBy(caller), user.uid, keyId, limitId)
  return { detail: 'Spend limit removed' }
}
