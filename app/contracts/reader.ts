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
/** Images of the page as the browser engine shows it: the first screen, or the whole page. */
export const shotFormats = ['screenshot', 'pageshot'] as const
export type ShotFormat = (typeof shotFormats)[number]
/** Formats that need a language model this server does not run (422 unless one is configured). */
export const modelFormats = ['readerlm-v2', 'vlm'] as const

/** What `X-Return-Format` (or `X-Respond-With`) asked for: one text format, and the images wanted beside it. */
export interface ReturnFormats {
  text: ReturnFormat
  /** Whether the text was named (a caller asking only for a screenshot gets no content). */
  textNamed: boolean
  screenshot: boolean
  pageshot: boolean
}

const allFormats: readonly string[] = [...returnFormats, ...shotFormats, ...modelFormats]

/** Several formats at once, comma-separated, as the original takes them: `markdown,screenshot`. */
const formatList = v.optional(
  v.pipe(
    v.string(),
    v.toLowerCase(),
    v.transform((s) =>
      s
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    ),
    v.check(
      (parts) => parts.every((part) => allFormats.includes(part)),
      `must be one or more of ${allFormats.join(', ')}, comma-separated`,
    ),
    v.check(
      (parts) => parts.filter((part) => (returnFormats as readonly string[]).includes(part)).length <= 1,
      `names at most one of ${returnFormats.join(', ')}`,
    ),
  ),
)

export const engines = ['direct', 'browser', 'auto'] as const
export type Engine = (typeof engines)[number]
export const respondTimings = [
  'html',
  'visible-content',
  'mutation-idle',
  'resource-idle',
  'media-idle',
  'network-idle',
] as const

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

/**
 * `true`/`false` as `flag`, or `all`: the original's `X-With-Links-Summary: all` (every link of the page, in
 * order, duplicates kept) and `X-With-Images-Summary: all` (every image of the page, beyond the content).
 */
const summaryFlag = v.optional(
  v.pipe(
    v.string(),
    v.trim(),
    v.toLowerCase(),
    v.picklist(['true', 'false', '1', '0', 'yes', 'no', 'all'], 'must be true, false or all'),
    v.transform((s): boolean | 'all' => (s === 'all' ? 'all' : s === 'true' || s === '1' || s === 'yes')),
  ),
  'false',
)
export type SummaryOption = boolean | 'all'

const selector = v.optional(
  v.pipe(
    v.string(),
    v.trim(),
    v.maxLength(readerLimits.maxSelectorLength, `must be at most ${readerLimits.maxSelectorLength} characters`),
    v.transform((s) => s || undefined),
  ),
)

const pick = <const T extends string>(options: readonly T[]) =>
  v.optional(v.pipe(v.string(), v.trim(), v.toLowerCase(), v.picklist(options, `must be one of ${options.join(', ')}`)))

const count = (min: number, max: number) =>
  v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(/^\d{1,10}$/, 'must be a whole number'),
      v.transform(Number),
      v.minValue(min, `must be at least ${min}`),
      v.maxValue(max, `must be at most ${max}`),
    ),
  )

const shortText = (max: number) =>
  v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.maxLength(max, `must be at most ${max} characters`),
      v.transform((s) => s || undefined),
    ),
  )

/** The `X-…` request headers, by their lower-case names, as the reader reads them. */
export const readerHeaders = v.object({
  'x-return-format': formatList,
  /** The original's newer name for `X-Return-Format`; it wins when both are sent. */
  'x-respond-with': formatList,
  /** `direct` (default: fetch the HTML), `browser` (render it in Chromium), `auto` (the browser when the direct fetch yields too little). */
  'x-engine': v.optional(
    v.pipe(v.string(), v.trim(), v.toLowerCase(), v.picklist(engines, `must be one of ${engines.join(', ')}`)),
  ),
  'x-wait-for-selector': selector,
  'x-respond-timing': v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.toLowerCase(),
      v.picklist(respondTimings, `must be one of ${respondTimings.join(', ')}`),
    ),
  ),
  'x-locale': v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/, 'must be a language tag such as en-US'),
    ),
  ),
  'x-user-agent': shortText(512),
  'x-referer': v.optional(v.pipe(v.string(), v.trim(), v.maxLength(2048), v.url('must be a URL'))),
  /** `name=value` cookies, comma-separated, for the page's own origin only (attributes are ignored). */
  'x-set-cookie': shortText(4096),
  'x-with-iframe': flag,
  'x-with-shadow-dom': flag,
  'x-retain-images': pick(['all', 'none', 'alt']),
  'x-keep-img-data-url': flag,
  /** `true`: CommonMark without GitHub's extensions; `table`: all but tables. */
  'x-no-gfm': pick(['true', 'false', 'table']),
  'x-md-heading-style': pick(['atx', 'setext']),
  'x-md-hr': v.optional(
    v.pipe(v.string(), v.trim(), v.regex(/^([-*_])( ?\1){2,10}$/, 'must be three or more -, * or _ (spaces allowed)')),
  ),
  'x-md-bullet-list-marker': pick(['-', '+', '*']),
  'x-md-em-delimiter': pick(['_', '*']),
  'x-md-strong-delimiter': pick(['**', '__']),
  'x-md-link-style': pick(['inlined', 'referenced', 'discarded']),
  'x-md-link-reference-style': pick(['full', 'collapsed', 'shortcut']),
  /** Which URL links and images are made absolute against: the one asked for, or where redirects ended. */
  'x-base': pick(['initial', 'final']),
  /** A user agent: the origin's robots.txt is fetched and obeyed for it (403 when it forbids the page). */
  'x-robots-txt': shortText(256),
  /** Refuses (422, nothing charged) a page whose output would cost more tokens than this. */
  'x-token-budget': count(1, 100_000_000),
  /** Cuts the content at this many tokens. */
  'x-max-output-tokens': count(1, 10_000_000),
  /** Seconds old a cached page may be to be answered (0: fetch anew). */
  'x-cache-tolerance': count(0, 30 * 86_400),
  /** `1`: the page is not cached (and the page's server is told so). */
  dnt: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.transform((s) => s === '1'),
    ),
  ),
  /** `http://`, `https://` or `socks5://` proxy (credentials in the URL) every request of the read goes through. */
  'x-proxy-url': shortText(2048),
  /** Refused: the original's own proxy pool (by country), which this server does not have. */
  'x-proxy': shortText(256),
  /** Refused when true: describing images needs a vision model this server does not run. */
  'x-with-generated-alt': flag,
  'x-target-selector': selector,
  'x-remove-selector': selector,
  'x-with-links-summary': summaryFlag,
  'x-with-images-summary': summaryFlag,
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

