import { toJsonSchema as convert } from '@valibot/to-json-schema'
import type * as v from 'valibot'
import { brand } from '#config'
import { errorAnswer } from '~/contracts/common'
import type { EndpointHandler } from './endpoint'
import { answerHeaders, answerHeadersOf, idempotencyParameter } from './openapi-headers'

type JsonSchema = Record<string, unknown>
type Spec = EndpointHandler['spec']

/**
 * The API's route files, loaded lazily (the document is built on request, not at start). The OpenAPI
 * route itself is left out: the document does not describe itself.
 */
const routeFiles = import.meta.glob<{ Route: { options: { server?: { handlers?: Record<string, unknown> } } } }>([
  '../../routes/api/**/*.ts',
  '../../routes/r/**/*.ts',
  '../../routes/s/**/*.ts',
  '../../routes/internal/**/*.ts',
  '../../routes/v1/**/*.ts',
  '!**/openapi[.]json.ts',
])

/** Client-side input as JSON Schema (OpenAPI 3.1 speaks draft 2020-12); checks a schema cannot express are in the descriptions. */
function toJsonSchema(schema: v.GenericSchema): JsonSchema {
  const { $schema: _dialect, ...rest } = convert(schema, {
    target: 'draft-2020-12',
    typeMode: 'input',
    errorMode: 'ignore',
  })
  return rest as JsonSchema
}

/** `../../routes/api/v1/models/slug/$slug.ts` → `/api/v1/models/slug/{slug}`, as the router reads file names. */
export function urlPathOf(file: string): string {
  const segments = file
    .replace(/^.*\/routes\//, '')
    .replace(/\.tsx?$/, '')
    .split('/')
  if (segments.at(-1) === 'index') segments.pop()
  // A splat route (`$.ts`) takes the rest of the path as its `_splat` parameter.
  return `/${segments.map((s) => (s === '$' ? '{_splat}' : s.replace(/^\$(.+)$/, '{$1}').replaceAll('[.]', '.'))).join('/')}`
}

const security = {
  key: [{ apiKey: [] }],
  'key-optional': [{ apiKey: [] }, {}],
  'key-or-query': [{ apiKey: [] }, { apiKeyQuery: [] }],
  service: [{ serviceToken: [] }],
  'id-token': [{ idToken: [] }],
  session: [{ session: [] }],
  'admin-key': [{ adminKey: [] }],
  none: [],
}

const statusText: Record<number, string> = {
  400: 'Bad request',
  401: 'Missing or unknown key (both read the same), a revoked key, or an expired one',
  403: 'Forbidden: a cross-site request, or a page the reader may not fetch (not a public address)',
  402: 'Balance exhausted',
  404: 'Not found',
  409: 'Conflict: the state changed, an `X-Request-Id` already spent on an answered request, or an `Idempotency-Key` whose first request is still being answered',
  413: 'Body too large',
  415: 'Wrong content type',
  422: 'Invalid input, or an `Idempotency-Key` already used for another request',
  429: 'Rate limited: retry after the seconds in `Retry-After`',
  501: 'No payment service is set up on this server (no Stripe keys, and the sandbox not asked for)',
  502: 'The inference engine failed (upstream API error)',
  504: 'The inference engine timed out',
  503: 'Database unreachable: retry after the seconds in `Retry-After`',
  507: 'Insufficient storage: the server has no room to store the upload now; nothing was kept or charged',
}

/** Any endpoint that needs the database answers 503 while it is unreachable; a client handles it alike everywhere. */
const everyEndpointMay = [503]

/** Parameters of one place (query or header) from the object schema that validates them. */
function namedParameters(place: 'query' | 'header', schema: v.GenericSchema | undefined): JsonSchema[] {
  const json = schema ? toJsonSchema(schema) : undefined
  const properties = (json?.properties ?? {}) as Record<string, JsonSchema>
  const required = (json?.required ?? []) as string[]
  return Object.entries(properties).map(([name, { description, ...schema }]) => ({
    name,
    in: place,
    required: required.includes(name),
    ...(description ? { description } : {}),
    schema,
    ...(schema.type === 'array' ? { explode: true } : {}),
  }))
}

function parameters(path: string, spec: Spec): JsonSchema[] {
  const inPath = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    ...(spec.splat?.name === name ? { description: spec.splat.description } : {}),
    schema: { type: 'string' },
  }))
  return [
    ...inPath,
    ...namedParameters('query', spec.query),
    ...namedParameters('header', spec.headers),
    ...idempotencyParameter(spec),
  ]
}

