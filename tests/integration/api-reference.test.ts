import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { OpenApiDocument } from '~/features/api-reference/openapi-types'
import { referenceModel } from '~/features/api-reference/reference-model'
import { propertyRows } from '~/features/api-reference/schema-rows'
import { openApiDocument, urlPathOf } from '~/server/http/openapi'
import { readerHeaders } from '~/contracts/reader'
import { docsEntries, docsEntryForPath } from '#content/docs-index'

const routesDir = join(import.meta.dirname, '../../app/routes')
/** The document does not describe itself. */
const undocumented = new Set(['GET /api/v1/openapi.json'])

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    return entry.isDirectory() ? routeFiles(path) : /\.tsx?$/.test(entry.name) ? [path] : []
  })
}

/** The HTTP methods a route file handles: the keys of its `handlers` object. */
function handledMethods(file: string): string[] {
  const source = readFileSync(file, 'utf8')
  return [...new Set([...source.matchAll(/\b(GET|POST|PUT|PATCH|DELETE)\s*:/g)].map((m) => m[1]!))]
}

const document = (await openApiDocument('https://api.example')) as unknown as OpenApiDocument
/** A splat route (`$.ts`) documents its rest-of-path parameter under the name its spec gives it. */
function documentedPath(file: string): string {
  const splat = readFileSync(file, 'utf8').match(/splat:\s*\{\s*name:\s*'(\w+)'/)?.[1]
  return splat ? urlPathOf(file).replace('{_splat}', `{${splat}}`) : urlPathOf(file)
}

const endpoints = ['api/v1', 'internal', 'v1', 'r', 's']
  .flatMap((dir) => routeFiles(join(routesDir, dir)))
  // A catch-all answers unknown paths with 404; it is no endpoint.
  .filter((file) => !readFileSync(file, 'utf8').includes('unknownEndpointHandlers'))
  .flatMap((file) => handledMethods(file).map((method) => `${method} ${documentedPath(file)}`))

describe('the API reference', () => {
  it('finds the route files it checks', () => {
    expect(endpoints).toContain('POST /internal/v1/usage')
    expect(endpoints).toContain('GET /api/v1/models/slug/{slug}')
    expect(endpoints).toContain('DELETE /api/v1/api_key')
    expect(endpoints).toContain('POST /v1/embeddings')
    expect(endpoints).toContain('DELETE /v1/classifiers/{id}')
    expect(endpoints).toContain('GET /r/{url}')
    expect(endpoints).toContain('GET /s/{query}')
    expect(endpoints).toContain('POST /s')
    expect(endpoints).toContain('POST /v1/chat/completions')
  })

  it('documents the answers that are not JSON: the reader’s text and event stream, deep search’s chunks', () => {
    const reader = document.paths['/r/{url}']!.get!
    expect(Object.keys((reader.responses['200'] as { content: object }).content)).toEqual([
      'application/json',
      'text/plain',
      'text/event-stream',
    ])
    // Every header the reader reads (its contract), none left out of the document and none made up.
    expect(reader.parameters!.filter((p) => p.in === 'header').map((p) => p.name)).toEqual(
      Object.keys(readerHeaders.entries),
    )
    expect(Object.keys(readerHeaders.entries)).toEqual(
      expect.arrayContaining(['x-return-format', 'x-engine', 'x-md-hr']),
    )
    expect(reader.parameters!.find((p) => p.in === 'path')).toMatchObject({ name: 'url', required: true })
    const chat = document.paths['/v1/chat/completions']!.post!
    const stream = (chat.responses['200'] as { content: Record<string, { schema: { properties: object } }> }).content
    expect(Object.keys(stream['text/event-stream'].schema.properties)).toContain('visitedURLs')
  })

  it.each(endpoints.filter((endpoint) => !undocumented.has(endpoint)))('documents %s', (endpoint) => {
    const [method, path] = endpoint.split(' ') as [string, string]
    const operation = document.paths[path]?.[method.toLowerCase()]
    expect(operation, `${endpoint} has a route file but no operation in the OpenAPI document`).toBeDefined()
    expect(operation!.summary).toBeTruthy()
  })

  it('tells clients of metering that an unreachable database answers 503', () => {
    const responses = document.paths['/internal/v1/usage']?.post?.responses as Record<string, unknown>
    expect(responses['503']).toEqual({ $ref: '#/components/responses/E503' })
  })

  it('documents no endpoint that has no route file', () => {
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    )
    expect(documented.filter((endpoint) => !endpoints.includes(endpoint))).toEqual([])
  })

  it('shows every operation once, grouped by path prefix in reading order', () => {
    const model = referenceModel(document)
    expect(model.baseUrl).toBe('https://api.example')
    expect(model.groups.map((g) => g.id)).toEqual([
      'v1',
      'api_key',
      'billing',
      'account',
      'organization',
      'models',
      'product',
      'classifiers',
      'captcha',
    ])
    const ids = model.groups.flatMap((g) => g.operations.map((o) => o.id))
    expect(new Set(ids).size).toBe(ids.length)
    const internal = endpoints.filter((endpoint) => endpoint.includes(' /internal/'))
    expect(internal).toEqual(['POST /internal/v1/usage'])
    expect(ids).toHaveLength(endpoints.length - undocumented.size - internal.length)
  })

  it('marks the metering services’ endpoint internal: in the document for them, not on the reference page', () => {
    expect(document.paths['/internal/v1/usage']?.post?.['x-internal']).toBe(true)
    const internal = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, operation]) => (operation['x-internal'] ? [`${method} ${path}`] : [])),
    )
    expect(internal).toEqual(['post /internal/v1/usage'])
    const paths = referenceModel(document).groups.flatMap((g) => g.operations.map((o) => o.path))
    expect(paths.filter((path) => path.startsWith('/internal/'))).toEqual([])
  })

  it('describes the alert body with its limit of 3 thresholds', () => {
    const operation = referenceModel(document)
      .groups.flatMap((g) => g.operations)
      .find((o) => o.id === 'post-api-v1-billing-balance_notification')!
    const thresholds = propertyRows(operation.body!.schema).find((row) => row.name === 'thresholds')!
    expect(thresholds).toMatchObject({ type: 'integer[]', required: true })
    expect(thresholds.constraints).toContainEqual({ kind: 'items', min: undefined, max: 3 })
  })

  it('writes curl examples with the bearer key, required query and body', () => {
    const operations = referenceModel(document).groups.flatMap((g) => g.operations)
    const transfer = operations.find((o) => o.id === 'post-api-v1-billing-transfer_balance')!.curl
    expect(transfer).toContain(
      `curl -X POST 'https://api.example/api/v1/billing/transfer_balance?receiver_key=<receiver_key>&revoke_sender_key=true'`,
    )
    expect(transfer).toContain('-H "Authorization: Bearer $API_KEY"')
    expect(transfer).toContain(`--data-urlencode 'captcha=<captcha>'`)
    const embeddings = operations.find((o) => o.id === 'post-v1-embeddings')!.curl
    expect(embeddings).toContain('-H "Authorization: Bearer $API_KEY"')
    expect(embeddings).toMatch(/-d '\{.*"model":/)
  })

  it('links every search API operation to the page of the documentation that explains it', () => {
    const paths = Object.keys(document.paths)
    const search = paths.filter((path) => /^\/(v1|r|s)(\/|$)/.test(path))
    expect(search.length).toBeGreaterThan(10)
    expect(search.filter((path) => !docsEntryForPath(path))).toEqual([])
    // And no page claims a path the API does not have (a renamed endpoint would leave its page unlinked).
    const covers = (prefix: string) => paths.some((path) => path === prefix || path.startsWith(`${prefix}/`))
    expect(docsEntries.flatMap((entry) => entry.paths.filter((prefix) => !covers(prefix)))).toEqual([])
  })
})
