import type { Db } from '../../db/types'
import { writeRequestLog, type RequestLogRow } from './writer'

/** Products whose tokens are what they answer, not what they were sent. */
const outputProducts = new Set(['reader'])

/**
 * What one metered request's log row will say, filled in as the request runs: the endpoint opens it on the
 * caller (`Caller.requestLog`), the caller's key is noted once known, each debit and give-back moves its
 * tokens, and the endpoint closes it with the answer. Nothing is written when no key was known.
 */
export class RequestLogRecord {
  private db?: Db
  private keyId?: string
  private product: string
  private model: string | null = null
  private tag: string | null = null
  private inputTokens = 0
  private outputTokens = 0
  /** Tokens set outright by a call that knows its split (deep search: read and written). */
  private split?: { input: number; output: number }
  private readonly startedAt = new Date()
  private readonly started = performance.now()
  private closed = false

  /** The product is the endpoint's until a charge names its own. */
  constructor(
    private readonly requestId: string,
    product: string,
  ) {
    this.product = product
  }

  /** The request's key, once known (before its rate limit, so a 429 is logged too). */
  noteKey(db: Db, keyId: string): void {
    this.db = db
    this.keyId = keyId
  }

  /** The request's `X-Request-Tag` (or its body's `metadata.tag`): the first one noted stays. */
  noteTag(tag: string | undefined): void {
    this.tag ??= tag ?? null
  }

  /** Tokens debited (positive) or given back (negative) for this request. */
  noteTokens(usage: { tokens: number; product: string; model?: string | null }): void {
    this.product = usage.product
    if (usage.model) this.model = usage.model
    if (outputProducts.has(usage.product)) this.outputTokens += usage.tokens
    else this.inputTokens += usage.tokens
  }

  /** The model the request names, once resolved (so a refusal before any charge still says which). */
  noteModel(model: string): void {
    this.model = model
  }

  /** Tokens read and written, for a call that knows the split itself (it replaces what the debits added up to). */
  noteSplit(split: { input: number; output: number }): void {
    this.split = split
  }

  /**
   * Writes the row once, with the answer's status and engine, when the answer is complete (a stream's when
   * its body ends); later calls do nothing.
   */
  close(status: number, engine: string | null): void | Promise<void> {
    if (this.closed) return
    this.closed = true
    if (!this.db || !this.keyId) return
    const row: RequestLogRow = {
      keyId: this.keyId,
      requestId: this.requestId.slice(0, 200),
      product: this.product,
      model: this.model,
      tag: this.tag,
      engine,
      inputTokens: Math.max(0, this.split?.input ?? this.inputTokens),
      outputTokens: Math.max(0, this.split?.output ?? this.outputTokens),
      latencyMs: Math.round(performance.now() - this.started),
      status,
      createdAt: this.startedAt,
    }
    return writeRequestLog(this.db, row)
  }
}
