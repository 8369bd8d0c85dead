/**
 * Wire contract of the reader (`GET /r/{url}`, `POST /r`): the request headers it reads, its JSON answer
 * and the snapshot each `text/event-stream` event carries. The limits are the documented ones.
 */
import * as v from 'valibot'
import { isStorableText, unstorableTextMessage } from './common'

export const readerLimits = {
  /** Longest URL the reader takes. */
  maxUrlLength: 4096,
  /** Redirects followed before a page is refused. */
  maxRedirects: 5,
  /** Bytes of a page (after decompression) the reader downloads before refusing it. */
  maxPageBytes: 10 * 1024 * 1024,
  /** Elements, attributes and comments of an HTML page the reader converts (422 beyond). */
  maxNodes: 200_000,
  /** Levels of elements nested in one another in an HTML page the reader converts (422 beyond). */
  maxDepth: 256,
  /** Seconds a read may take when `X-Timeout` does not say. */
  defaultTimeoutSeconds: 30,
  /** Longest `X-Timeout` honoured. */
  maxTimeoutSeconds: 180,
  /** Longest CSS selector in `X-Target-Selector` or `X-Remove-Selector`. */
  maxSelectorLength: 1000,
} as const

export const returnFormats = ['content', 'markdown', 'html', 'text'] as const
export type ReturnFormat = (typeof returnFormats)[number]

/** The answer formats `Accept` chooses between; text/plain when it names none of them. */
export const readerMediaTypes = ['text/plain', 'application/json', 'text/event-stream'] as const
export type ReaderMediaType = (typeof readerMediaTypes)[number]

const flag = v.optional(
  v.pipe(
    v.string(),
    v.toLowerCase(),
    v.picklist(['true', 'false', '1', '0', 'yes', 'no'], 'must be true or false'),
    v.transform((s) => s === 'true' || s === '1' || s === 'yes'),
  ),
  'false',
)

const selector = v.optional(
  v.pipe(
    v.string(),
    v.trim(),
    v.maxLength(readerLimits.maxSelectorLength, `must be at most ${readerLimits.maxSelectorLength} characters`),
    v.transform((s) => s || undefined),
  ),
)

/** The `X-…` request headers, by their lower-case names, as the reader reads them. */
export const readerHeaders = v.object({
  'x-return-format': v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.toLowerCase(),
      v.picklist(returnFormats, `must be one of ${returnFormats.join(', ')}`),
    ),
    'content',
  ),
  'x-target-selector': selector,
  'x-remove-selector': selector,
  'x-with-links-summary': flag,
  'x-with-images-summary': flag,
  'x-no-cache': flag,
  'x-timeout': v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,4}$/, 'must be a whole number of seconds'),
      v.transform(Number),
      v.minValue(1, 'must be at least 1 second'),
      v.maxValue(readerLimits.maxTimeoutSeconds, `must be at most ${readerLimits.maxTimeoutSeconds} seconds`),
    ),
  ),
})
export type ReaderHeaders = v.InferOutput<typeof readerHeaders>

export const readerUrl = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, 'must name the page to read'),
  v.maxLength(readerLimits.maxUrlLength, `must be at most ${readerLimits.maxUrlLength} characters`),
  v.check(isStorableText, unstorableTextMessage),
)

export const readerBody = v.strictObject({ url: readerUrl })

/** What the reader made of a page: the JSON answer's `data`, and each event-stream snapshot. */
export const readerPage = v.object({
  title: v.string(),
  description: v.string(),
  url: v.string(),
  content: v.string(),
  /** ISO 8601, when the page states when it was published. */
  publishedTime: v.optional(v.string()),
  /** Link texts to absolute URLs (filled with `X-With-Links-Summary: true`). */
  links: v.record(v.string(), v.string()),
  /** Image descriptions to absolute URLs (filled with `X-With-Images-Summary: true`). */
  images: v.record(v.string(), v.string()),
  usage: v.object({ tokens: v.number() }),
})
export type ReaderPage = v.InferOutput<typeof readerPage>

export const readerAnswer = v.object({
  code: v.literal(200),
  status: v.literal(20000),
  data: readerPage,
})
