import * as v from 'valibot'
import { brand } from '../../../app.config'
import { toJsonSchema, type JsonSchema } from './json-schema'
import * as s from './schemas'

type Auth = 'key' | 'key-or-query' | 'service' | 'none'
interface Operation {
  method: 'get' | 'post' | 'delete'
  path: string
  summary: string
  auth: Auth
  query?: v.GenericSchema
  form?: v.GenericSchema
  json?: v.GenericSchema
  answer: v.GenericSchema
  errors: number[]
}

const key = (o: Omit<Operation, 'auth'>): Operation => ({ auth: 'key', ...o })

/** Every route of spec §7 this service implements, described once from the schemas the routes validate with. */
export const operations: Operation[] = [
  { method: 'get', path: '/api/v1/captcha/challenge', summary: 'A captcha challenge (ALTCHA) or the Turnstile site key', auth: 'none', answer: v.unknown(), errors: [] },
  { method: 'post', path: '/api/v1/api_key/trial', summary: 'Issue a trial key with the free pack of 10,000,000 tokens', auth: 'none', form: s.captchaForm, answer: s.apiKeyAnswer, errors: [400, 415, 422, 429] },
  { method: 'post', path: '/api/v1/api_key/empty', summary: 'Issue a key with no tokens', auth: 'none', form: s.captchaForm, answer: s.apiKeyAnswer, errors: [400, 415, 422, 429] },
  { method: 'get', path: '/api/v1/api_key/fe_user', summary: 'Key info: e-mail, wallet and metadata', auth: 'key-or-query', query: s.feUserQuery, answer: s.keyInfoAnswer, errors: [401, 422, 429] },
  key({ method: 'delete', path: '/api/v1/api_key', summary: 'Revoke the bearer key', form: s.captchaForm, answer: s.revokedAnswer, errors: [400, 401, 415, 422] }),
  key({ method: 'get', path: '/api/v1/billing/transaction', summary: 'The latest transaction (null before the first), or one by id', query: s.transactionQuery, answer: v.nullable(s.transactionAnswer), errors: [401, 404, 422] }),
  key({ method: 'get', path: '/api/v1/billing/paginated_transaction', summary: 'Transactions, newest first, with a cursor', query: s.paginatedTransactionQuery, answer: s.paginatedTransactionAnswer, errors: [401, 422] }),
  key({ method: 'get', path: '/api/v1/billing/total_consumption', summary: 'Tokens consumed per product and per day', query: s.totalConsumptionQuery, answer: s.totalConsumptionAnswer, errors: [401, 422] }),
  key({ method: 'post', path: '/api/v1/billing/transfer_balance', summary: 'Move the whole balance to another key and revoke this one', query: s.transferBalanceQuery, form: s.captchaForm, answer: s.transferAnswer, errors: [400, 401, 404, 415, 422] }),
  key({ method: 'get', path: '/api/v1/billing/balance_notification', summary: 'The balance alerts of the key', answer: s.balanceNotificationAnswer, errors: [401] }),
  key({ method: 'post', path: '/api/v1/billing/balance_notification', summary: 'Set up to 3 balance alert thresholds and the e-mail', json: s.balanceNotificationBody, answer: s.balanceNotificationAnswer, errors: [400, 401, 415, 422] }),
  key({ method: 'delete', path: '/api/v1/billing/balance_notification', summary: 'Remove all balance alerts', answer: s.balanceNotificationAnswer, errors: [401] }),
  { method: 'get', path: '/api/v1/models', summary: 'The model catalogue', auth: 'none', query: s.modelsQuery, answer: v.array(s.modelAnswer), errors: [422] },
  { method: 'get', path: '/api/v1/models/slug/{slug}', summary: 'One model, with num_replicas', auth: 'none', answer: s.modelAnswer, errors: [404] },
  { method: 'get', path: '/api/v1/product', summary: 'Token packs: the free pack, then the packs on sale', auth: 'none', answer: v.array(s.packAnswer), errors: [] },
  { method: 'post', path: '/internal/v1/usage', summary: 'Meter consumption for a key (service token); idempotent per usage_event_id', auth: 'service', json: s.usageBody, answer: s.usageAnswer, errors: [401, 402, 404, 409, 415, 422] },
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
    ...(op.auth === 'key' ? { security: [{ apiKey: [] }] } : op.auth === 'key-or-query' ? { security: [{ apiKey: [] }, {}] } : op.auth === 'service' ? { security: [{ serviceToken: [] }] } : { security: [] }),
    parameters: parameters(op),
    ...(body ? { requestBody: { required: true, content: Object.fromEntries(contentTypes.map((t) => [t, { schema: toJsonSchema(body) }])) } } : {}),
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
