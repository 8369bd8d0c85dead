import type { ReaderAnswerPage, ReaderHeaders, ReaderPage, ReturnFormat, ReturnFormats } from '~/contracts/reader'
import { getDb } from '../../db/client'
import type { Db } from '../../db/types'
import type { ApiKey } from '../../domain/keys'
import { refuseKeyUse } from '../../domain/key-controls'
import { InsufficientBalance, PageNotRead } from '../../domain/refusals'
import { serverEnv } from '../../env'
import { targetUrl } from '../../providers/reader/page-rules'
import { convertGiven, type GivenPage, type ReadRequest } from '../../providers/reader/read-page'
import { readerBrowserSeconds } from '#config'
import { keyOf, type Caller } from '../caller'
import { tierOf } from '../rate-limit'
import { chargeRequest, refuseReusedRequestId } from '../search/charge'
import { TokenMeter } from '../search/meter'
import { cachedOrRead, type PageRead } from './page-cache'
import { readRequestOf, type BodyOptions } from './read-options'
import { storeShot } from './shots'
import { answerPageOf, type FormatRead } from './answer-page'

export { SHOT_TOKENS } from './answer-page'

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

/** The key a read is paid by, and its database. */
export interface Payer {
  db: Db
  key: ApiKey
}

/**
 * The caller's key when it sent one (already checked and limited by the endpoint). A key with nothing left,
 * or a request id the key already spent on an answer, is refused before any page is fetched: the read would
 * cost work nobody pays for.
 */
export async function payerOf(caller: Caller): Promise<Payer | undefined> {
  if (caller.presentedKey === undefined) return undefined
  const payer = await keyOf(caller, 'reader')
  refuseKeyUse(payer.key, { product: 'reader' })
  if (payer.key.balance <= 0) throw new InsufficientBalance()
  await refuseReusedRequestId(caller, payer.db, payer.key)
  return payer
}

/**
 * Whose browser time a read is, its key's or its address's without one (`ReadRequest.caller`), and how much
 * of it there is a minute: the key tier's `readerBrowserSeconds` (app.config).
 */
function browserCaller(
  caller: Caller,
  payer: { key: ApiKey } | undefined,
): Pick<ReadRequest, 'caller' | 'browserSeconds'> {
  return payer
    ? { caller: `key:${payer.key.id}`, browserSeconds: readerBrowserSeconds[tierOf(payer.key)] }
    : { caller: `address:${caller.network}`, browserSeconds: readerBrowserSeconds.anonymous }
}

/** What the reader answers: the page in the original's shape, whether it came from the cache, and which engine read it. */
export interface ReaderRead {
  page: ReaderAnswerPage
  cached: boolean
  engine?: 'direct' | 'browser'
}

type PageRequest = ReturnType<typeof readRequestOf>

/**
 * The request for each text format asked for (the original's compound `markdown,html`): the first as asked,
 * the others without the summaries (answered once, from the first) and without the screenshots.
 */
function formatRequests(request: PageRequest): Array<{ format: ReturnFormat; request: PageRequest }> {
  const texts = request.formats.textNamed ? request.formats.texts : [request.formats.text]
  return texts.map((format, index) => ({
    format,
    request:
      index === 0
        ? request
        : {
            ...request,
            convert: { ...request.convert, format, withLinks: false, withImages: false },
            render: { ...request.render, screenshot: false, pageshot: false },
          },
  }))
}

/** Reads the page once per text format asked for (each cached on its own), the first one's screenshots stored. */
async function readFormats(
  request: PageRequest,
  read: (request: PageRequest, first: boolean) => Promise<PageRead>,
): Promise<{ reads: FormatRead[]; cached: boolean; shots: { screenshotUrl?: string; pageshotUrl?: string } }> {
  const reads: FormatRead[] = []
  let cached = true
  const shots: { screenshotUrl?: string; pageshotUrl?: string } = {}
  for (const [index, part] of formatRequests(request).entries()) {
    const result = await read(part.request, index === 0)
    cached &&= result.cached
    reads.push({ format: part.format, page: result.page })
    if (result.screenshot) shots.screenshotUrl = await storeShot(result.screenshot, 'screenshot')
    if (result.pageshot) shots.pageshotUrl = await storeShot(result.pageshot, 'pageshot')
  }
  return { reads, cached, shots }
}

/**
 * GET /r/{url}, POST /r: one page, converted as the headers ask (in each text format asked for). Without a key
 * it is free (20 requests a minute per address); with one, its output tokens are charged once the page is
 * converted and before it is answered (402 when the key cannot pay them, and nothing is answered).
 */
