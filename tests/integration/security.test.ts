import { describe, expect, it } from 'vitest'
import { BASE, call, fingerprint, keyWithBalance, respond, send, apiDatabase, type CallInit } from '../support/api'

const database = apiDatabase()

/** The nonce a live page stamps on its scripts, read from its HTML. */
async function nonceOf(response: Response): Promise<string | undefined> {
  return /<script[^>]* nonce="([^"]+)"/.exec(await response.text())?.[1]
}

/**
 * A captcha-guarded write with a made-up captcha: the route, when reached, refuses the captcha with 400, so
 * a 403 means the request was stopped before it.
 */
const post = (path: string, headers: Record<string, string>) =>
  send(
    new Request(`${BASE}${path}`, {
      method: 'POST',
      headers: { ...headers, 'x-forwarded-for': '203.0.113.7', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ captcha: 'x' }),
    }),
  )

describe('security headers on every answer (test 26)', () => {
  it('sends CSP with a per-request nonce and frame-ancestors, HSTS, nosniff and Referrer-Policy on pages', async () => {
    const first = await respond('GET', '/en-US/reader?live')
    const second = await respond('GET', '/en-US/embeddings?live')
    const csp = first.headers.get('content-security-policy')!
    const [firstNonce, secondNonce] = [await nonceOf(first), await nonceOf(second)]
    expect(firstNonce).toMatch(/\S{16,}/)
    expect(csp).toContain(`'nonce-${firstNonce}'`)
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/)
    expect(firstNonce).not.toBe(secondNonce)
    expect(first.headers.get('strict-transport-security')).toMatch(/^max-age=\d+/)
    expect(first.headers.get('x-content-type-options')).toBe('nosniff')
    expect(first.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
  })

  it('sends them on API answers, refusals and redirects too', async () => {
    const api = await respond('GET', '/api/v1/product')
    const refused = await post('/api/v1/api_key/trial', { origin: 'https://evil.example' })
    const redirect = await respond('GET', '/xx')
    for (const response of [api, refused, redirect]) {
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    }
    expect(refused.status).toBe(403)
    expect(redirect.status).toBe(307)
  })

  it('gives API answers a policy that lets nothing run, and no nonce', async () => {
    const api = await respond('GET', '/api/v1/product')
    const csp = api.headers.get('content-security-policy')!
    expect(csp).toContain("default-src 'none'")
    expect(csp).not.toContain('script-src')
    expect(csp).not.toContain('nonce-')
    const page = await respond('GET', '/en-US/segmenter?live')
    expect(page.headers.get('content-security-policy')).toContain(`'nonce-${await nonceOf(page)}'`)
  })
})

describe('CSRF and CORS (test 25)', () => {
  it('refuses a state-changing request from a foreign origin with 403 before it reaches the route', async () => {
    for (const headers of <Array<Record<string, string>>>[
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      // Cookies without Origin or Sec-Fetch-Site: a browser-like client we cannot vouch for.
      { cookie: 'apiKey=lds_x' },
    ]) {
      const before = await fingerprint(database.db)
      const response = await post('/api/v1/billing/transfer_balance', headers)
      expect(response.status, JSON.stringify(headers)).toBe(403)
      expect(await response.json()).toEqual({ detail: 'Cross-site request refused' })
      expect(await fingerprint(database.db)).toEqual(before)
    }
  })

  it('lets our own pages and non-browser clients with a bearer key through', async () => {
    for (const headers of <Array<Record<string, string>>>[
      { origin: BASE },
      { 'sec-fetch-site': 'same-origin', origin: BASE },
      { authorization: 'Bearer lds_x' },
    ]) {
      const response = await post('/api/v1/api_key/trial', headers)
      // Reached: the route itself refuses the made-up captcha.
      expect({ status: response.status, body: await response.json() }, JSON.stringify(headers)).toEqual({
        status: 400,
        body: { detail: 'Captcha verification failed' },
      })
    }
    const read = await respond('GET', '/api/v1/product', { headers: { origin: 'https://evil.example' } })
    expect(read.status).toBe(200)
  })

  it('answers preflights only for PUBLIC_BASE_URL and names only it as allowed origin', async () => {
    const preflight = (origin: string) =>
      respond('OPTIONS', '/api/v1/billing/transfer_balance', {
        headers: { origin, 'access-control-request-method': 'POST' },
      })
    const ours = await preflight(BASE)
    expect(ours.status).toBe(204)
    expect(ours.headers.get('access-control-allow-origin')).toBe(BASE)
    expect(ours.headers.get('access-control-allow-headers')).toContain('Authorization')
    const theirs = await preflight('https://evil.example')
    expect(theirs.status).toBe(403)
    expect(theirs.headers.get('access-control-allow-origin')).toBeNull()
    const read = await respond('GET', '/api/v1/product', { headers: { origin: 'https://evil.example' } })
    expect(read.headers.get('access-control-allow-origin')).toBeNull()
  })
})

describe('GET never changes state (test 25)', () => {
  it('leaves the database as it was after every GET of the API', async () => {
    const key = await keyWithBalance(database.db, 500)
    await call('POST', '/api/v1/billing/balance_notification', {
      bearer: key.apiKey,
      json: { thresholds: [100], email: 'x@example.com' },
    })
    const before = await fingerprint(database.db)
    const gets: Array<[string, CallInit?]> = [
      ['/api/v1/captcha/challenge', { query: { action: 'new_key' } }],
      ['/api/v1/api_key/fe_user', { query: { api_key: key.apiKey } }],
      ['/api/v1/billing/transaction', { bearer: key.apiKey }],
      ['/api/v1/billing/paginated_transaction', { bearer: key.apiKey, query: { num_records: '1' } }],
      ['/api/v1/billing/total_consumption', { bearer: key.apiKey }],
      ['/api/v1/billing/balance_notification', { bearer: key.apiKey }],
      ['/api/v1/models'],
      ['/api/v1/models/slug/reranker-v3', {}],
      ['/api/v1/product'],
      ['/api/v1/openapi.json'],
    ]
    for (const [path, init] of gets) expect((await call('GET', path, init)).status, path).toBe(200)
    expect(await fingerprint(database.db)).toEqual(before)
  })
})
