import { rateLimitTiers } from '#config'
import { searchHeaders, searchLimits, type SearchHeaders, type SearchResultItem } from '~/contracts/web-search'
import { linkPairs } from '../providers/reader/convert/summaries'
import type { Caller } from '../api/caller'
import { prepareSearchStream, searchForCaller, type SearchCall } from '../api/web-search/search'
import type { EndpointHandler } from './endpoint'
import { jsonResponse, publicAnswer } from './errors'
import { eventStreamResponse } from './event-stream'
import { readerErrorBody, readerMediaTypeOf } from './reader-answers'

/** One result as the original's text answer writes it: each line numbered `[n]`, the Markdown under its label. */
function resultText(result: SearchResultItem, n: number): string {
  const line = (label: string, value: string) => `[${n}] ${label}: ${value}`
  const head = [line('Title', result.title), line('URL Source', result.url)]
  if (result.description) head.push(line('Description', result.description))
  if (result.publishedTime) head.push(line('Published Time', result.publishedTime))
  if (result.warning) head.push(line('Warning', result.warning))
  const read = result.content || result.html || result.text || result.screenshotUrl || result.pageshotUrl
  // A result listed (`no-content`) or not read: its title, URL and description, as the original lists it.
  if (!read) return `${head.join('\n')}\n`
  const sections: string[] = []
  if (result.screenshotUrl) head.push(line('Screenshot', result.screenshotUrl))
  if (result.pageshotUrl) head.push(line('Pageshot', result.pageshotUrl))
  if (result.content !== undefined) sections.push(`[${n}] Markdown Content:\n${result.content}`)
  if (result.html !== undefined) sections.push(`[${n}] HTML:\n${result.html}`)
  if (result.text !== undefined) sections.push(`[${n}] Text:\n${result.text}`)
  const summaries: string[] = []
  if (result.images)
    summaries.push(
      [`[${n}] Images:`, ...Object.entries(result.images).map(([alt, src]) => `- ![${alt}](${src})`)].join('\n'),
    )
  if (result.links)
    summaries.push(
      [`[${n}] Links/Buttons:`, ...linkPairs(result.links).map(([text, href]) => `- [${text}](${href})`)].join('\n'),
    )
  const tail = summaries.length ? `\n\n${summaries.join('\n')}\n` : ''
  return `${head.join('\n')}\n${sections.join('\n')}\n${tail}`
}

/** The text answer: every result's block, separated by a blank line, as the original writes them. */
export function searchText(results: SearchResultItem[]): string {
  return `${results
    .map((result, i) => resultText(result, i + 1))
    .join('\n\n')
    .trimEnd()}\n`
}

/** Searches for the caller and answers in the format `Accept` asks for: text (default), JSON or an event stream. */
export async function searchAnswer(request: Request, caller: Caller, call: SearchCall): Promise<Response> {
  const mediaType = readerMediaTypeOf(request.headers.get('accept'))
  if (mediaType === 'text/event-stream') {
    const stream = await prepareSearchStream(caller, call)
    return eventStreamResponse(
      (sink) => stream(async (results) => sink.send({ event: 'data', data: JSON.stringify(results) }), sink.signal),
      (error) => ({ event: 'error', data: JSON.stringify(readerErrorBody(publicAnswer(error), error)) }),
      { signal: request.signal },
    )
  }
  const { results, tokens } = await searchForCaller(caller, call, request.signal)
  const headers = { 'x-usage-tokens': String(tokens) }
  if (mediaType === 'application/json')
    return jsonResponse({ code: 200, status: 20000, data: results, meta: { usage: { tokens } } }, { headers })
  return new Response(searchText(results), {
    headers: { ...headers, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  })
}

/** The query of `/s/{query}` as sent: `+` is a space (`/s/reranker+v3`), the rest percent-decoded. */
export function queryOfPath(request: Request): string {
  const rest = new URL(request.url).pathname.replace(/^\/s\/?/, '').replaceAll('+', ' ')
  try {
    return decodeURIComponent(rest)
  } catch {
    return rest
  }
}

/** The fields of a query string or body that a search takes, with the path's query when the fields name none. */
export function searchCallOf(
  fields: {
    q?: string
    count?: number
    num?: number
    type?: 'web' | 'news'
    gl?: string
    hl?: string
    page?: number
    site?: string | string[]
  },
  headers: SearchHeaders,
  pathQuery = '',
): SearchCall {
  return {
    q: fields.q || pathQuery,
    count: fields.num ?? fields.count,
    sites: fields.site === undefined ? [] : [fields.site].flat(),
    type: fields.type,
    gl: fields.gl,
    hl: fields.hl,
    page: fields.page,
    headers,
  }
}

const searchDescription = `Searches the web (this server's \`SEARCH_ENGINE\`: \`builtin\`, this site's own pages, or \`upstream\`, a SearXNG-style API) and answers the top results, each read through the reader with the reader's headers, address rules and cache, ${searchLimits.readsAtOnce} at a time. By \`Accept\`: \`text/plain\` (default) as "[1] Title: …\\n[1] URL Source: …\\n[1] Description: …\\n[1] Markdown Content:\\n…" blocks, \`application/json\` as \`{code, status, data: [{title, url, description, content, usage}], meta: {usage: {tokens}}}\`, \`text/event-stream\` as \`data\` events, each the results read so far. \`count\` (or \`num\`): results, ${searchLimits.defaultCount} by default, at most ${searchLimits.maxCount} (more is clamped); \`site\` (repeatable) or \`X-Site\` (comma-separated) keeps to those sites; \`type\`: \`web\` or \`news\`; \`gl\`, \`hl\` go to the upstream engine; \`X-Respond-With: no-content\` lists the results without reading them. A result that cannot be read is replaced by one of ${searchLimits.spareResults} spare results, else answered without content. Free without a key (${rateLimitTiers.search.anonymous} searches a minute per address); with a key each search is charged once: its results' output tokens, at least ${searchLimits.minTokens.toLocaleString('en-US')} (\`no-content\`: ${searchLimits.minTokens.toLocaleString('en-US')}). No result: 422.`

/** What GET /s/{query} and POST /s share: their documentation, headers, answers and refusals. */
export const searchSpec: Pick<
  EndpointHandler['spec'],
  'description' | 'auth' | 'limit' | 'metered' | 'group' | 'alternatives' | 'errors' | 'errorBody'
> & { headers: typeof searchHeaders } = {
  description: searchDescription,
  auth: 'key-optional',
  limit: 'search',
  metered: 'reader',
  group: 'v1',
  headers: searchHeaders,
  alternatives: [
    { mediaType: 'text/plain', description: 'The results as numbered text blocks (the default answer)' },
    { mediaType: 'text/event-stream', description: '`data` events, each the JSON list of the results read so far' },
  ],
  errors: [401, 402, 403, 409, 422, 429, 502, 504],
  errorBody: readerErrorBody,
}
