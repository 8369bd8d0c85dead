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
  /** Longest chunk of `X-Markdown-Chunking: true`, in characters. */
  defaultChunkLength: 2000,
} as const

export const returnFormats = ['content', 'markdown', 'html', 'text'] as const
export type ReturnFormat = (typeof returnFormats)[number]
/** Images of the page as the browser engine shows it: the first screen, or the whole page. */
export const shotFormats = ['screenshot', 'pageshot'] as const
export type ShotFormat = (typeof shotFormats)[number]
/** Formats that need a language model this server does not run (422 unless one is configured). */
export const modelFormats = ['readerlm-v2', 'vlm'] as const

/**
 * What `X-Return-Format` (or `X-Respond-With`) asked for: the text formats (one or several, as the original's
 * compound `markdown+html` or `markdown,html`), and the images wanted beside them.
 */
export interface ReturnFormats {
  /** The first text format named (`content` when none was). */
  text: ReturnFormat
  /** Every text format named, in order, each once (`[text]` when none was). */
  texts: ReturnFormat[]
  /** Whether the text was named (a caller asking only for a screenshot gets no content). */
  textNamed: boolean
  screenshot: boolean
  pageshot: boolean
}

const allFormats: readonly string[] = [...returnFormats, ...shotFormats, ...modelFormats]

/**
 * Several formats at once, comma- or plus-separated, as the original takes them (`markdown,screenshot`,
 * `markdown+html`), each one of `formats`; `refusal` says what may be sent.
 */
export const formatListOf = (formats: readonly string[], refusal: string) =>
  v.optional(
    v.pipe(
      v.string(),
      v.toLowerCase(),
      v.transform((s) =>
        s
          .split(/[,+]/)
          .map((part) => part.trim())
          .filter(Boolean),
      ),
      v.check((parts) => parts.every((part) => formats.includes(part)), refusal),
    ),
  )

const formatList = formatListOf(allFormats, `must be one or more of ${allFormats.join(', ')}, separated by , or +`)

export const engines = ['direct', 'browser', 'auto'] as const
export type Engine = (typeof engines)[number]
/** The original's names for the same engines: `curl` is its direct fetch, `cf-browser-rendering` a browser. */
export const engineAliases: Record<string, Engine> = { curl: 'direct', 'cf-browser-rendering': 'browser' }
/** `X-Retain-Links`: every link (default), none (their text goes too), their text only, or gpt-oss's `【n†text†host】`. */
export const retainLinks = ['all', 'none', 'text', 'gpt-oss'] as const
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
    v.pipe(
      v.string(),
      v.trim(),
      v.toLowerCase(),
      v.picklist(
        [...engines, ...Object.keys(engineAliases)],
        `must be one of ${[...engines, ...Object.keys(engineAliases)].join(', ')}`,
      ),
      v.transform((name): Engine => engineAliases[name] ?? (name as Engine)),
    ),
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
  /** `all` numbers each image (`![Image 1: alt](src)`), `alt` keeps `(Image 1: alt)`; `all_p`/`alt_p` the same unnumbered. */
  'x-retain-images': pick(['all', 'none', 'alt', 'all_p', 'alt_p']),
  'x-retain-links': pick(retainLinks),
  /** Removes what covers the page: fixed and sticky layers, dialogs, cookie and newsletter banners. */
  'x-remove-overlay': flag,
  /** `true` or the longest chunk in characters: the Markdown also comes split at headings and paragraphs (`chunks`). */
  'x-markdown-chunking': v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.toLowerCase(),
      v.regex(/^(true|false|\d{1,6})$/, 'must be true, false or a number of characters'),
      v.transform((s) =>
        s === 'false' ? undefined : s === 'true' ? readerLimits.defaultChunkLength : Math.max(100, Number(s)),
      ),
    ),
  ),
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
  /** The original's name for `X-Max-Output-Tokens` (which wins when both are sent). */
  'x-max-tokens': count(1, 10_000_000),
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
  /** Seconds, clamped to the longest honoured (180) as the original clamps them; `0` is the default. */
  'x-timeout': v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(/^\d{1,9}$/, 'must be a whole number of seconds'),
      v.transform((s) => Number(s) || undefined),
      v.transform((n) => (n === undefined ? undefined : Math.min(n, readerLimits.maxTimeoutSeconds))),
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

