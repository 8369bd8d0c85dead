import type { ReaderHeaders } from '~/contracts/reader'
import { searchLimits, type SearchHeaders, type SearchResultItem } from '~/contracts/web-search'
import { InvalidInput, isRefusal, NoSearchResults } from '../../domain/refusals'
import { serverEnv } from '../../env'
import { errorFields, log } from '../../log'
import type { SearchQuery, SearchResult } from '../../providers/search/engine'
import { webSearchEngine } from '../../providers/search/select'
import { siteName } from '../../providers/search/sites'
import type { Caller } from '../caller'
import { payerOf, readUncharged, refuseOverTokenBudget, type Payer } from '../reader/read'
import { readRequestOf, returnFormatsOf } from '../reader/read-options'
import { chargeRequest } from '../search/charge'
import { TokenMeter } from '../search/meter'
import { readInRankOrder, type ResultRead } from './read-results'

/** How search is named in the ledger and the usage tab: the reader's product, as the original bills it. */
export const SEARCH_PRODUCT = 'reader'
export const SEARCH_MODEL = 'reader-search'

/** A search as the endpoint parsed it: the query, and the reader's options for each result's read. */
export interface SearchCall {
  q: string
  count?: number
  sites: string[]
  type?: 'web' | 'news'
  gl?: string
  hl?: string
  page?: number
  headers: SearchHeaders
}

/** What a search answers: the results in the original's shape and the tokens the request is charged. */
export interface SearchOutcome {
  results: SearchResultItem[]
  tokens: number
}

/** What a search reads with: the query for the engine, the reader's headers, and whether to read at all. */
interface Plan {
  query: SearchQuery
  noContent: boolean
  headers: ReaderHeaders
  textFormat: boolean
}

/** `no-content` taken out of the formats the reader is asked for; nothing left: the reader's default. */
function withoutNoContent(formats: string[] | undefined): string[] | undefined {
  const rest = formats?.filter((format) => format !== 'no-content')
  return rest?.length ? rest : undefined
}

/**
 * The search the call asks for, its options checked as the reader checks them before anything is searched,
 * fetched or charged. `count` is clamped to searchLimits.maxCount; each read waits at most X-Timeout seconds
 * (searchLimits.readTimeoutSeconds by default).
 */
function planOf(call: SearchCall): Plan {
  const q = call.q.trim()
  if (!q) throw new InvalidInput([{ loc: ['path', 'q'], msg: 'must name what to search for', type: 'missing' }])
  const noContent = [call.headers['x-respond-with'], call.headers['x-return-format']].some((formats) =>
    formats?.includes('no-content'),
  )
  const headers: ReaderHeaders = {
    ...call.headers,
    'x-respond-with': withoutNoContent(call.headers['x-respond-with']),
    'x-return-format': withoutNoContent(call.headers['x-return-format']),
    'x-timeout': call.headers['x-timeout'] ?? searchLimits.readTimeoutSeconds,
  }
  // Refuses what the reader refuses (a model format, a bad proxy) before the engine is asked.
  readRequestOf(headers, serverEnv())
  const sites = [...new Set([...call.sites, ...(call.headers['x-site'] ?? [])].map(siteName).filter(Boolean))]
  const count = Math.min(call.count ?? searchLimits.defaultCount, searchLimits.maxCount)
  return {
    query: { q, count, sites, type: call.type ?? 'web', gl: call.gl, hl: call.hl, page: call.page },
    noContent,
    headers,
    textFormat: returnFormatsOf(headers).texts.some((format) => format === 'content' || format === 'markdown'),
  }
}

/** A result listed without being read (`no-content`). */
const listed = (result: SearchResult): SearchResultItem => ({
  title: result.title,
  url: result.url,
  description: result.description,
  ...(result.publishedTime && { publishedTime: result.publishedTime }),
})

/** A result answered as its page was read: the page's own title, the engine's description, the reader's fields. */
function answered(outcome: ResultRead<SearchResult, SearchResultItem>, textFormat: boolean): SearchResultItem {
  const { result, page } = outcome
  if (!page) return { ...listed(result), ...(textFormat && { content: '' }), usage: { tokens: 0 } }
  return {
    ...page,
    title: page.title || result.title,
    description: result.description || page.description,
    ...(!page.publishedTime && result.publishedTime && { publishedTime: result.publishedTime }),
  }
}

/** The tokens a search is charged: its results' tokens, and never less than searchLimits.minTokens. */
export function searchTokens(results: SearchResultItem[], noContent: boolean): number {
  if (noContent) return searchLimits.minTokens
  const content = results.reduce((sum, result) => sum + (result.usage?.tokens ?? 0), 0)
  return Math.max(searchLimits.minTokens, content)
}