export async function readForCaller(caller: Caller, call: ReadCall): Promise<ReaderRead> {
  // Options this server refuses are refused before anything is charged or fetched.
  const request = readRequestOf(call.headers, serverEnv(), call.body)
  const url = call.given ? givenUrl(call.target) : targetUrl(call.target)
  if (call.given) refuseBrowserFor(request)
  const payer = await payerOf(caller)
  const read = await readUncharged(caller, payer, call, { request, url })
  refuseOverBudget(read.page, call.headers['x-token-budget'])
  if (payer)
    await chargeRequest(caller, payer.db, payer.key, {
      tokens: read.page.usage.tokens,
      product: 'reader',
      model: READER_MODEL,
    })
  return read
}

/**
 * One page read as the reader reads it (its options, address rules, cache, formats and screenshots), not
 * charged: for a caller that charges the reads it makes as one request (the search endpoint). `payer` is the
 * key whose browser time the read is (none: the caller's address's).
 */
export async function readUncharged(
  caller: Caller,
  payer: Payer | undefined,
  call: ReadCall,
  checked?: { request: PageRequest; url: URL },
): Promise<ReaderRead> {
  const env = serverEnv()
  const request = checked?.request ?? readRequestOf(call.headers, env, call.body)
  const url = checked?.url ?? (call.given ? givenUrl(call.target) : targetUrl(call.target))
  if (call.given && !checked) refuseBrowserFor(request)
  const db = payer?.db ?? (await getDb())
  const { reads, cached, shots } = await readFormats(request, async (part) =>
    call.given
      ? { page: await convertGiven(call.given, url.href, part, { signal: call.signal }), cached: false }
      : cachedOrRead(db, env, url, call.headers, {
          signal: call.signal,
          request: { ...part, ...browserCaller(caller, payer) },
        }),
  )
  const page = answerPageOf(reads, request.formats, call.headers, shots)
  return { page, cached, engine: reads[0].page.engine }
}

/**
 * The same read as an event stream: `send` gets the page converted so far while it downloads (one text format
 * asked for), then the whole page, each snapshot completer than the last. A keyed caller pays for the largest
 * snapshot sent, covered before it is sent; a key that runs out stops the stream with 402 before the snapshot
 * it cannot pay for.
 */
export async function streamForCaller(
  caller: Caller,
  call: ReadCall,
  send: (page: ReaderAnswerPage) => Promise<void>,
): Promise<{ cached: boolean }> {
  const env = serverEnv()
  const request = readRequestOf(call.headers, env, call.body)
  const url = call.given ? givenUrl(call.target) : targetUrl(call.target)
  if (call.given) refuseBrowserFor(request)
  const payer = await payerOf(caller)
  const meter = payer && new TokenMeter(caller, payer.db, payer.key, { product: 'reader', model: READER_MODEL })
  let delivered = 0
  const deliver = async (page: ReaderAnswerPage) => {
    refuseOverBudget(page, call.headers['x-token-budget'])
    const covered = Math.max(delivered, page.usage.tokens)
    await meter?.cover(covered)
    await send(page)
    delivered = covered
  }
  const single = formatRequests(request).length === 1
  const partial = async (page: ReaderPage) =>
    deliver(answerPageOf([{ format: request.formats.text, page }], request.formats, call.headers))
  try {
    const db = payer?.db ?? (await getDb())
    const { reads, cached, shots } = await readFormats(request, async (part, first) =>
      call.given
        ? { page: await convertGiven(call.given, url.href, part, { signal: call.signal }), cached: false }
        : cachedOrRead(db, env, url, call.headers, {
            signal: call.signal,
            // Snapshots while the page downloads: of a text read alone (a screenshot comes with the whole page).
            onPartial: first && single && request.formats.textNamed ? partial : undefined,
            request: { ...part, ...browserCaller(caller, payer) },
          }),
    )
    await deliver(answerPageOf(reads, request.formats, call.headers, shots))
    return { cached }
  } finally {
    await meter?.settle(delivered)
  }
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

/** X-Token-Budget: a page whose output would cost more is refused with 409 before anything is charged. */
function refuseOverBudget(page: ReaderAnswerPage, budget: number | undefined): void {
  refuseOverTokenBudget(page.usage.tokens, budget, 'The page')
}

/** X-Token-Budget: an answer (`what`) that would cost more is refused with 409 before anything is charged. */
export function refuseOverTokenBudget(tokens: number, budget: number | undefined, what: string): void {
  if (budget !== undefined && tokens > budget)
    throw new PageNotRead(
      'budget',
      `${what} would cost ${tokens} tokens, more than X-Token-Budget (${budget}); nothing was charged`,
    )
}
