import type { ReaderHeaders, ReaderPage, ReturnFormats } from '~/contracts/reader'
import { getDb } from '../../db/client'
import type { Db } from '../../db/types'
import type { ApiKey } from '../../domain/keys'
import { refuseKeyUse } from '../../domain/key-controls'
import { InsufficientBalance, PageNotRead } from '../../domain/refusals'
import { serverEnv } from '../../env'
import { targetUrl } from '../../providers/reader/page-rules'
import { convertGiven, type GivenPage, type ReadRequest } from '../../providers/reader/read-page'
import { keyOf, type Caller } from '../caller'
import { chargeRequest, refuseReusedRequestId } from '../search/charge'
import { TokenMeter } from '../search/meter'
import { cachedOrRead, type PageRead } from './page-cache'
import { readRequestOf, type BodyOptions } from './read-options'
import { storeShot } from './shots'

/** How the reader's usage is named in the ledger and the usage tab. */
export const READER_MODEL = 'reader-readability-turndown'

export interface ReadCall {
  /** The URL as the caller wrote it. */
  target: string
  headers: ReaderHeaders
  /** What a POST body adds to the headers. */
  body?: BodyOptions
  /** The page itself, sent in the body: converted without fetching (`target`, when given, is where it came from). */
  given?: GivenPage
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
  refuseKeyUse(payer.key, { product: 'reader' })
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
  const env = serverEnv()
  // Options this server refuses are refused before anything is charged or fetched.
  const request = readRequestOf(call.headers, env, call.body)
  const url = call.given ? givenUrl(call.target) : targetUrl(call.target)
  if (call.given) refuseBrowserFor(request)
  const payer = await payerOf(caller)
  const db = payer?.db ?? (await getDb())
  const read = call.given
    ? { page: await convertGiven(call.given, url.href, request, { signal: call.signal }), cached: false }
    : await cachedOrRead(db, env, url, call.headers, { signal: call.signal, request })
  const { page, cached } = { page: await withShots(read, request.formats), cached: read.cached }
  refuseOverBudget(page, call.headers['x-token-budget'])
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
  const env = serverEnv()
  const request = readRequestOf(call.headers, env, call.body)
  const url = call.given ? givenUrl(call.target) : targetUrl(call.target)
  if (call.given) refuseBrowserFor(request)
  const payer = await payerOf(caller)
  const meter = payer && new TokenMeter(payer.db, payer.key, { product: 'reader', model: READER_MODEL })
  let delivered = 0
  const deliver = async (page: ReaderPage) => {
    refuseOverBudget(page, call.headers['x-token-budget'])
    const covered = Math.max(delivered, page.usage.tokens)
    await meter?.cover(covered)
    await send(page)
    delivered = covered
  }
  try {
    const db = payer?.db ?? (await getDb())
    const read = call.given
      ? { page: await convertGiven(call.given, url.href, request, { signal: call.signal }), cached: false }
      : await cachedOrRead(db, env, url, call.headers, { signal: call.signal, onPartial: deliver, request })
    await deliver(await withShots(read, request.formats))
    return { cached: read.cached }
  } finally {
    await meter?.settle(delivered)
  }
}

/**
 * Tokens a screenshot or pageshot is charged, each: an image has no output tokens, and rendering it is the
 * costliest thing the reader does (README, "Reader": metering).
 */
export const SHOT_TOKENS = 1000

/** The page as answered: its screenshots stored and linked, their tokens added; without a text format, no content. */
async function withShots(read: PageRead, formats: ReturnFormats): Promise<ReaderPage> {
  const page = { ...read.page }
  let shots = 0
  if (read.screenshot) {
    page.screenshotUrl = await storeShot(read.screenshot, 'screenshot')
    shots++
  }
  if (read.pageshot) {
    page.pageshotUrl = await storeShot(read.pageshot, 'pageshot')
    shots++
  }
  if (!formats.textNamed) page.content = ''
  const text = formats.textNamed ? read.page.usage.tokens : 0
  page.usage = { tokens: text + shots * SHOT_TOKENS }
  return page
}

/** Where a page sent in the body counts as coming from: the `url` given with it, else nowhere in particular. */
function givenUrl(target: string): URL {
  return target ? targetUrl(target) : new URL('about:blank')
}

/** A page sent in the body is converted as it is: the browser engine (and its screenshots) reads pages by URL. */
function refuseBrowserFor(request: ReadRequest & { formats: ReturnFormats }): void {
  if (request.engine === 'browser' || request.formats.screenshot || request.formats.pageshot)
    throw new PageNotRead(
      'option',
      'The browser engine and screenshots read pages by URL: send url, not html, pdf or file, to use them',
    )
}

/** X-Token-Budget: a page whose output would cost more is refused with 422 before anything is charged. */
function refuseOverBudget(page: ReaderPage, budget: number | undefined): void {
  if (budget !== undefined && page.usage.tokens > budget)
    throw new PageNotRead(
      'option',
      `The page would cost ${page.usage.tokens} tokens, more than X-Token-Budget (${budget}); nothing was charged`,
    )
}
