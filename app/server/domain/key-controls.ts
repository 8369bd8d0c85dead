import { and, eq, isNull } from 'drizzle-orm'
import type { KeyControls, KeyControlsInput } from '~/contracts/key-controls'
import { apiKeys } from '../db/schema'
import type { Db } from '../db/types'
import { recordAudit, type AuditBy } from './audit'
import { keyAccess } from './key-access'
import type { ApiKey } from './keys'
import { KeyExpired, KeyIdNotFound, KeyOutOfScope, TransferOfScopedKey, TransferPastCap } from './refusals'

/**
 * Per-key controls (README "Per-key controls"). They live on the key row, so the lookup every request makes
 * already carries them: `refuseKeyUse` judges a request from that row with no query of its own, and
 * ledger_apply judges every debit again under the row's lock (caps there, since only the lock makes them exact).
 */

const dayOf = (now: Date) => now.toISOString().slice(0, 10)
const monthOf = (now: Date) => `${now.toISOString().slice(0, 7)}-01`

/** The key's controls, with what it spent in the current UTC day and month. */
export function keyControls(key: ApiKey, now = new Date()): KeyControls {
  return {
    key_id: key.id,
    daily_cap: key.dailyCap,
    monthly_cap: key.monthlyCap,
    allowed_products: key.allowedProducts,
    allowed_models: key.allowedModels,
    expires_at: key.expiresAt?.toISOString() ?? null,
    allowed_networks: key.allowedNetworks,
    spent_today: key.spentDayOf === dayOf(now) ? key.spentDay : 0,
    spent_this_month: key.spentMonthOf === monthOf(now) ? key.spentMonth : 0,
  }
}

/**
 * Replaces the controls of a live key the account may manage (its own, or its organisation's by its role
 * there: `keyAccess`), and records the change in the audit log in the same transaction. Another account's
 * key, or a revoked one, reads as not found.
 */
export async function setKeyControls(
  db: Db,
  by: AuditBy,
  uid: string,
  keyId: string,
  controls: KeyControlsInput,
): Promise<ApiKey> {
  return db.transaction(async (tx) => {
    await keyAccess(tx, uid, keyId, 'keys.manage')
    const [row] = await tx
      .update(apiKeys)
      .set({
        dailyCap: controls.daily_cap,
        monthlyCap: controls.monthly_cap,
        allowedProducts: controls.allowed_products,
        allowedModels: controls.allowed_models,
        expiresAt: controls.expires_at === null ? null : new Date(controls.expires_at),
        allowedNetworks: controls.allowed_networks,
      })
      .where(and(eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)))
      .returning()
    if (!row) throw new KeyIdNotFound()
    const list = (items: string[] | null) => (items === null ? null : items.join(', '))
    await recordAudit(tx, by, {
      action: 'key.controls_changed',
      keyId,
      accountId: uid,
      details: {
        daily_cap: controls.daily_cap,
        monthly_cap: controls.monthly_cap,
        allowed_products: list(controls.allowed_products),
        allowed_models: list(controls.allowed_models),
        expires_at: controls.expires_at,
        allowed_networks: list(controls.allowed_networks),
      },
    })
    return row
  })
}

/**
 * Refuses a request the key's controls forbid, from the key row alone: an expired key, and (when the request
 * names them) a product or model outside its scopes, naming what is allowed. Run before any work is done.
 */
export function refuseKeyUse(key: ApiKey, use: { product?: string; model?: string } = {}, now = new Date()): void {
  if (key.expiresAt && key.expiresAt <= now) throw new KeyExpired(key.expiresAt)
  const products = key.allowedProducts
  const models = key.allowedModels
  if (
    (use.product !== undefined && products && !products.includes(use.product)) ||
    // The reader's model is the server's converter, not one a request chooses (as in ledger_apply).
    (use.model !== undefined && use.product !== 'reader' && models && !models.includes(use.model))
  )
    throw new KeyOutOfScope(use, { products, models })
}

/**
 * Refuses a transfer of `amount` (the whole balance) that the sending key's controls would not let it spend:
 * the receiver has none of them, so a transfer past them would undo them. Judged from the row locked for the
 * transfer, as ledger_apply judges a debit: an expired key, a key limited to some products or models (its
 * tokens would become spendable on any), and a balance above what a cap leaves in the UTC day or month.
 */
export function refuseTransferOf(key: ApiKey, amount: number, now = new Date()): void {
  if (key.expiresAt && key.expiresAt <= now) throw new KeyExpired(key.expiresAt)
  if (key.allowedProducts || key.allowedModels)
    throw new TransferOfScopedKey({ products: key.allowedProducts, models: key.allowedModels })
  const { spent_today, spent_this_month } = keyControls(key, now)
  const caps = [
    ['day', key.dailyCap, spent_today],
    ['month', key.monthlyCap, spent_this_month],
  ] as const
  for (const [period, cap, spent] of caps)
    if (cap !== null && spent + amount > cap) throw new TransferPastCap(period, cap, Math.max(0, cap - spent), amount)
}
