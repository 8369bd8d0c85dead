import { sql } from 'drizzle-orm'
import { rowsOf } from '../db/rows'
import type { Db, Tx } from '../db/types'
import type { RefusingLimit } from './refusals'
import { emitLimitReached } from './webhook-events'

/**
 * A spend limit refused a debit of `keyId`: the first refusal of the limit's period marks it (`reached_of`) and
 * emits `limit.reached` in the same transaction; later ones in the period find it marked and emit nothing, so
 * a script that keeps sending gets one event, not one per refused request. The refusal itself changed
 * nothing, so this runs after it, in its own transaction (a savepoint inside a caller's).
 */
export async function noteLimitReached(db: Db | Tx, keyId: string, limit: RefusingLimit): Promise<void> {
  await db.transaction(async (tx) => {
    const [marked] = rowsOf<{ period_start: string }>(
      await tx.execute(sql`
        update spend_limits set reached_of = spend_limit_period_start(period, now())
         where id = ${limit.id}::uuid and reached_of is distinct from spend_limit_period_start(period, now())
        returning to_char(reached_of, 'YYYY-MM-DD') as period_start`),
    )
    if (!marked) return
    await emitLimitReached(tx, keyId, {
      limit_id: limit.id,
      unit: limit.unit,
      amount: limit.amount,
      period: limit.period,
      period_start: marked.period_start,
      allowed_tokens: limit.allowed,
      used_tokens: limit.used,
      resets_at: limit.resetsAt.toISOString(),
    })
  })
}
