import * as v from 'valibot'
import { brand } from '../../../app.config'
import { toJsonSchema, type JsonSchema } from './json-schema'
import * as s from './schemas'

type Auth = 'key' | 'key-or-query' | 'service' | 'none'
interface Operation {
  method: 'get' | 'post' | 'delete'
  path: string
  summary: string
  description?: string
  auth: Auth
  query?: v.GenericSchema
  form?: v.GenericSchema
  json?: v.GenericSchema
  /** A valid body for docs and tools, where the schema alone cannot give one (cross-field rules). */
  example?: unknown
  answer: v.GenericSchema
  errors: number[]
}

const key = (o: Omit<Operation, 'auth'>): Operation => ({ auth: 'key', ...o })

/** Every route of spec §7 this service implements, described once from the schemas the routes validate with. */
export const operations: Operation[] = [
  { method: 'get', path: '/api/v1/captcha/challenge', summary: 'A captcha challenge (ALTCHA) or the Turnstile site key', description: 'Feed the answer to the captcha widget; the solved widget response goes in the `captcha` form field of the calls that need it. Each challenge can be redeemed once.', auth: 'none', answer: v.unknown(), errors: [] },
  { method: 'post', path: '/api/v1/api_key/trial', summary: 'Issue a trial key with the free pack of 10,000,000 tokens', description: 'Rate limited per client address; on 429 ask for an empty key instead.', auth: 'none', form: s.captchaForm, answer: s.apiKeyAnswer, errors: [400, 415, 422, 429] },
  { method: 'post', path: '/api/v1/api_key/empty', summary: 'Issue a key with no tokens', auth: 'none', form: s.captchaForm, answer: s.apiKeyAnswer, errors: [400, 415, 422, 429] },
  { method: 'get', path: '/api/v1/api_key/fe_user', summary: 'Key info: e-mail, wallet and metadata', description: 'The key goes in the `Authorization: Bearer` header or, for browser links, in the `api_key` query parameter.', auth: 'key-or-query', query: s.feUserQuery, answer: s.keyInfoAnswer, errors: [401, 422, 429] },
  key({ method: 'delete', path: '/api/v1/api_key', summary: 'Revoke the bearer key', description: 'The balance stays in the ledger but can no longer be spent. Needs a solved captcha.', form: s.captchaForm, answer: s.revokedAnswer, errors: [400, 401, 415, 422] }),
  key({ method: 'get', path: '/api/v1/billing/transaction', summary: 'The latest transaction (null before the first), or one by id', query: s.transactionQuery, answer: v.nullable(s.transactionAnswer), errors: [401, 404, 422] }),
  key({ method: 'get', path: '/api/v1/billing/paginated_transaction', summary: 'Transactions, newest first, with a cursor', query: s.paginatedTransactionQuery, answer: s.paginatedTransactionAnswer, errors: [401, 422] }),
  key({ method: 'get', path: '/api/v1/billing/total_consumption', summary: 'Tokens consumed per product and per day', query: s.totalConsumptionQuery, answer: s.totalConsumptionAnswer, errors: [401, 422] }),
  key({ method: 'post', path: '/api/v1/billing/transfer_balance', summary: 'Move the whole balance to another key and revoke this one', description: 'Atomic: the receiver gets the whole balance and the bearer key is revoked in one step. Needs a solved captcha.', query: s.transferBalanceQuery, form: s.captchaForm, answer: s.transferAnswer, errors: [400, 401, 404, 415, 422] }),
  key({ method: 'get', path: '/api/v1/billing/balance_notification', summary: 'The balance alerts of the key', answer: s.balanceNotificationAnswer, errors: [401] }),
  key({ method: 'post', path: '/api/v1/billing/balance_notification', summary: 'Set up to 3 balance alert thresholds and the e-mail', description: 'One e-mail per threshold each time the balance falls below it. A bad thresholds list answers 400 `Invalid thresholds: Must be array with max 3 values`.', json: s.balanceNotificationBody, example: { thresholds: [1_000_000, 100_000], email: 'you@example.com' }, answer: s.balanceNotificationAnswer, errors: [400, 401, 415, 422] }),
  key({ method: 'delete', path: '/api/v1/billing/balance_notification', summary: 'Remove all balance alerts', answer: s.balanceNotificationAnswer, errors: [401] }),
  { method: 'get', path: '/api/v1/models', summary: 'The model catalogue', auth: 'none', query: s.modelsQuery, answer: v.array(s.modelAnswer), errors: [422] },
  { method: 'get', path: '/api/v1/models/slug/{slug}', summary: 'One model, with num_replicas', auth: 'none', answer: s.modelAnswer, errors: [404] },
  { method: 'get', path: '/api/v1/product', summary: 'Token packs: the free pack, then the packs on sale', auth: 'none', answer: v.array(s.packAnswer), errors: [] },
  { method: 'post', path: '/internal/v1/usage', summary: 'Meter consumption for a key (service token); idempotent per usage_event_id', description: 'Give exactly one of `api_key` and `key_id`. A repeated `usage_event_id` answers `duplicate: true` without charging again; 409 if it was recorded for another key, 402 if the balance is too low.', auth: 'service', json: s.usageBody, example: { api_key: `${brand.keyPrefix}…`, product: 'embeddings', tokens: 1200, usage_event_id: 'req-8f14e45f' }, answer: s.usageAnswer, errors: [401, 402, 404, 409, 415, 422] },
]

