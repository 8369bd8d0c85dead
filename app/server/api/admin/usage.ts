/** `/v1/organization/usage/{product}` and `/costs`: the admin key's organisation's usage in OpenAI's buckets. */
import {
  bucketLimits,
  bucketWidths,
  usageProducts,
  type CostResult,
  type CostsQuery,
  type Page,
  type UsageGroup,
  type UsageProduct,
  type UsageQuery,
  type UsageResult,
} from '~/contracts/admin-usage'
import { usageRows, type UsageRow } from '../../domain/admin-usage'
import { keysOfOrganisation } from '../../domain/organisation-keys'
import { requireRole } from '../../domain/organisations'
import { listUsdPerToken } from '../../domain/packs'
import { InvalidInput } from '../../domain/refusals'
import type { Caller } from '../caller'
import { adminOf } from './caller'

const both = <T>(a?: T[], b?: T[]) => (a || b ? [...(a ?? []), ...(b ?? [])] : undefined)
/** Up to the end of this second, so what was charged a moment ago is in. */
const now = () => Math.ceil(Date.now() / 1000)

function refuse(field: string, msg: string): never {
  throw new InvalidInput([{ loc: ['query', field], msg, type: 'value_error' }])
}

/** The page's buckets: from `page` (a bucket's start) or `start_time`, at most `limit` of them, to `end_time`. */
function bucketsOf(
  query: { start_time: number; end_time?: number; page?: string; limit?: number },
  width: number,
  limits: readonly [number, number],
) {
  const end = query.end_time ?? now()
  if (end <= query.start_time) refuse('end_time', 'must be after start_time')
  const limit = query.limit ?? limits[0]
  if (limit < 1 || limit > limits[1]) refuse('limit', `must be between 1 and ${limits[1]} for this bucket width`)
  const first = query.page === undefined ? 0 : Math.round((Number(query.page) - query.start_time) / width)
  if (first < 0) refuse('page', 'is not a page from this API')
  const total = Math.ceil((end - query.start_time) / width)
  const last = Math.min(total, first + limit)
  return { first, last, end, hasMore: last < total }
}

async function rowsFor(
  caller: Caller,
  query: { start_time: number },
  products: string[],
  width: number,
  end: number,
  filters: { projectIds?: string[]; keyFilter?: string[]; models?: string[]; byTag?: boolean; tags?: string[] },
): Promise<UsageRow[]> {
  const { db, user, organisation } = await adminOf(caller)
  await requireRole(db, user.uid, organisation.id, 'usage.read')
  const keyIds = (await keysOfOrganisation(db, organisation)).map((k) => k.id)
  return usageRows(db, { keyIds, start: query.start_time, end, width, products, ...filters }, listUsdPerToken())
}

/** Rows folded into one bucket's results, keyed by the dimensions asked for (the others null). */
function fold<R>(
  rows: UsageRow[],
  keyOf: (row: UsageRow) => string,
  make: (row: UsageRow) => R,
  add: (r: R, row: UsageRow) => void,
) {
  const out = new Map<string, R>()
  for (const row of rows) {
    const id = keyOf(row)
    let result = out.get(id)
    if (!result) out.set(id, (result = make(row)))
    add(result, row)
  }
  return [...out.values()]
}

function paged<R>(
  start: number,
  width: number,
  span: ReturnType<typeof bucketsOf>,
  rows: UsageRow[],
  results: (rows: UsageRow[]) => R[],
): Page<R> {
  const data = []
  for (let i = span.first; i < span.last; i++) {
    const bucketStart = start + i * width
    data.push({
      object: 'bucket' as const,
      start_time: bucketStart,
      end_time: Math.min(bucketStart + width, span.end),
      results: results(rows.filter((r) => r.bucket === i)),
    })
  }
  return {
    object: 'page',
    data,
    has_more: span.hasMore,
    next_page: span.hasMore ? String(start + span.last * width) : null,
  }
}

export async function usageFor(caller: Caller, product: UsageProduct, query: UsageQuery): Promise<Page<UsageResult>> {
  const ledgerProduct = usageProducts[product]
  const width = bucketWidths[query.bucket_width]
  const span = bucketsOf(query, width, bucketLimits[query.bucket_width])
  const groups = new Set<UsageGroup>(both(query.group_by, query['group_by[]']) ?? [])
  const rows = await rowsFor(
    caller,
    query,
    [ledgerProduct],
    width,
    Math.min(span.end, query.start_time + span.last * width),
    {
      projectIds: both(query.project_ids, query['project_ids[]']),
      keyFilter: both(query.api_key_ids, query['api_key_ids[]']),
      models: both(query.models, query['models[]']),
      byTag: groups.has('tag'),
      tags: both(query.tags, query['tags[]']),
    },
  )
  const dims = (r: UsageRow) => ({
    project_id: groups.has('project_id') ? r.project_id : null,
    api_key_id: groups.has('api_key_id') ? r.key_id : null,
    model: groups.has('model') ? r.model : null,
    tag: groups.has('tag') ? r.tag : null,
  })
  return paged(query.start_time, width, span, rows, (bucket) =>
    fold(
      bucket,
      (r) => JSON.stringify(dims(r)),
      (r): UsageResult => ({
        object: `organization.usage.${product}.result`,
        input_tokens: 0,
        num_model_requests: 0,
        ...dims(r),
        user_id: null,
      }),
      (result, r) => {
        result.input_tokens += r.tokens
        result.num_model_requests += r.requests
      },
    ),
  )
}

const round = (usd: number) => Math.round(usd * 1e6) / 1e6

export async function costsFor(caller: Caller, query: CostsQuery): Promise<Page<CostResult>> {
  const width = bucketWidths['1d']
  const span = bucketsOf(query, width, bucketLimits['1d'])
  const groups = new Set(both(query.group_by, query['group_by[]']) ?? [])
  const rows = await rowsFor(
    caller,
    query,
    Object.values(usageProducts),
    width,
    Math.min(span.end, query.start_time + span.last * width),
    {
      projectIds: both(query.project_ids, query['project_ids[]']),
      byTag: groups.has('tag'),
      tags: both(query.tags, query['tags[]']),
    },
  )
  const dims = (r: UsageRow) => ({
    line_item: groups.has('line_item') ? r.product : null,
    project_id: groups.has('project_id') ? r.project_id : null,
    tag: groups.has('tag') ? r.tag : null,
  })
  return paged(query.start_time, width, span, rows, (bucket) =>
    fold(
      bucket.filter((r) => r.tokens !== 0),
      (r) => JSON.stringify(dims(r)),
      (r): CostResult => ({ object: 'organization.costs.result', amount: { value: 0, currency: 'usd' }, ...dims(r) }),
      (result, r) => {
        result.amount.value = round(result.amount.value + r.usd)
      },
    ),
  )
}
