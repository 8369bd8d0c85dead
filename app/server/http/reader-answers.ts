import * as v from 'valibot'
import {
  headersOfBody,
  readerHeaders,
  readerLimits,
  type ReaderAnswerPage,
  type ReaderMediaType,
  type ReturnFormats,
} from '~/contracts/reader'
import { readForCaller, streamForCaller, type ReadCall } from '../api/reader/read'
import { returnFormatsOf } from '../api/reader/read-options'
import type { Caller } from '../api/caller'
import { isRefusal } from '../domain/refusals'
import { summaryText } from '../providers/reader/convert/summaries'
import type { EndpointHandler } from './endpoint'
import { jsonResponse, publicAnswer } from './errors'
import { eventStreamResponse } from './event-stream'
import { validate } from './input'
import type { PublicAnswer } from './refusal-answers'

/**
 * The answer format `Accept` asks for: an event stream or JSON when it names them (`text/json` is JSON, as the
 * original reads it), plain text otherwise.
 */
export function readerMediaTypeOf(accept: string | null): ReaderMediaType {
  const types = (accept ?? '').split(',').map((part) => part.split(';')[0].trim().toLowerCase())
  if (types.includes('text/event-stream')) return 'text/event-stream'
  if (types.includes('application/json') || types.includes('text/json')) return 'application/json'
  return 'text/plain'
}

/**
 * The plain-text answer. Markdown (`content`, `markdown`) comes under a header block naming the page, the
 * format existing clients of this API read; `html` or `text` alone come as they are, ready to pipe on; several
 * formats come each under its own label (`HTML:`, `Text:`) after the Markdown.
 */
export function readerText(page: ReaderAnswerPage, formats: ReturnFormats): string {
  const summaries = summaryText(page.links ?? {}, page.images ?? {})
  const tail = summaries ? `\n\n${summaries}` : ''
  const shots = [page.screenshotUrl, page.pageshotUrl].filter(Boolean).join('\n')
  if (!formats.textNamed) return shots
  const shotLines = [
    page.screenshotUrl && `Screenshot: ${page.screenshotUrl}`,
    page.pageshotUrl && `Pageshot: ${page.pageshotUrl}`,
  ].filter(Boolean)
  const shotTail = shotLines.length ? `\n\n${shotLines.join('\n')}` : ''
  if (formats.texts.length === 1 && page.content === undefined && !page.warning)
    return `${page.html ?? page.text ?? ''}${tail}${shotTail}`
  const lines = [`Title: ${page.title}`, `URL Source: ${page.url}`]
  if (page.publishedTime) lines.push(`Published Time: ${page.publishedTime}`)
  if (page.warning) lines.push(`Warning: ${page.warning}`)
  const sections: string[] = []
  if (page.content !== undefined) sections.push(`Markdown Content:\n${page.content}`)
  if (page.html !== undefined) sections.push(`HTML:\n${page.html}`)
  if (page.text !== undefined) sections.push(`Text:\n${page.text}`)
  return `${lines.join('\n\n')}\n\n${sections.join('\n\n')}${tail}${shotTail}`
}

/** The original's error names by status (its `name` field); a status not here is named by its class. */
const errorNames: Record<number, [string, number]> = {
  400: ['ParamValidationError', 1],
  401: ['AuthenticationRequiredError', 1],
  402: ['InsufficientBalanceError', 3],
  403: ['SecurityCompromiseError', 1],
  404: ['NotFoundError', 4],
  405: ['MethodNotAllowedError', 5],
  409: ['ConflictError', 9],
  413: ['PayloadTooLargeError', 13],
  415: ['UnsupportedMediaTypeError', 15],
  422: ['AssertionFailureError', 6],
  429: ['RateLimitTriggeredError', 3],
  500: ['InternalServerError', 0],
  501: ['UnsupportedError', 1],
  502: ['ServiceBadAttemptError', 2],
  503: ['ServiceUnavailableError', 3],
  504: ['TimeoutError', 4],
}

/**
 * A refusal in the original reader's envelope, `{data, code, name, status, message, readableMessage}`, with
 * `detail` beside it as every other endpoint of this site answers it (the dashboard's demo reads it).
 */
export function readerErrorBody(answer: PublicAnswer, error: unknown): Record<string, unknown> {
  const budget =
    isRefusal(error) && error.kind === 'PageNotRead' && (error as { problem?: string }).problem === 'budget'
  const invalid = isRefusal(error) && error.kind === 'InvalidInput'
  const [name, minor] = budget
    ? ['BudgetExceededError', 4]
    : invalid
      ? ['ParamValidationError', 1]
      : (errorNames[answer.status] ?? [answer.status >= 500 ? 'InternalServerError' : 'ClientError', 0])
  const message =
    typeof answer.detail === 'string'
      ? answer.detail
      : answer.detail.map((issue) => `${issue.loc.join('.')}: ${issue.msg}`).join('; ')
  return {
    data: null,
    code: answer.status,
    name,
    status: answer.status * 100 + minor,
    message,
    readableMessage: `${name}: ${message}`,
    detail: answer.detail,
  }
}

/**
 * POST /r's options: the headers, and the body's camelCase fields standing for them (`respondWith`,
 * `targetSelector`, `tokenBudget`, …), the body's winning where both name one; each checked as its header is.
 */
export function headersWithBody<S extends v.ObjectSchema<v.ObjectEntries, undefined> = typeof readerHeaders>(
  request: Request,
  body: Record<string, unknown>,
  schema: S = readerHeaders as unknown as S,
): v.InferOutput<S> {
  const raw: Record<string, string> = Object.create(null)
  for (const name of Object.keys(schema.entries)) {
    const value = request.headers.get(name)
    if (value !== null) raw[name] = value
  }
  return validate(schema, { ...raw, ...headersOfBody(body) }, 'body')
}

