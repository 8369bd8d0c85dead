import { readerLimits, type ReaderMediaType, type ReaderPage, type ReturnFormats } from '~/contracts/reader'
import { readForCaller, streamForCaller, type ReadCall } from '../api/reader/read'
import { returnFormatsOf } from '../api/reader/read-options'
import type { Caller } from '../api/caller'
import { summaryText } from '../providers/reader/convert/summaries'
import type { EndpointHandler } from './endpoint'
import { jsonResponse, publicAnswer } from './errors'
import { eventStreamResponse } from './event-stream'

/** The answer format `Accept` asks for: an event stream or JSON when it names them, plain text otherwise. */
export function readerMediaTypeOf(accept: string | null): ReaderMediaType {
  const types = (accept ?? '').split(',').map((part) => part.split(';')[0].trim().toLowerCase())
  if (types.includes('text/event-stream')) return 'text/event-stream'
  if (types.includes('application/json')) return 'application/json'
  return 'text/plain'
}

/**
 * The plain-text answer. Markdown (`content`, `markdown`) comes under a header block naming the page, the
 * format existing clients of this API read; `html` and `text` come as they are, ready to pipe on.
 */
export function readerText(page: ReaderPage, formats: ReturnFormats): string {
  const summaries = summaryText(page.links, page.images)
  const tail = summaries ? `\n\n${summaries}` : ''
  const shots = [page.screenshotUrl, page.pageshotUrl].filter(Boolean).join('\n')
  // Only images asked for: their links, one a line, as the original answers them.
  if (!formats.textNamed) return shots
  const shotLines = [
    page.screenshotUrl && `Screenshot: ${page.screenshotUrl}`,
    page.pageshotUrl && `Pageshot: ${page.pageshotUrl}`,
  ].filter(Boolean)
  const shotTail = shotLines.length ? `\n\n${shotLines.join('\n')}` : ''
  if (formats.text === 'html' || formats.text === 'text') return `${page.content}${tail}${shotTail}`
  const lines = [`Title: ${page.title}`, `URL Source: ${page.url}`]
  if (page.publishedTime) lines.push(`Published Time: ${page.publishedTime}`)
  return `${lines.join('\n\n')}\n\nMarkdown Content:\n${page.content}${tail}${shotTail}`
}

/** Reads the page for the caller and answers in the format `Accept` asked for. */
export async function readerAnswer(caller: Caller, call: Omit<ReadCall, 'signal'>): Promise<Response> {
  const { request } = caller
  const mediaType = readerMediaTypeOf(request.headers.get('accept'))
  if (mediaType === 'text/event-stream') {
    return eventStreamResponse(
      async (sink) => {
        await streamForCaller(caller, { ...call, signal: sink.signal }, async (page) =>
          sink.send({ event: 'data', data: JSON.stringify(page) }),
        )
      },
      (error) => {
        const { status, detail } = publicAnswer(error)
        return { event: 'error', data: JSON.stringify({ code: status, detail }) }
      },
      { signal: request.signal },
    )
  }
  const { page, cached } = await readForCaller(caller, { ...call, signal: request.signal })
  const headers: Record<string, string> = { 'x-cache': cached ? 'hit' : 'miss' }
  if (page.engine) headers['x-engine'] = page.engine
  if (mediaType === 'application/json') return jsonResponse({ code: 200, status: 20000, data: page }, { headers })
  return new Response(readerText(page, returnFormatsOf(call.headers)), {
    headers: { ...headers, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  })
}

/** The URL after `/r/` as sent, with the request's query (which belongs to the page); an encoded one is decoded. */
export function targetOfPath(request: Request): string {
  const url = new URL(request.url)
  const rest = `${url.pathname.replace(/^\/r\/?/, '')}${url.search}`
  return /^https?%3A/i.test(rest) ? decodeURIComponent(rest) : rest
}

const readerDescription = `Fetches the page (or converts the \`html\`, \`pdf\` or \`file\` a POST body carries) and answers it by \`Accept\`: \`text/plain\` (default) as "Title: …\\n\\nURL Source: …\\n\\nMarkdown Content:\\n…", \`application/json\` as \`{code, status, data}\`, or \`text/event-stream\` as \`data\` events, each a completer snapshot of the page (an \`error\` event ends a stream that failed after it began). \`X-Return-Format\` (or \`X-Respond-With\`): \`content\` (default: the Readability article when it holds at least 0.3 of the page's Markdown, else the whole page), \`markdown\` (the whole page), \`html\` or \`text\`, with \`screenshot\` and/or \`pageshot\` beside it (signed PNG links valid 24 hours, 1,000 tokens each); \`readerlm-v2\` and \`vlm\` are refused with 422. \`X-Engine\`: \`direct\` (default), \`browser\` (Chromium, with \`X-Wait-For-Selector\`, \`X-Respond-Timing\`, \`X-With-Iframe\`, \`X-With-Shadow-Dom\`, \`viewport\`), or \`auto\` (the browser when the direct read yields under 200 characters); 501 when the server has no Chromium. PDFs are read as Markdown with headings and \`pages\`. Only public http(s) addresses are fetched (403 otherwise), by the browser too, with up to 5 redirects, 10 MiB and \`X-Timeout\` seconds (default 30, at most 180); an HTML page with more than ${readerLimits.maxNodes.toLocaleString('en-US')} elements, attributes and comments or nested more than ${readerLimits.maxDepth} levels deep is refused with 422, and one that takes longer to convert than the server's limit (15 s by default) with 504. \`X-Robots-Txt\` obeys the origin's robots.txt for that agent (403), \`X-Token-Budget\` refuses a page that would cost more (422, nothing charged), \`X-Max-Output-Tokens\` cuts the content; the \`X-Md-*\`, \`X-No-Gfm\`, \`X-Retain-Images\` and \`X-Keep-Img-Data-Url\` headers shape the Markdown; \`X-With-Links-Summary\` and \`X-With-Images-Summary\` add \`links\` and \`images\` (\`true\`: each link once, the answered content's images; \`all\`: every link of the page as \`[text, url]\` pairs, duplicates kept, and every image of the page); \`X-Proxy-Url\` (\`http://\`, \`https://\` or \`socks5://\`, credentials in the URL) sends every request of the read through that proxy, whose address must be public too (403 otherwise); \`X-Proxy\` and \`X-With-Generated-Alt\` are refused with 422. Converted pages are cached for an hour (\`X-Cache: hit\`) unless \`X-No-Cache: true\`, \`X-Cache-Tolerance\` or \`DNT: 1\`. Free without a key (20 requests a minute per address); with a key, the output tokens are charged (402 when the key cannot pay them).`

/** What GET /r/{url} and POST /r share: their documentation, headers, answers and refusals. */
export const readerSpec: Pick<
  EndpointHandler['spec'],
  'description' | 'auth' | 'limit' | 'metered' | 'group' | 'alternatives' | 'errors'
> = {
  description: readerDescription,
  auth: 'key-optional',
  limit: 'reader',
  metered: 'reader',
  group: 'v1',
  alternatives: [
    { mediaType: 'text/plain', description: 'The page as text (the default answer)' },
    {
      mediaType: 'text/event-stream',
      description: '`data` events, each a JSON snapshot shaped like `data` of the JSON answer',
    },
  ],
  errors: [401, 402, 403, 409, 422, 429, 501, 502, 504],
}
