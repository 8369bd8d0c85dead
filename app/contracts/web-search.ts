/**
 * Wire contract of the search endpoint (`GET /s/{query}`, `POST /s`, and the root of SEARCH_HOST), in the
 * original's (s.jina.ai) shapes: a query in, the top results out, each read through the reader. Its request
 * headers are the reader's (passed to every read), with `no-content` added to `X-Respond-With` and `X-Site`.
 */
import * as v from 'valibot'
import { isStorableText, unstorableTextMessage } from './common'
import {
  formatListOf,
  modelFormats,
  readerBodyOptions,
  readerHeaders,
  readerPage,
  returnFormats,
  shotFormats,
} from './reader'

export const searchLimits = {
  /** Results answered when the request does not say (`count`), as the original. */
  defaultCount: 5,
  /** Most results one request answers; a larger `count` is clamped to it. */
  maxCount: 20,
  /** Tokens a search costs at least, as the original prices it: the results' content costs more when larger. */
  minTokens: 10_000,
  /** Results read at the same time for one request. */
  readsAtOnce: 5,
  /** Seconds each result may take to be read when `X-Timeout` does not say. */
  readTimeoutSeconds: 15,
  /** Results fetched from the engine beyond `count`, to stand in for results that cannot be read. */
  spareResults: 2,
  /** Longest query, in characters. */
  maxQueryLength: 2048,
  /** Most sites one request may restrict the search to. */
  maxSites: 20,
} as const

export const searchTypes = ['web', 'news'] as const

/** The words searched for. */
export const searchText = v.pipe(
  v.string(),
  v.trim(),
  v.maxLength(searchLimits.maxQueryLength, `must be at most ${searchLimits.maxQueryLength} characters`),
  v.check(isStorableText, unstorableTextMessage),
)

/** A host name as `site` or `X-Site` gives it (`example.com`, or a URL whose host is taken). */
const site = v.pipe(v.string(), v.trim(), v.maxLength(256, 'must be at most 256 characters'))

/** A whole number from a query string or a JSON body (`count: 3` or `count=3`). */
const whole = (min: number) =>
  v.pipe(
    v.union([
      v.number(),
      v.pipe(v.string(), v.trim(), v.regex(/^\d{1,9}$/, 'must be a whole number'), v.transform(Number)),
    ]),
    v.integer('must be a whole number'),
    v.minValue(min, `must be at least ${min}`),
  )

/** What a search asks, in the query string (`GET`) or the body (`POST`), as the original names it. */
const searchFields = {
  /** The query (beside the path's, which it replaces: `/s/search?q=…`, `POST /s {"q": …}`). */
  q: v.optional(searchText),
  /** Results wanted: 5 by default, at most 20 (more is clamped). */
  count: v.optional(whole(1)),
  /** The original's SERP name for `count`; it wins when both are given. */
  num: v.optional(whole(1)),
  /** `web` (default) or `news`. */
  type: v.optional(v.pipe(v.string(), v.trim(), v.toLowerCase(), v.picklist(searchTypes, 'must be web or news'))),
  /** Country of the results, two letters (`us`): passed to the upstream engine. */
  gl: v.optional(v.pipe(v.string(), v.trim(), v.regex(/^[a-z]{2}$/i, 'must be a two-letter country code'))),
  /** Language of the results (`en`, `pt-br`): passed to the upstream engine. */
  hl: v.optional(
    v.pipe(v.string(), v.trim(), v.regex(/^[a-z]{2,3}(-[a-z0-9]{2,4})?$/i, 'must be a language code such as en')),
  ),
  /** Accepted as the original's, not used: no engine here searches by place. */
  location: v.optional(v.pipe(v.string(), v.maxLength(256))),
  /** Page of results, from 1. */
  page: v.optional(whole(1)),
}

/** GET's query string: `site` may be given several times. */
export const searchQuery = v.object({
  ...searchFields,
  site: v.optional(v.pipe(v.array(site), v.maxLength(searchLimits.maxSites, `at most ${searchLimits.maxSites}`))),
})
export type SearchQueryParams = v.InferOutput<typeof searchQuery>

/** POST's body (JSON, form or multipart): the query's fields, and the reader's options in camelCase. */
export const searchBody = v.strictObject({
  ...readerBodyOptions,
  ...searchFields,
  site: v.optional(
    v.union([site, v.pipe(v.array(site), v.maxLength(searchLimits.maxSites, `at most ${searchLimits.maxSites}`))]),
  ),
})
export type SearchBody = v.InferOutput<typeof searchBody>

const searchFormats: readonly string[] = [...returnFormats, ...shotFormats, ...modelFormats, 'no-content']

/** `X-Respond-With` as search takes it: the reader's formats, or `no-content` (results listed, nothing read). */
const searchFormatList = formatListOf(
  searchFormats,
  `must be no-content, or one or more of ${searchFormats.filter((f) => f !== 'no-content').join(', ')}, separated by , or +`,
)

/** The reader's headers (each applied to every result's read), with `no-content` and `X-Site`. */
export const searchHeaders = v.object({
  ...readerHeaders.entries,
  'x-return-format': searchFormatList,
  'x-respond-with': searchFormatList,
  /** Sites the results must be on, comma-separated (beside `site`). */
  'x-site': v.optional(
    v.pipe(
      v.string(),
      v.maxLength(4096),
      v.transform((s) =>
        s
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean),
      ),
    ),
  ),
})
export type SearchHeaders = v.InferOutput<typeof searchHeaders>

/**
 * One result: the engine's title, URL and description, and the page as the reader answers it (each format in
 * its field, `usage` its tokens). With `no-content` only the title, URL and description (and the date when
 * the engine gives one).
 */
export const searchResult = v.object({
  ...readerPage.entries,
  usage: v.optional(readerPage.entries.usage),
})
export type SearchResultItem = v.InferOutput<typeof searchResult>

export const searchAnswer = v.object({
  code: v.literal(200),
  status: v.literal(20000),
  data: v.array(searchResult),
  /** What the request was charged: at least `searchLimits.minTokens`. */
  meta: v.object({ usage: v.object({ tokens: v.number() }) }),
})
export type SearchAnswer = v.InferOutput<typeof searchAnswer>
