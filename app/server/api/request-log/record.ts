import type { Db } from '../../db/types'
import { currentRequest, type RequestContext } from '../../request-context'
import { writeRequestLog, type RequestLogRow } from './writer'

/**
 * What one metered request's log row will say, filled in as the request runs: the endpoint opens it, the
 * caller's key is noted once known, each debit and give-back moves its tokens, and the answer closes it.
 * Kept per request context (no store of its own to enter), so a charge deep in a call finds it cheaply.
 */
interface OpenRecord {
  db?: Db
  keyId?: string
  requestId: string
  product: string
  model: string | null
  inputTokens: number
  outputTokens: number
  /** Tokens set outright by a call that knows its split (deep search: read and written). */
  split?: { input: number; output: number }
  startedAt: Date
  started: number
}

const records = new WeakMap<RequestContext, OpenRecord>()

/** Products whose tokens are what they answer, not what they were sent. */
const outputProducts = new Set(['reader'])

const recordOf = () => {
  const context = currentRequest()
  return context && records.get(context)
}

/** Starts the log row of a metered request (the product is the endpoint's until a charge names its own). */
export function openRequestLog(product: string): void {
  const context = currentRequest()
  if (!context) return
  records.set(context, {
    requestId: context.requestId,
    product,
    model: null,
    inputTokens: 0,
    outputTokens: 0,
    startedAt: new Date(),
    started: performance.now(),
  })
}

/** The request's key, once known (before its rate limit, so a 429 is logged too). */
export function noteRequestKey(db: Db, keyId: string): void {
  const record = recordOf()
  if (!record) return
  record.db = db
  record.keyId = keyId
}

/** Tokens debited (positive) or given back (negative) for this request. */
export function noteRequestTokens(usage: { tokens: number; product: string; model?: string | null }): void {
  const record = recordOf()
  if (!record) return
  record.product = usage.product
  if (usage.model) record.model = usage.model
  if (outputProducts.has(usage.product)) record.outputTokens += usage.tokens
  else record.inputTokens += usage.tokens
}

/** The model the request names, once resolved (so a refusal before any charge still says which). */
export function noteRequestModel(model: string): void {
  const record = recordOf()
  if (record) record.model = model
}

/** Tokens read and written, for a call that knows the split itself (it replaces what the debits added up to). */
export function noteRequestSplit(split: { input: number; output: number }): void {
  const record = recordOf()
  if (record) record.split = split
}

/**
 * How to close the request's row: with its answer's status and engine, once the answer is complete (a
 * stream's when its body ends, outside the request's context, hence a closure over it). Nothing is written
 * when no key was known.
 */
export function requestLogCloser(): ((status: number, engine: string | null) => void | Promise<void>) | undefined {
  const context = currentRequest()
  if (!context || !records.has(context)) return undefined
  return (status, engine) => {
    const record = records.get(context)
    if (!record) return
    records.delete(context)
    if (!record.db || !record.keyId) return
    const row: RequestLogRow = {
      keyId: record.keyId,
      requestId: record.requestId.slice(0, 200),
      product: record.product,
      model: record.model,
      engine,
      inputTokens: Math.max(0, record.split?.input ?? record.inputTokens),
      outputTokens: Math.max(0, record.split?.output ?? record.outputTokens),
      latencyMs: Math.round(performance.now() - record.started),
      status,
      createdAt: record.startedAt,
    }
    return writeRequestLog(record.db, row)
  }
}