/** Reads the page for the caller and answers in the format `Accept` asked for. */
export async function readerAnswer(
  request: Request,
  caller: Caller,
  call: Omit<ReadCall, 'signal'>,
): Promise<Response> {
  const mediaType = readerMediaTypeOf(request.headers.get('accept'))
  if (mediaType === 'text/event-stream') {
    return eventStreamResponse(
      async (sink) => {
        await streamForCaller(caller, { ...call, signal: sink.signal }, async (page) =>
          sink.send({ event: 'data', data: JSON.stringify(page) }),
        )
      },
      (error) => ({ event: 'error', data: JSON.stringify(readerErrorBody(publicAnswer(error), error)) }),
      { signal: request.signal },
    )
  }
  const { page, cached, engine } = await readForCaller(caller, { ...call, signal: request.signal })
  const headers: Record<string, string> = {
    'x-cache': cached ? 'hit' : 'miss',
    'x-usage-tokens': String(page.usage.tokens),
  }
  if (engine) headers['x-engine'] = engine
  if (mediaType === 'application/json') return jsonResponse({ code: 200, status: 20000, data: page }, { headers })
  const formats = returnFormatsOf(call.headers)
  // Only an image asked for, as text: a redirect to it, as the original answers (a client following it gets the PNG).
  const shot = page.screenshotUrl ?? page.pageshotUrl
  if (!formats.textNamed && shot)
    return new Response(null, { status: 302, headers: { ...headers, location: shot, 'cache-control': 'no-store' } })
  return new Response(readerText(page, formats), {
    headers: { ...headers, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  })
}

/** The URL after `/r/` as sent, with the request's query (which belongs to the page); an encoded one is decoded. */
export function targetOfPath(request: Request): string {
  const url = new URL(request.url)
  const rest = `${url.pathname.replace(/^\/r\/?/, '')}${url.search}`
  return /^https?%3A/i.test(rest) ? decodeURIComponent(rest) : rest
}

const readerDescription = `Fetches the page (or converts the \`html\`, \`pdf\` or \`file\` a POST body carries) and answers it by \`Accept\`: \`text/plain\` (default) as "Title: …\\n\\nURL Source: …\\n\\nMarkdown Content:\\n…", \`application/json\` as \`{code, status, data}\`, or \`text/event-stream\` as \`data\` events, each a completer snapshot of the page (an \`error\` event ends a stream that failed after it began). \`X-Return-Format\` (or \`X-Respond-With\`): \`content\` (default: the Readability article when it holds at least 0.3 of the page's Markdown, else the whole page), \`markdown\` (the whole page), \`html\` or \`text\`, with \`screenshot\` and/or \`pageshot\` beside it (signed PNG links valid 24 hours, 1,000 tokens each); \`readerlm-v2\` and \`vlm\` are refused with 422. \`X-Engine\`: \`auto\` (default: the direct read, and Chromium when the page writes its text with a script, within the key tier's browser seconds a minute, past which the direct read is answered with a \`warning\`; the \`X-Engine\` answer header names the engine that read it), \`direct\` (or \`curl\`), or \`browser\` (or \`cf-browser-rendering\`: Chromium, with \`X-Wait-For-Selector\`, \`X-Respond-Timing\`, \`X-With-Iframe\`, \`X-With-Shadow-Dom\`, \`viewport\`; 429 past the browser seconds); 501 when the server has no Chromium. PDFs are read as Markdown with headings and \`pages\`. Only public http(s) addresses are fetched (403 otherwise), by the browser too, with up to 5 redirects, 10 MiB and \`X-Timeout\` seconds (default 30, at most 180); an HTML page with more than ${readerLimits.maxNodes.toLocaleString('en-US')} elements, attributes and comments or nested more than ${readerLimits.maxDepth} levels deep is refused with 422, and one that takes longer to convert than the server's limit (15 s by default) with 504. \`X-Robots-Txt\` obeys the origin's robots.txt for that agent (403), \`X-Token-Budget\` refuses a page that would cost more (422, nothing charged), \`X-Max-Output-Tokens\` cuts the content; the \`X-Md-*\`, \`X-No-Gfm\`, \`X-Retain-Images\` and \`X-Keep-Img-Data-Url\` headers shape the Markdown; \`X-With-Links-Summary\` and \`X-With-Images-Summary\` add \`links\` and \`images\` (\`true\`: each link once, the answered content's images; \`all\`: every link of the page as \`[text, url]\` pairs, duplicates kept, and every image of the page); \`X-Proxy-Url\` (\`http://\`, \`https://\` or \`socks5://\`, credentials in the URL) sends every request of the read through that proxy, whose address must be public too (403 otherwise); \`X-Proxy\` and \`X-With-Generated-Alt\` are refused with 422. Converted pages are cached for an hour (\`X-Cache: hit\`) unless \`X-No-Cache: true\`, \`X-Cache-Tolerance\` or \`DNT: 1\`. Free without a key (20 requests a minute per address); with a key, the output tokens are charged (402 when the key cannot pay them).`

/** What GET /r/{url} and POST /r share: their documentation, headers, answers and refusals. */
export const readerSpec: Pick<
  EndpointHandler['spec'],
  'description' | 'auth' | 'limit' | 'metered' | 'group' | 'alternatives' | 'errors' | 'errorBody'
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
  errorBody: readerErrorBody,
}