/** Converts a string or number field of a body (JSON numbers, form strings) to a whole number within bounds. */
const whole = (min: number, max: number) =>
  v.pipe(
    v.union([v.number(), v.pipe(v.string(), v.regex(/^\d{1,6}$/, 'must be a whole number'), v.transform(Number))]),
    v.integer('must be a whole number'),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
  )

/** The viewport a page is rendered in (browser engine and screenshots), in CSS pixels. */
export const readerViewport = v.strictObject({ width: whole(200, 3840), height: whole(200, 3840) })
export type ReaderViewport = v.InferOutput<typeof readerViewport>

/** What the reader made of a page: the JSON answer's `data`, and each event-stream snapshot. */
export const readerPage = v.object({
  title: v.string(),
  description: v.string(),
  url: v.string(),
  content: v.string(),
  /** ISO 8601, when the page states when it was published. */
  publishedTime: v.optional(v.string()),
  /**
   * Link texts to absolute URLs, once per URL (`X-With-Links-Summary: true`); with `all`, every link of the
   * page in order as `[text, url]` pairs, duplicates kept, as the original answers.
   */
  links: v.union([v.record(v.string(), v.string()), v.array(v.tuple([v.string(), v.string()]))]),
  /**
   * Image descriptions to absolute URLs (`X-With-Images-Summary: true`: the images of what was converted, once
   * per URL; `all`: every image of the page, the content's and the rest, each numbered).
   */
  images: v.record(v.string(), v.string()),
  usage: v.object({ tokens: v.number() }),
  /** A signed link to the first screen as PNG, valid for a while (`X-Return-Format: screenshot`). */
  screenshotUrl: v.optional(v.string()),
  /** A signed link to the whole page as PNG (`X-Return-Format: pageshot`). */
  pageshotUrl: v.optional(v.string()),
  /** How many pages the document has, when it is a PDF. */
  pages: v.optional(v.number()),
  /** Which engine read the page: `direct` or `browser`. */
  engine: v.optional(v.picklist(['direct', 'browser'])),
})
export type ReaderPage = v.InferOutput<typeof readerPage>

export const readerAnswer = v.object({
  code: v.literal(200),
  status: v.literal(20000),
  data: readerPage,
})

/** `1280x800`, or `{"width":1280,"height":800}` as text: how a form sends the viewport. */
const viewportField = v.union([
  readerViewport,
  v.pipe(
    v.string(),
    v.trim(),
    v.transform((text): unknown => {
      const size = text.match(/^(\d{1,5})\s*[x×,]\s*(\d{1,5})$/i)
      if (size) return { width: Number(size[1]), height: Number(size[2]) }
      try {
        return JSON.parse(text)
      } catch {
        return text
      }
    }),
    readerViewport,
  ),
])

/** Base64 text (a PDF or page sent in the body), up to the reader's page limit once decoded. */
const base64Field = v.pipe(
  v.string(),
  v.maxLength(
    Math.ceil((readerLimits.maxPageBytes * 4) / 3) + 4,
    `must decode to at most ${readerLimits.maxPageBytes / 1024 / 1024} MiB`,
  ),
  v.regex(/^(data:[\w/+.-]+;base64,)?[A-Za-z0-9+/\s]*={0,2}\s*$/, 'must be base64'),
)

/**
 * POST /r, as JSON, form-urlencoded or multipart: the page named by `url`, or given whole as `html` (converted
 * without fetching; `url` then only makes its links absolute), or a PDF as `pdf` (base64) or an uploaded `file`.
 */
export const readerBody = v.pipe(
  v.strictObject({
    url: v.optional(readerUrl),
    html: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(readerLimits.maxPageBytes, `must be at most ${readerLimits.maxPageBytes / 1024 / 1024} MiB`),
      ),
    ),
    pdf: v.optional(base64Field),
    /** A file uploaded in a multipart form (a PDF, or an HTML page), arriving as base64. */
    file: v.optional(base64Field),
    viewport: v.optional(viewportField),
    injectPageScript: v.optional(v.pipe(v.string(), v.maxLength(65_536, 'must be at most 64 KiB'))),
  }),
  v.check(
    (body) => [body.html, body.pdf, body.file].filter((x) => x !== undefined).length <= 1,
    'give at most one of html, pdf and file',
  ),
  v.check(
    (body) => body.url !== undefined || body.html !== undefined || body.pdf !== undefined || body.file !== undefined,
    'must name the page to read (url), or give it (html, pdf or file)',
  ),
)
export type ReaderBody = v.InferOutput<typeof readerBody>
