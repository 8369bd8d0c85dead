/** Contracts of the Administration API's usage and costs, in OpenAI's page-of-buckets shape. */
import * as v from 'valibot'

/** The products the ledger charges for, by the name their usage path takes (`/v1/organization/usage/<name>`). */
export const usageProducts = {
  embeddings: 'embeddings',
  rerank: 'reranker',
  reader: 'reader',
  deepsearch: 'deepsearch',
  classify: 'classifier',
  bulk_embeddings: 'bulk-embeddings',
} as const
export type UsageProduct = keyof typeof usageProducts
export const usageProductNames = Object.keys(usageProducts) as UsageProduct[]

export const bucketWidths = { '1m': 60, '1h': 3600, '1d': 86400 } as const
/** Buckets a page holds by default and at most, per width, as OpenAI's usage API pages them. */
export const bucketLimits = { '1m': [60, 1440], '1h': [24, 168], '1d': [7, 31] } as const

/** `tag`: the request's `X-Request-Tag` (or body `metadata.tag`). */
export const usageGroups = ['project_id', 'api_key_id', 'model', 'tag'] as const
export type UsageGroup = (typeof usageGroups)[number]

const seconds = v.pipe(v.string(), v.regex(/^\d{1,12}$/, 'must be unix seconds'), v.transform(Number))
const list = <T extends v.GenericSchema>(item: T) => v.optional(v.array(item))
const id = v.pipe(v.string(), v.maxLength(100))

/** `group_by` and the filters are lists, as `group_by=a&group_by=b` or the SDK's `group_by[]=a&group_by[]=b`. */
export const usageQuery = v.strictObject({
  start_time: seconds,
  end_time: v.optional(seconds),
  bucket_width: v.optional(v.picklist(['1m', '1h', '1d'], 'must be 1m, 1h or 1d'), '1d'),
  group_by: list(v.picklist(usageGroups, `must be one of ${usageGroups.join(', ')}`)),
  'group_by[]': list(v.picklist(usageGroups, `must be one of ${usageGroups.join(', ')}`)),
  project_ids: list(id),
  'project_ids[]': list(id),
  api_key_ids: list(id),
  'api_key_ids[]': list(id),
  models: list(id),
  'models[]': list(id),
  tags: list(id),
  'tags[]': list(id),
  limit: v.optional(v.pipe(v.string(), v.regex(/^\d{1,4}$/, 'must be a whole number'), v.transform(Number))),
  page: v.optional(v.pipe(v.string(), v.regex(/^\d{1,12}$/, 'is not a page from this API'))),
})
export type UsageQuery = v.InferOutput<typeof usageQuery>

const costGroups = ['project_id', 'line_item', 'tag'] as const

export const costsQuery = v.strictObject({
  start_time: seconds,
  end_time: v.optional(seconds),
  bucket_width: v.optional(v.picklist(['1d'], 'must be 1d'), '1d'),
  group_by: list(v.picklist(costGroups, `must be one of ${costGroups.join(', ')}`)),
  'group_by[]': list(v.picklist(costGroups, `must be one of ${costGroups.join(', ')}`)),
  project_ids: list(id),
  'project_ids[]': list(id),
  tags: list(id),
  'tags[]': list(id),
  limit: v.optional(v.pipe(v.string(), v.regex(/^\d{1,4}$/, 'must be a whole number'), v.transform(Number))),
  page: v.optional(v.pipe(v.string(), v.regex(/^\d{1,12}$/, 'is not a page from this API'))),
})
export type CostsQuery = v.InferOutput<typeof costsQuery>

const page = <T extends v.GenericSchema>(result: T) =>
  v.object({
    object: v.literal('page'),
    data: v.array(
      v.object({ object: v.literal('bucket'), start_time: v.number(), end_time: v.number(), results: v.array(result) }),
    ),
    has_more: v.boolean(),
    next_page: v.nullable(v.string()),
  })

export const usageResult = v.object({
  object: v.string(),
  /** Tokens charged (net of what was given back), as the ledger holds them. */
  input_tokens: v.number(),
  /** Requests answered. */
  num_model_requests: v.number(),
  project_id: v.nullable(v.string()),
  api_key_id: v.nullable(v.string()),
  model: v.nullable(v.string()),
  /** The request tag, when grouped by `tag`; null for untagged usage. */
  tag: v.nullable(v.string()),
  user_id: v.null(),
})
export const usagePage = page(usageResult)

export const costResult = v.object({
  object: v.literal('organization.costs.result'),
  amount: v.object({ value: v.number(), currency: v.literal('usd') }),
  line_item: v.nullable(v.string()),
  project_id: v.nullable(v.string()),
  tag: v.nullable(v.string()),
})
export const costsPage = page(costResult)

export type UsageResult = v.InferOutput<typeof usageResult>
export type CostResult = v.InferOutput<typeof costResult>
export type Page<R> = {
  object: 'page'
  data: Array<{ object: 'bucket'; start_time: number; end_time: number; results: R[] }>
  has_more: boolean
  next_page: string | null
}
