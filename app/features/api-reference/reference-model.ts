import type {
  JsonValue,
  OpenApiDocument,
  OperationObject,
  ParameterObject,
  ResponseObject,
  SchemaNode,
} from './openapi-types'

/** How a caller proves who they are, read from the operation's `security`. */
export type AuthKind =
  'none' | 'key' | 'key-optional' | 'key-or-query' | 'service' | 'id-token' | 'session' | 'admin-key'

export interface ResponseEntry {
  status: string
  description: string
  schema?: SchemaNode
}

export interface ReferenceOperation {
  id: string
  method: string
  path: string
  summary?: string
  description?: string
  auth: AuthKind
  parameters: ParameterObject[]
  body?: { contentTypes: string[]; schema: SchemaNode; example?: JsonValue }
  responses: ResponseEntry[]
  curl: string
}

export interface ReferenceGroup {
  id: string
  operations: ReferenceOperation[]
}

export interface ReferenceModel {
  title: string
  baseUrl: string
  groups: ReferenceGroup[]
  errors: Array<{ status: string; description: string }>
}

/** The order a new reader meets the API in: what it sells, a key, spending it, the catalogue, then the captcha. */
export const groupOrder = [
  'v1',
  'api_key',
  'billing',
  'account',
  'organization',
  'models',
  'product',
  'classifiers',
  'captcha',
]
const methodOrder = ['get', 'post', 'put', 'patch', 'delete']

/** `/api/v1/billing/transfer_balance` → `billing`; `/internal/v1/usage` → `internal`; `/v1/rerank` → `v1`. */
export function groupOf(path: string, operation: OperationObject): string {
  if (operation.tags?.[0]) return operation.tags[0]
  const segments = path.split('/').filter(Boolean)
  return segments[0] === 'api' ? (segments[2] ?? 'api') : (segments[0] ?? 'api')
}

/** A stable anchor for one operation, e.g. `post-api-v1-api_key-trial`. */
export function operationAnchor(method: string, path: string): string {
  return `${method}-${path}`
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '-')
    .replace(/^-+|-+$/g, '')
}

function authOf(operation: OperationObject): AuthKind {
  const security = operation.security ?? []
  const schemes = security.flatMap((requirement) => Object.keys(requirement))
  if (schemes.includes('serviceToken')) return 'service'
  if (schemes.includes('idToken')) return 'id-token'
  if (schemes.includes('session')) return 'session'
  if (schemes.includes('adminKey')) return 'admin-key'
  if (!schemes.includes('apiKey')) return 'none'
  if (schemes.includes('apiKeyQuery')) return 'key-or-query'
  return security.some((requirement) => Object.keys(requirement).length === 0) ? 'key-optional' : 'key'
}

function resolveResponse(document: OpenApiDocument, response: OperationObject['responses'][string]): ResponseObject {
  if (!('$ref' in response)) return response
  const name = response.$ref.split('/').pop() ?? ''
  return document.components?.responses?.[name] ?? { description: response.$ref }
}

function operationModel(
  document: OpenApiDocument,
  baseUrl: string,
  method: string,
  path: string,
  operation: OperationObject,
): ReferenceOperation {
  const bodyTypes = Object.keys(operation.requestBody?.content ?? {})
  const bodyMedia = bodyTypes[0] ? operation.requestBody!.content[bodyTypes[0]] : undefined
  const body = bodyMedia?.schema
    ? { contentTypes: bodyTypes, schema: bodyMedia.schema, example: bodyMedia.example }
    : undefined
  const responses = Object.entries(operation.responses)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, raw]) => {
      const response = resolveResponse(document, raw)
      // Error answers all share the `{detail}` shape the intro describes; only successes get a table.
      const schema = status.startsWith('2') ? response.content?.['application/json']?.schema : undefined
      return { status, description: response.description, schema }
    })
  const model: Omit<ReferenceOperation, 'curl'> = {
    id: operationAnchor(method, path),
    method,
    path,
    summary: operation.summary,
    description: operation.description,
    auth: authOf(operation),
    parameters: operation.parameters ?? [],
    body,
    responses,
  }
  return { ...model, curl: curlExample(baseUrl, model) }
}

