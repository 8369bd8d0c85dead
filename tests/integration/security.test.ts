import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { endpointMethods } from '~/endpoint-methods'
import { provideEndpointMethods } from '~/server/http/endpoint-methods-lookup'
import { requestMiddleware } from '~/start'
import { Route as challengeRoute } from '~/routes/api/v1/captcha/challenge'
import { Route as feUserRoute } from '~/routes/api/v1/api_key/fe_user'
import { Route as transactionRoute } from '~/routes/api/v1/billing/transaction'
import { Route as paginatedRoute } from '~/routes/api/v1/billing/paginated_transaction'
import { Route as consumptionRoute } from '~/routes/api/v1/billing/total_consumption'
import { Route as notificationRoute } from '~/routes/api/v1/billing/balance_notification'
import { Route as modelsRoute } from '~/routes/api/v1/models/index'
import { Route as modelRoute } from '~/routes/api/v1/models/slug/$slug'
import { Route as productRoute } from '~/routes/api/v1/product'
import { Route as openApiRoute } from '~/routes/api/v1/openapi[.]json'
import { BASE, buildRequest, call, fingerprint, keyWithBalance, setupApi, testEnv } from '../support/api'
import { runPipeline } from '../support/request-pipeline'

testEnv()
// As the server entry (app/server.ts) does.
provideEndpointMethods(endpointMethods)
let database: Awaited<ReturnType<typeof setupApi>>
beforeAll(async () => {
  database = await setupApi()
})
afterAll(() => database.close())

/** Runs a request through the start middleware; the terminal handler answers like a page or API route would. */
async function throughMiddleware(
  request: Request,
  answer: () => Response = () =>
    new Response('<!doctype html><p>page</p>', { headers: { 'content-type': 'text/html' } }),
) {
  let reached = false
  let nonce: unknown
  const { response } = await runPipeline(requestMiddleware, request, (context) => {
    reached = true
    nonce = context.nonce
    return answer()
  })
  return { response, reached, nonce }
}

const post = (path: string, headers: Record<string, string>) =>
  buildRequest('POST', path, { headers, form: { captcha: 'x' } })

describe('security headers on every answer (test 26)', () => {
  it('sends CSP with a per-request nonce and frame-ancestors, HSTS, nosniff and Referrer-Policy on pages', async () => {
    const first = await throughMiddleware(buildRequest('GET', '/en-US/reader'))
    const second = await throughMiddleware(buildRequest('GET', '/'))
    const csp = first.response.headers.get('content-security-policy')!
    expect(csp).toContain(`'nonce-${first.nonce}'`)
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/)
    expect(first.nonce).not.toBe(second.nonce)
    expect(first.response.headers.get('strict-transport-security')).toMatch(/^max-age=\d+/)
    expect(first.response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(first.response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
  })

  it('sends them on API answers, refusals and redirects too', async () => {
    const api = await throughMiddleware(buildRequest('GET', '/api/v1/product'), () => Response.json([]))
    const refused = await throughMiddleware(post('/api/v1/api_key/trial', { origin: 'https://evil.example' }))
    const redirect = await throughMiddleware(buildRequest('GET', '/xx'), () => Response.redirect(`${BASE}/`, 307))
    for (const { response } of [api, refused, redirect]) {
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    }
    expect(redirect.response.status).toBe(307)
  })

  it('gives API answers a policy that lets nothing run, and no nonce', async () => {
    const api = await throughMiddleware(buildRequest('GET', '/api/v1/product'), () => Response.json([]))
    const csp = api.response.headers.get('content-security-policy')!
    expect(csp).toContain("default-src 'none'")
    expect(csp).not.toContain('script-src')
    expect(api.nonce).toBeUndefined()
    const page = await throughMiddleware(buildRequest('GET', '/api-reference'))
    expect(page.response.headers.get('content-security-policy')).toContain(`'nonce-${page.nonce}'`)
  })
})

describe('CSRF and CORS (test 25)', () => {
  it('refuses a state-changing request from a foreign origin with 403 before it reaches the route', async () => {
    for (const headers of <Array<Record<string, string>>>[
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { cookie: 'apiKey=lds_x' },
    ]) {
      const { response, reached } = await throughMiddleware(post('/api/v1/billing/transfer_balance', headers))
      expect(response.status, JSON.stringify(headers)).toBe(403)
      expect(await response.json()).toEqual({ detail: 'Cross-site request refused' })
      expect(reached).toBe(false)
    }
  })

  it('lets our own pages and non-browser clients with a bearer key through', async () => {
    for (const headers of <Array<Record<string, string>>>[
      { origin: BASE },
      { 'sec-fetch-site': 'same-origin', origin: BASE },
      { authorization: 'Bearer lds_x' },
    ]) {
      expect((await throughMiddleware(post('/api/v1/api_key/trial', headers))).reached, JSON.stringify(headers)).toBe(
        true,
      )
    }
    expect(
      (await throughMiddleware(buildRequest('GET', '/api/v1/product', { headers: { origin: 'https://evil.example' } })))
        .reached,
    ).toBe(true)
  })

  it('answers preflights only for PUBLIC_BASE_URL and names only it as allowed origin', async () => {
    const preflight = (origin: string) =>
      buildRequest('OPTIONS', '/api/v1/billing/transfer_balance', {
        headers: { origin, 'access-control-request-method': 'POST' },
      })
    const ours = await throughMiddleware(preflight(BASE))
    expect(ours.response.status).toBe(204)
    expect(ours.response.headers.get('access-control-allow-origin')).toBe(BASE)
    expect(ours.response.headers.get('access-control-allow-headers')).toContain('Authorization')
    const theirs = await throughMiddleware(preflight('https://evil.example'))
    expect(theirs.response.status).toBe(403)
    expect(theirs.response.headers.get('access-control-allow-origin')).toBeNull()
    const read = await throughMiddleware(
      buildRequest('GET', '/api/v1/product', { headers: { origin: 'https://evil.example' } }),
      () => Response.json([]),
    )
    expect(read.response.headers.get('access-control-allow-origin')).toBeNull()
  })
})

describe('GET never changes state (test 25)', () => {
  it('leaves the database as it was after every GET of the API', async () => {
    const key = await keyWithBalance(database.db, 500)
    await call(notificationRoute, 'POST', '/api/v1/billing/balance_notification', {
      bearer: key.apiKey,
      json: { thresholds: [100], email: 'x@example.com' },
    })
    const before = await fingerprint(database.db)
    const gets: Array<[Parameters<typeof call>[0], string, Parameters<typeof call>[3]?]> = [
      [challengeRoute, '/api/v1/captcha/challenge', { query: { action: 'new_key' } }],
      [feUserRoute, '/api/v1/api_key/fe_user', { query: { api_key: key.apiKey } }],
      [transactionRoute, '/api/v1/billing/transaction', { bearer: key.apiKey }],
      [paginatedRoute, '/api/v1/billing/paginated_transaction', { bearer: key.apiKey, query: { num_records: '1' } }],
      [consumptionRoute, '/api/v1/billing/total_consumption', { bearer: key.apiKey }],
      [notificationRoute, '/api/v1/billing/balance_notification', { bearer: key.apiKey }],
      [modelsRoute, '/api/v1/models'],
      [modelRoute, '/api/v1/models/slug/reranker-v3', { params: { slug: 'reranker-v3' } }],
      [productRoute, '/api/v1/product'],
      [openApiRoute, '/api/v1/openapi.json'],
    ]
    for (const [route, path, init] of gets) expect((await call(route, 'GET', path, init)).status, path).toBe(200)
    expect(await fingerprint(database.db)).toEqual(before)
  })
})
