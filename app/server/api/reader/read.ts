import type { ReaderHeaders, ReaderPage } from '~/contracts/reader'
import { getDb } from '../../db/client'
import type { Db } from '../../db/types'
import type { ApiKey } from '../../domain/keys'
import { InsufficientBalance } from '../../domain/refusals'
import { serverEnv } from '../../env'
import { targetUrl } from '../../providers/reader/page-rules'
import { keyOf, type Caller } from '../caller'
import { chargeRequest, refuseReusedRequestId } from '../search/charge'
import { TokenMeter } from '../search/meter'
import { cachedOrRead } from './page-cache'

/** How the reader's usage is named in the ledger and the usage tab. */
export const READER_MODEL = 'reader-readability-turndown'

export interface ReadCall {
  /** The URL as the caller wrote it. */
  target: string
  headers: ReaderHeaders
  /** Ends the read when the caller goes away. */
  signal?: AbortSignal
}

/**
 * The caller's key when it sent one (already checked and limited by the endpoint). A key with nothing left,
 * or a request id the key already spent on an answer, is refused before any page is fetched: the read would
 * cost work nobody pays for.
 */
async function payerOf(caller: Caller): Promise<{ db: Db; key: ApiKey } | undefined> {
  if (caller.presentedKey === undefined) return undefined
  const payer = await keyOf(caller, 'reader')
  if (payer.key.balance <= 0) throw new InsufficientBalance()
  await refuseReusedRequestId(payer.db, payer.key)
  return payer
}

/**
 * GET /r/{url}, POST /r: one page, converted as the headers ask. Without a key it is free (20 requests a
 * minute per address); with one, its output tokens are charged once the page is converted and before it
 * is answered (402 when the key cannot pay them, and nothing is answered).
 */
export async function readForCaller(caller: Caller, call: ReadCall): Promise<{ page: ReaderPage; cached: boolean }> {
  const url = targetUrl(call.target)
  const payer = await payerOf(caller)
  const db = payer?.db ?? (await getDb())
  const { page, cached } = await cachedOrRead(db, serverEnv(), url, call.headers, { signal: call.signal })
  if (payer)
    await chargeRequest(payer.db, payer.key, { tokens: page.usage.tokens, product: 'reader', model: READER_MODEL })
  return { page, cached }
}

/**
 * The same read as an event stream: `send` gets the page converted so far while it downloads, then the whole
 * page, each snapshot completer than the last. A keyed caller pays for the largest snapshot sent, covered
 * before it is sent; a key that runs out stops the stream with 402 before the snapshot it cannot pay for.
 */
export async function streamForCaller(
  caller: Caller,
  call: ReadCall,
  send: (page: ReaderPage) => Promise<void>,
): Promise<{ cached: boolean }> {
  const url = targetUrl(call.target)
  const payer = await payerOf(caller)
  const meter = payer && new TokenMeter(payer.db, payer.key, { product: 'reader', model: READER_MODEL })
  let delivered = 0
  const deliver = async (page: ReaderPage) => {
    const covered = Math.max(delivered, page.usage.tokens)
    await meter?.cover(covered)
    await send(page)
    delivered = covered
  }
  try {
    const db = payer?.db ?? (await getDb())
    const { page, cached } = await cachedOrRead(db, serverEnv(), url, call.headers, {
      signal: call.signal,
      onPartial: deliver,
    })
    await deliver(page)
    return { cached }
  } finally {
    await meter?.settle(delivered)
  }
}
