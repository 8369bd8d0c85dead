/** Contracts of the request log: a key's metered API requests, filtered, paged and exported. */
import * as v from 'valibot'
import { wholeNumberText } from './common'

/** Opaque to clients: the time and id of the last row seen (rows are listed newest first). */
export const requestLogCursor = v.pipe(
  v.string(),
  v.regex(/^\d{1,15}\.\d{1,18}$/, 'is not a cursor from this API'),
  v.description('`next_cursor` of the previous page.'),
)

const filterText = (description: string) =>
  v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(200), v.description(description)))

/** An instant (ISO 8601 with a zone, as `toISOString` writes it). */
const instant = (description: string) =>
  v.optional(
    v.pipe(
      v.string(),
      v.check(
        (text) =>
          /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/.test(text) &&
          !Number.isNaN(Date.parse(text)),
        'must be an ISO 8601 time with its zone (2026-11-26T10:00:00Z)',
      ),
      v.description(description),
    ),
  )

/** The filters every read of the log takes (the page, the export). */
export const requestLogFilters = {
  key_id: v.optional(
    v.pipe(v.string(), v.uuid('must be a key id'), v.description("One of the account's keys; default: all of them.")),
  ),
  product: filterText('Only this product (`embeddings`, `reranker`, `classifier`, `reader`, `deepsearch`, …).'),
  model: filterText('Only this model (its API id).'),
  status: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^([1-5]\d\d|[2-5]xx)$/, 'must be a status code (402) or a class (4xx)'),
      v.description('A status code (`402`) or a class (`2xx`, `4xx`, `5xx`).'),
    ),
  ),
  since: instant('Requests from this time on, inclusive.'),
  until: instant('Requests before this time.'),
  request_id: filterText('Only the request with this `X-Request-Id`.'),
  tag: filterText('Only requests sent with this `X-Request-Tag`.'),
}

export const requestLogQuery = v.strictObject({
  ...requestLogFilters,
  num_records: v.optional(wholeNumberText(1, 100), '50'),
  cursor: v.optional(requestLogCursor),
})

export const requestLogExportQuery = v.strictObject({
  ...requestLogFilters,
  format: v.optional(v.picklist(['csv', 'json'], 'must be csv or json'), 'csv'),
})

export const requestLogRow = v.object({
  id: v.string(),
  created_at: v.string(),
  key_id: v.string(),
  /** How the key shows in the dashboard: its name, else its first and last characters. */
  key_label: v.string(),
  request_id: v.string(),
  product: v.string(),
  model: v.nullable(v.string()),
  engine: v.nullable(v.string()),
  input_tokens: v.number(),
  output_tokens: v.number(),
  latency_ms: v.number(),
  status: v.number(),
  /** The request's `X-Request-Tag`, if it sent one (last, so exports keep their earlier columns in place). */
  tag: v.nullable(v.string()),
})

export const requestLogAnswer = v.object({
  requests: v.array(requestLogRow),
  next_cursor: v.nullable(v.string()),
  /** The keys the caller may filter by: the key itself, or every key of its account for the signed-in owner. */
  keys: v.array(v.object({ key_id: v.string(), label: v.string() })),
  retention_days: v.number(),
})

export type RequestLogRow = v.InferOutput<typeof requestLogRow>
export type RequestLogPage = v.InferOutput<typeof requestLogAnswer>
export type RequestLogQuery = v.InferOutput<typeof requestLogQuery>
export type RequestLogFilters = Omit<RequestLogQuery, 'num_records' | 'cursor'>

/** The dashboard's server function: the REST call's query plus the key it holds (else the `apiKey` cookie). */
export const requestLogInput = v.strictObject({
  apiKey: v.optional(v.pipe(v.string(), v.maxLength(200))),
  ...requestLogQuery.entries,
})