/**
 * Turns the document into the page's sections: one group per path prefix, operations in path order; the
 * internal ones (`x-internal`, the metering services') are left out.
 */
export function referenceModel(document: OpenApiDocument): ReferenceModel {
  const baseUrl = (document.servers?.[0]?.url ?? '').replace(/\/+$/, '')
  const groups = new Map<string, ReferenceOperation[]>()
  for (const [path, item] of Object.entries(document.paths)) {
    const methods = Object.keys(item).sort((a, b) => methodOrder.indexOf(a) - methodOrder.indexOf(b))
    for (const method of methods) {
      const operation = item[method]!
      if (operation['x-internal']) continue
      const id = groupOf(path, operation)
      if (!groups.has(id)) groups.set(id, [])
      groups.get(id)!.push(operationModel(document, baseUrl, method, path, operation))
    }
  }
  const rank = (id: string) => (groupOrder.includes(id) ? groupOrder.indexOf(id) : groupOrder.length)
  return {
    title: document.info.title,
    baseUrl,
    groups: [...groups].sort(([a], [b]) => rank(a) - rank(b)).map(([id, operations]) => ({ id, operations })),
    errors: Object.entries(document.components?.responses ?? {})
      .map(([name, response]) => ({ status: name.replace(/^E/, ''), description: response.description }))
      .sort((a, b) => a.status.localeCompare(b.status)),
  }
}

/** A value the schema accepts, for examples: the declared const, first choice or default, else a placeholder. */
export function exampleValue(schema: SchemaNode, name: string): JsonValue {
  if (schema.const !== undefined) return schema.const
  if (schema.enum?.length) return schema.enum[0]!
  if (schema.default !== undefined) return schema.default
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
  if (schema.format === 'email') return 'you@example.com'
  if (schema.format === 'date') return '2025-01-31'
  if (type === 'integer' || type === 'number') return schema.minimum ?? 1
  if (type === 'boolean') return true
  if (type === 'array') return schema.items ? [exampleValue(schema.items, name)] : []
  if (type === 'object') return exampleObject(schema)
  return `<${name}>`
}

function exampleObject(schema: SchemaNode): { [key: string]: JsonValue } {
  const required = schema.required ?? []
  return Object.fromEntries(
    Object.entries(schema.properties ?? {})
      .filter(([name]) => required.includes(name))
      .map(([name, property]) => [name, exampleValue(property, name)]),
  )
}

const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`

/** A copyable curl call: required parameters with example values, the bearer header and a valid-looking body. */
export function curlExample(baseUrl: string, operation: Omit<ReferenceOperation, 'curl'>): string {
  const params = operation.parameters
  let path = operation.path
  for (const param of params.filter((p) => p.in === 'path')) path = path.replace(`{${param.name}}`, `<${param.name}>`)
  const query = params
    .filter((p) => p.in === 'query' && p.required)
    .map((p) => `${encodeURIComponent(p.name)}=${String(exampleValue(p.schema ?? {}, p.name))}`)
    .join('&')
  const lines = [
    `curl${operation.method === 'get' ? '' : ` -X ${operation.method.toUpperCase()}`} ${shellQuote(`${baseUrl}${path}${query ? `?${query}` : ''}`)}`,
  ]
  if (operation.auth === 'key' || operation.auth === 'key-or-query') lines.push(`-H "Authorization: Bearer $API_KEY"`)
  if (operation.auth === 'service') lines.push(`-H "Authorization: Bearer $USAGE_SERVICE_TOKEN"`)
  const body = operation.body
  if (body?.contentTypes[0] === 'application/json') {
    lines.push(`-H 'Content-Type: application/json'`)
    lines.push(`-d ${shellQuote(JSON.stringify(body.example ?? exampleValue(body.schema, 'body')))}`)
  } else if (body) {
    const fields =
      body.example && typeof body.example === 'object' && !Array.isArray(body.example)
        ? body.example
        : exampleObject(body.schema)
    for (const [name, value] of Object.entries(fields))
      lines.push(`--data-urlencode ${shellQuote(`${name}=${String(value)}`)}`)
  }
  return lines.join(' \\\n  ')
}