/** Asks the engine for the results to read: a few spare ones beyond `count` stand in for unreadable ones. */
async function resultsOf(plan: Plan): Promise<SearchResult[]> {
  const spare = plan.noContent ? 0 : searchLimits.spareResults
  const found = await webSearchEngine().search({ ...plan.query, count: plan.query.count + spare })
  if (found.length === 0) throw new NoSearchResults(plan.query.q)
  return found
}

/** Reads one result through the reader (its address rules, options, cache); a page it cannot read is unread. */
function resultReader(caller: Caller, payer: Payer | undefined, plan: Plan, signal: AbortSignal | undefined) {
  return async (result: SearchResult): Promise<SearchResultItem | undefined> => {
    try {
      const { page } = await readUncharged(caller, payer, { target: result.url, headers: plan.headers, signal })
      return page
    } catch (error) {
      signal?.throwIfAborted()
      if (!isRefusal(error))
        log('warn', 'search result not read', { url: new URL(result.url).origin, error: errorFields(error) })
      return undefined
    }
  }
}

/**
 * GET /s/{query}, POST /s: the engine's top results, each read through the reader at most
 * searchLimits.readsAtOnce at a time, answered once all are read. Without a key it is free (limited per
 * address); with one, the request is charged once, after the reads and before the answer: the results'
 * tokens, at least searchLimits.minTokens (402 when the key cannot pay, and nothing is answered).
 */
export async function searchForCaller(caller: Caller, call: SearchCall, signal?: AbortSignal): Promise<SearchOutcome> {
  const plan = planOf(call)
  const payer = await payerOf(caller)
  const found = await resultsOf(plan)
  const results = plan.noContent
    ? found.slice(0, plan.query.count).map(listed)
    : (
        await readInRankOrder(
          found,
          plan.query.count,
          searchLimits.readsAtOnce,
          resultReader(caller, payer, plan, signal),
        )
      ).map((outcome) => answered(outcome, plan.textFormat))
  const tokens = searchTokens(results, plan.noContent)
  refuseOverTokenBudget(tokens, call.headers['x-token-budget'], 'The search')
  if (payer) await chargeRequest(caller, payer.db, payer.key, { tokens, product: SEARCH_PRODUCT, model: SEARCH_MODEL })
  caller.requestLog?.noteModel(SEARCH_MODEL)
  return { results, tokens }
}

/**
 * The same search as an event stream, as the original streams it: `send` gets the results read so far (in
 * rank order) each time another is read, then all of them. The query, the key and the engine's results are
 * checked first (so their refusals are plain answers); the stream then reads. A keyed caller pays through a
 * meter: the minimum before the first snapshot, and each snapshot's tokens before it leaves; what was reserved
 * and not answered is given back at the end.
 */
export async function prepareSearchStream(
  caller: Caller,
  call: SearchCall,
): Promise<
  (send: (results: SearchResultItem[], tokens: number) => Promise<void>, signal?: AbortSignal) => Promise<void>
> {
  const plan = planOf(call)
  const payer = await payerOf(caller)
  const found = await resultsOf(plan)
  return (send, signal) => streamResults(caller, call, plan, payer, found, send, signal)
}

async function streamResults(
  caller: Caller,
  call: SearchCall,
  plan: Plan,
  payer: Payer | undefined,
  found: SearchResult[],
  send: (results: SearchResultItem[], tokens: number) => Promise<void>,
  signal: AbortSignal | undefined,
): Promise<void> {
  const meter = payer && new TokenMeter(caller, payer.db, payer.key, { product: SEARCH_PRODUCT, model: SEARCH_MODEL })
  caller.requestLog?.noteModel(SEARCH_MODEL)
  let delivered = 0
  const deliver = async (results: SearchResultItem[]) => {
    const tokens = Math.max(delivered, searchTokens(results, plan.noContent))
    refuseOverTokenBudget(tokens, call.headers['x-token-budget'], 'The search')
    await meter?.cover(tokens)
    await send(results, tokens)
    delivered = tokens
  }
  try {
    if (plan.noContent) return await deliver(found.slice(0, plan.query.count).map(listed))
    let last: unknown[] = []
    const snapshot = (outcomes: Array<ResultRead<SearchResult, SearchResultItem>>) => {
      last = outcomes
      return deliver(outcomes.map((outcome) => answered(outcome, plan.textFormat)))
    }
    const all = await readInRankOrder(
      found,
      plan.query.count,
      searchLimits.readsAtOnce,
      resultReader(caller, payer, plan, signal),
      snapshot,
    )
    // The last snapshot already held every result unless some could not be read (or none could).
    if (all.length !== last.length || all.some((outcome, i) => outcome !== last[i])) await snapshot(all)
  } finally {
    await meter?.settle(delivered)
  }
}
