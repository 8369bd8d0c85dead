import { currentRequest } from '../../request-context'
import type { Db } from '../../db/types'
import type { ApiKey } from '../../domain/keys'
import { consume } from '../../domain/metering'
import { refuseKeyUse } from '../../domain/key-controls'
import { InsufficientBalance, SpendCapReached } from '../../domain/refusals'
import { afterLedger } from '../after-ledger'
import { noteRequestTokens } from '../request-log/record'
import { giveBack } from './charge'

/** The smallest reservation: a page or a reasoning step rarely needs fewer tokens. */
const MIN_RESERVATION = 2048

/**
 * Charges a request whose size is known only as it runs (a page streamed as it downloads, an agent that
 * reads until its budget is spent): before each part is delivered, `cover(total)` makes sure the tokens
 * used so far are debited, in reservations that double so a request makes few ledger entries; `settle`
 * gives back what was reserved and not used. Tokens are never delivered before they are paid for, and a
 * key that cannot pay for the next part gets `InsufficientBalance` before it is delivered.
 *
 * Each meter names its debits after the request id and a random id of its own, so a streamed request sent
 * again is charged again: unlike a fixed-price answer, it was computed and delivered again.
 */
export class TokenMeter {
  private reserved = 0
  private reservations = 0
  private settled = false
  private readonly eventId: string

  constructor(
    private readonly db: Db,
    private readonly key: ApiKey,
    private readonly usage: { product: string; model: string },
  ) {
    refuseKeyUse(key, usage)
    this.eventId = `v1:${key.id}:${currentRequest()?.requestId ?? 'request'}:${crypto.randomUUID()}`
  }

  /** Tokens debited so far, net of nothing given back yet. */
  get charged(): number {
    return this.reserved
  }

  /** Debits until at least `total` tokens are covered; throws InsufficientBalance when the key cannot pay them (SpendCapReached past its cap). */
  async cover(total: number): Promise<void> {
    if (this.settled) throw new Error('this meter was settled')
    if (total <= this.reserved) return
    const generous = Math.max(total, this.reserved * 2, MIN_RESERVATION)
    try {
      await this.debit(generous - this.reserved)
    } catch (error) {
      // The key may still afford exactly what is needed now.
      if (!(error instanceof InsufficientBalance || error instanceof SpendCapReached) || generous === total) throw error
      await this.debit(total - this.reserved)
    }
  }

  /** Gives back what was reserved beyond `used` (once; later calls do nothing). */
  async settle(used: number): Promise<void> {
    if (this.settled) return
    this.settled = true
    await giveBack(this.db, this.key, {
      ...this.usage,
      tokens: this.reserved - Math.min(used, this.reserved),
      usageEventId: this.eventId,
    })
  }

  private async debit(tokens: number): Promise<void> {
    this.reservations++
    const usageEventId = this.reservations === 1 ? this.eventId : `${this.eventId}:${this.reservations}`
    const result = await consume(this.db, { keyId: this.key.id, usageEventId, tokens, ...this.usage })
    afterLedger(result)
    noteRequestTokens({ ...this.usage, tokens })
    this.reserved += tokens
  }
}