/** What the reader made of a page in one text format, as it is converted, cached and metered. */
export const pageRead = v.object({
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
  /** `Target URL returned error 404: Not Found`, when the page's server answered an error page. */
  warning: v.optional(v.string()),
  /** The converter's sign that the page most likely writes its text with a script (chooses the browser; never answered). */
  scriptBuilt: v.optional(v.boolean()),
})
export type ReaderPage = v.InferOutput<typeof pageRead>

/**
 * The JSON answer's `data` and each event-stream snapshot, in the original's shape: each format asked for in
 * its own field (`content` for Markdown, `html`, `text`, `screenshotUrl`, `pageshotUrl`), and the summaries,
 * the engine and the chunks only when asked for.
 */
export const readerPage = v.object({
  title: v.string(),
  description: v.string(),
  url: v.string(),
  /** The Markdown (`content` or `markdown` asked for, or no format named). */
  content: v.optional(v.string()),
  /** The page's HTML (`html` asked for). */
  html: v.optional(v.string()),
  /** The page's text (`text` asked for). */
  text: v.optional(v.string()),
  publishedTime: v.optional(v.string()),
  /** The page's server answered an error (`Target URL returned error 404: Not Found`); its content is answered. */
  warning: v.optional(v.string()),
  /** `X-With-Links-Summary`: text to URL once per text (`true`), or every link as `[text, url]` pairs (`all`). */
  links: v.optional(v.union([v.record(v.string(), v.string()), v.array(v.tuple([v.string(), v.string()]))])),
  /** `X-With-Images-Summary`: `Image 1: alt` to URL (`true`: the content's images; `all`: every image of the page). */
  images: v.optional(v.record(v.string(), v.string())),
  usage: v.object({ tokens: v.number() }),
  screenshotUrl: v.optional(v.string()),
  pageshotUrl: v.optional(v.string()),
  /** How many pages the document has, when it is a PDF. */
  numPages: v.optional(v.number()),
  /** Which engine read the page (when `X-Engine` was sent). */
  engine: v.optional(v.picklist(['direct', 'browser'])),
  /** `X-Markdown-Chunking`: the Markdown split at headings and paragraphs. */
  chunks: v.optional(v.array(v.string())),
})
export type ReaderAnswerPage = v.InferOutput<typeof readerPage>

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
/** A header's option as the original's POST body names it: `x-with-links-summary` → `withLinksSummary`. */
type CamelOf<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<CamelOf<Tail>>}` : S
type ReaderHeaderName = keyof typeof readerHeaders.entries
export type BodyOptionName<H extends string = ReaderHeaderName> = H extends `x-${infer Rest}` ? CamelOf<Rest> : H

export function bodyOptionNameOf<H extends string>(header: H): BodyOptionName<H> {
  return header
    .replace(/^x-/, '')
    .replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase()) as BodyOptionName<H>
}

/** A body option's value: the header's text, or a JSON number, boolean or list (selectors, formats) standing for it. */
const bodyOption = v.optional(
  v.union([
    v.pipe(v.string(), v.maxLength(8192)),
    v.number(),
    v.boolean(),
    v.array(v.pipe(v.string(), v.maxLength(2048))),
  ]),
)

/** Every header as a camelCase body field (`respondWith`, `targetSelector`, `tokenBudget`, …), checked as the header is. */
export const readerBodyOptions = Object.fromEntries(
  Object.keys(readerHeaders.entries).map((header) => [bodyOptionNameOf(header), bodyOption]),
) as { [H in ReaderHeaderName as BodyOptionName<H>]: typeof bodyOption }

/** The body's options as the headers they stand for (`{withLinksSummary: true}` → `x-with-links-summary: true`). */
export function headersOfBody(body: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const header of Object.keys(readerHeaders.entries)) {
    const value = body[bodyOptionNameOf(header)]
    if (value === undefined || value === null) continue
    headers[header] = Array.isArray(value) ? value.join(',') : String(value)
  }
  return headers
}

export const readerBody = v.pipe(
  v.strictObject({
    ...readerBodyOptions,
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
