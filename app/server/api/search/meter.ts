import type { Db } from '../../db/types'
import type { ApiKey } from '../../domain/keys'
import { consume } from '../../domain/metering'
import { refuseKeyUse } from '../../domain/key-controls'
import { InsufficientBalance, SpendCapReached, SpendLimitReached } from '../../domain/refusals'
import { afterLedger } from '../after-ledger'
import { giveBack, type ChargedCall } from './charge'

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
  /** Covers run one after another: two at once would both take the next reservation's name and count twice. */
  private covering: Promise<unknown> = Promise.resolve()

  constructor(
    private readonly call: ChargedCall,
    private readonly db: Db,
    private readonly key: ApiKey,
    private readonly usage: { product: string; model: string },
  ) {
    refuseKeyUse(key, usage)
    this.eventId = `v1:${key.id}:${this.call.requestId}:${crypto.randomUUID()}`
  }

  /** Tokens debited so far, net of nothing given back yet. */
  get charged(): number {
    return this.reserved
  }

  /**
   * Debits until at least `total` tokens are covered; throws InsufficientBalance when the key cannot pay them
   * (SpendCapReached past its cap, SpendLimitReached past a spend limit).
   */
  cover(total: number): Promise<void> {
    const covered = this.covering.then(() => this.coverNow(total))
    this.covering = covered.catch(() => undefined)
    return covered
  }

  private async coverNow(total: number): Promise<void> {
    if (this.settled) throw new Error('this meter was settled')
    if (total <= this.reserved) return
    const generous = Math.max(total, this.reserved * 2, MIN_RESERVATION)
    try {
      await this.debit(generous - this.reserved, generous !== total)
    } catch (error) {
      // The key may still afford exactly what is needed now.
      const short =
        error instanceof InsufficientBalance || error instanceof SpendCapReached || error instanceof SpendLimitReached
      if (!short || generous === total) throw error
      await this.debit(total - this.reserved)
    }
  }

  /** Gives back what was reserved beyond `used` (once; later calls do nothing). */
  async settle(used: number): Promise<void> {
    if (this.settled) return
    this.settled = true
    await this.covering
    await giveBack(this.call, this.db, this.key, {
      ...this.usage,
      tokens: this.reserved - Math.min(used, this.reserved),
      usageEventId: this.eventId,
    })
  }

  /**
   * Counted only once debited: a refused reservation records nothing, so the exact one tried after it takes its
   * name. The first reservation must carry `eventId`, which the give-back is named after: the ledger finds the
   * debit through that name to take the give-back off the caps and spend limits that counted it.
   */
  private async debit(tokens: number, tentative = false): Promise<void> {
    const reservation = this.reservations + 1
    const usageEventId = reservation === 1 ? this.eventId : `${this.eventId}:${reservation}`
    const result = await consume(this.db, { keyId: this.key.id, usageEventId, tokens, ...this.usage }, { tentative })
    this.reservations = reservation
    afterLedger(result)
    this.call.requestLog?.noteTokens({ ...this.usage, tokens })
    this.reserved += tokens
  }
}