/** The 200 answer's media types: the JSON one, then any the endpoint answers instead when `Accept` asks. */
function successContent(spec: Spec): JsonSchema {
  const content: JsonSchema = { 'application/json': { schema: toJsonSchema(spec.answer) } }
  for (const { mediaType, description, schema } of spec.alternatives ?? [])
    content[mediaType] = { schema: { ...(schema ? toJsonSchema(schema) : { type: 'string' }), description } }
  return content
}

/** A streamed upload's form: its file fields as binary strings, as OpenAPI describes file uploads. */
function uploadSchema(upload: NonNullable<Spec['upload']>): JsonSchema {
  const schema = toJsonSchema(upload.schema)
  const properties = schema.properties as Record<string, JsonSchema>
  for (const name of upload.files) properties[name] = { ...properties[name], type: 'string', format: 'binary' }
  return schema
}

function operation(path: string, spec: Spec): JsonSchema {
  const body = spec.form ?? spec.json
  const contentTypes = spec.form
    ? ['application/x-www-form-urlencoded', 'multipart/form-data']
    : spec.jsonOrForm
      ? ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data']
      : ['application/json']
  const example = spec.example === undefined ? {} : { example: spec.example }
  return {
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    ...(spec.group ? { tags: [spec.group] } : {}),
    security: security[spec.auth],
    // Called by this deployment's own services with their token, never by a visitor: documented for them, left
    // out of the reference page (and of tools that honour the extension, as Redocly's do).
    ...(spec.auth === 'service' ? { 'x-internal': true } : {}),
    parameters: parameters(path, spec),
    ...(spec.upload
      ? { requestBody: { required: true, content: { 'multipart/form-data': { schema: uploadSchema(spec.upload) } } } }
      : body
        ? {
            requestBody: {
              required: true,
              content: Object.fromEntries(
                contentTypes.map((type) => [type, { schema: toJsonSchema(body), ...example }]),
              ),
            },
          }
        : {}),
    responses: {
      200: { description: 'OK', ...answerHeadersOf(spec), content: successContent(spec) },
      ...Object.fromEntries(
        [...spec.errors, ...everyEndpointMay].map((code) => [code, { $ref: `#/components/responses/E${code}` }]),
      ),
    },
  }
}

/** The OpenAPI 3.1 document of every endpoint built with `endpoint()`, from the specs next to their routes. */
export async function openApiDocument(serverUrl: string): Promise<JsonSchema> {
  const paths: Record<string, Record<string, JsonSchema>> = {}
  for (const [file, load] of Object.entries(routeFiles).sort(([a], [b]) => a.localeCompare(b))) {
    const filePath = urlPathOf(file)
    const handlers = (await load()).Route.options.server?.handlers ?? {}
    for (const [method, handler] of Object.entries(handlers)) {
      const spec = (handler as Partial<EndpointHandler>).spec
      if (!spec) continue
      const path = spec.splat ? filePath.replace('{_splat}', `{${spec.splat.name}}`) : filePath
      ;(paths[path] ??= {})[method.toLowerCase()] = operation(path, spec)
    }
  }
  const error = { content: { 'application/json': { schema: toJsonSchema(errorAnswer) } } }
  return {
    openapi: '3.1.0',
    info: {
      title: `${brand.name} API`,
      version: '1.0.0',
      description: 'Errors answer `{"detail": …}` with the HTTP status; 422 lists `{loc, msg, type}`.',
    },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: `An API key (${brand.keyPrefix}…)` },
        apiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key', description: 'The API key as a query parameter' },
        serviceToken: { type: 'http', scheme: 'bearer', description: 'USAGE_SERVICE_TOKEN of the metering services' },
        idToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'A Firebase ID token of the signed-in user',
        },
        session: { type: 'apiKey', in: 'cookie', name: 'session', description: 'The session cookie a sign-in sets' },
        adminKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'An Administration API key (`sk-admin-…`), made by an organisation’s owner',
        },
      },
      headers: answerHeaders,
      responses: Object.fromEntries(
        Object.entries(statusText).map(([code, description]) => [`E${code}`, { description, ...error }]),
      ),
    },
  }
}