const statusText: Record<number, string> = { 400: 'Bad request', 401: 'Missing, unknown or revoked key', 402: 'Balance exhausted', 404: 'Not found', 409: 'Conflict', 413: 'Body too large', 415: 'Wrong content type', 422: 'Invalid input', 429: 'Rate limited' }

function parameters(op: Operation): JsonSchema[] {
  const params: JsonSchema[] = []
  if (op.path.includes('{slug}')) params.push({ name: 'slug', in: 'path', required: true, schema: { type: 'string' } })
  const query = op.query && toJsonSchema(op.query)
  for (const [name, schema] of Object.entries((query?.properties as Record<string, JsonSchema>) ?? {})) {
    const { description, ...rest } = schema
    params.push({ name, in: 'query', required: ((query?.required as string[]) ?? []).includes(name), ...(description ? { description } : {}), schema: rest, ...(rest.type === 'array' ? { explode: true } : {}) })
  }
  return params
}

function operation(op: Operation): JsonSchema {
  const body = op.form ?? op.json
  const contentTypes = op.form ? ['application/x-www-form-urlencoded', 'multipart/form-data'] : ['application/json']
  return {
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    ...(op.auth === 'key' ? { security: [{ apiKey: [] }] } : op.auth === 'key-or-query' ? { security: [{ apiKey: [] }, {}] } : op.auth === 'service' ? { security: [{ serviceToken: [] }] } : { security: [] }),
    parameters: parameters(op),
    ...(body ? { requestBody: { required: true, content: Object.fromEntries(contentTypes.map((t) => [t, { schema: toJsonSchema(body), ...(op.example === undefined ? {} : { example: op.example }) }])) } } : {}),
    responses: {
      200: { description: 'OK', content: { 'application/json': { schema: toJsonSchema(op.answer) } } },
      ...Object.fromEntries(op.errors.map((code) => [code, { $ref: `#/components/responses/E${code}` }])),
    },
  }
}

export function openApiDocument(serverUrl: string): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {}
  for (const op of operations) (paths[op.path] ??= {})[op.method] = operation(op)
  const error = { content: { 'application/json': { schema: toJsonSchema(s.errorAnswer) } } }
  return {
    openapi: '3.1.0',
    info: { title: `${brand.name} dashboard API`, version: '1.0.0', description: 'Errors answer `{"detail": …}` with the HTTP status; 422 lists `{loc, msg, type}`.' },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: `An API key (${brand.keyPrefix}…)` },
        serviceToken: { type: 'http', scheme: 'bearer', description: 'USAGE_SERVICE_TOKEN of the metering services' },
      },
      responses: Object.fromEntries(Object.entries(statusText).map(([code, description]) => [`E${code}`, { description, ...error }])),
    },
  }
}
