import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { API_CONTENT_SECURITY_POLICY } from '~/server/http/security'
import { apiDatabase, BASE, respond, send } from '../support/api'

/**
 * The request middleware of app/start.ts, each seen from outside: a request sent by URL through the server's
 * own handler (Start with every middleware, the routes behind them), its answer read as a client reads it.
 */
apiDatabase()
afterEach(() => vi.restoreAllMocks())

/** The JSON lines the server logged at info while `work` ran. */
async function logged(work: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  vi.stubEnv('LOG_LEVEL', 'info')
  const spy = vi.spyOn(console, 'log').mockImplementation(() => undefined)
  try {
    await work()
    return spy.mock.calls.map(([line]) => JSON.parse(String(line)) as Record<string, unknown>)
  } finally {
    vi.unstubAllEnvs()
  }
}
const nonceOf = async (response: Response) => /<script[^>]* nonce="([^"]+)"/.exec(await response.text())?.[1]
const page = '/en-US/reader?live'

describe('the request scope', () => {
  it('keeps the request id a proxy sent, and answers with it', async () => {
    const answer = await respond('GET', '/v1/models', { headers: { 'x-request-id': 'proxy-7' } })
    expect(answer.headers.get('x-request-id')).toBe('proxy-7')
    expect((await respond('GET', '/v1/models')).headers.get('x-request-id')).toMatch(/^[\w-]{36}$/)
  })

  it('gives the pages the public URLs', async () => {
    expect(await (await respond('GET', page)).text()).toContain(`<link rel="canonical" href="${BASE}/reader"`)
  })
})

describe('the request line', () => {
  it('logs one line per request with its status, time, request id and path', async () => {
    const lines = await logged(() => respond('GET', '/v1/models', { headers: { 'x-request-id': 'line-1' } }))
    const requests = lines.filter((line) => line.msg === 'request')
    expect(requests).toEqual([
      expect.objectContaining({ status: 200, method: 'GET', path: '/v1/models', request_id: 'line-1' }),
    ])
    expect(requests[0]!.ms).toBeGreaterThanOrEqual(0)
  })

  it('logs a refusal a later middleware throws', async () => {
    const big = { method: 'POST', body: 'x'.repeat(5_000_000) }
    const lines = await logged(() => send(new Request(`${BASE}/api/v1/api_key/trial`, big)))
    expect(lines.filter((line) => line.msg === 'request').map((line) => line.status)).toEqual([413])
  })
})

describe('compression', () => {
  it('compresses a page with brotli for a client that accepts it, and only then', async () => {
    const br = await respond('GET', page, { headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } })
    expect(br.headers.get('content-encoding')).toBe('br')
    expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toContain('<!DOCTYPE html>')
    const gzip = await respond('GET', page, { headers: { 'accept-encoding': 'gzip' } })
    expect(gzip.headers.get('content-encoding')).toBe('gzip')
  })

  it('gzips an API answer even for a client that accepts brotli, and sends it plain to one that accepts neither', async () => {
    const gzip = await respond('GET', '/v1/models', { headers: { 'accept-encoding': 'gzip, br' } })
    expect(gzip.headers.get('content-encoding')).toBe('gzip')
    expect(JSON.parse(gunzipSync(Buffer.from(await gzip.arrayBuffer())).toString())).toMatchObject({ object: 'list' })
    expect((await respond('GET', '/v1/models')).headers.get('content-encoding')).toBeNull()
  })
})

describe('the answer headers', () => {
  it('gives an API answer the policy that allows nothing, the security headers and the request id', async () => {
    const answer = await respond('GET', '/v1/models')
    expect(answer.headers.get('content-security-policy')).toBe(API_CONTENT_SECURITY_POLICY)
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff')
    expect(answer.headers.get('access-control-allow-origin')).toBe('*')
    expect(answer.headers.get('x-request-id')).toMatch(/^[\w-]{36}$/)
  })

  it('keeps a page’s own policy, and sets the headers on a redirect too', async () => {
    const rendered = await respond('GET', page)
    expect(rendered.headers.get('content-security-policy')).toContain(`'nonce-${await nonceOf(rendered)}'`)
    const redirect = await respond('GET', '/xx')
    expect(redirect.status).toBe(307)
    expect(redirect.headers.get('x-frame-options')).toBe('DENY')
  })
})

describe('cross-origin requests', () => {
  const write = (path: string, origin: string) => respond('POST', path, { headers: { origin }, form: { captcha: 'x' } })

  it('refuses a cross-site write, as an error for a server function caller', async () => {
    const api = await write('/api/v1/api_key/trial', 'https://evil.example')
    expect(api.status).toBe(403)
    expect(await api.json()).toEqual({ detail: 'Cross-site request refused' })
    const fn = await write('/_serverFn/abc', 'https://evil.example')
    expect(fn.status).toBe(403)
    expect(fn.headers.get('x-tss-raw')).toBe('thrown')
  })

  it('answers a search API preflight for any origin, and lets a write from our own pages through', async () => {
    const preflight = await respond('OPTIONS', '/v1/embeddings', {
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
    // Reached: the route refuses the made-up captcha itself.
    const own = await write('/api/v1/api_key/trial', BASE)
    expect({ status: own.status, body: await own.json() }).toEqual({
      status: 400,
      body: { detail: 'Captcha verification failed' },
    })
  })
})

describe('routing to Node', () => {
  it('hands nothing elsewhere in the Node build: the reader answers its own paths', async () => {
    const read = await respond('GET', '/r/http://127.0.0.1:1/')
    expect(read.status).toBe(403)
    expect((await read.json()).detail).toMatch(/not a public address|private/i)
  })
})

describe('the body limit', () => {
  it('refuses a body over the limit with 413, closing the connection, and passes one under it whole', async () => {
    const refused = await send(new Request(`${BASE}/api/v1/api_key/trial`, { method: 'POST', body: 'x'.repeat(5e6) }))
    expect(refused.status).toBe(413)
    expect(refused.headers.get('connection')).toBe('close')
    const small = await respond('POST', '/api/v1/api_key/trial', { form: { captcha: 'x' } })
    expect(small.status).toBe(400)
  })
})

describe('the method check', () => {
  it('answers 405 with Allow, read from the route, for a method the endpoint has no handler for', async () => {
    const refused = await respond('DELETE', '/api/v1/product')
    expect(refused.status).toBe(405)
    expect(refused.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
    expect((await respond('GET', '/api/v1/product')).status).toBe(200)
  })

  it('answers a JSON 404 for an API path no endpoint serves, and lets pages through', async () => {
    const unknown = await respond('GET', '/api/v1/nothing-here')
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toEqual({ detail: 'Unknown endpoint' })
    expect((await respond('GET', page)).headers.get('content-type')).toMatch(/^text\/html/)
  })
})

describe('prerendered pages', () => {
  it('renders live when there is no build to serve from (tests, dev)', async () => {
    const rendered = await respond('GET', '/en-US/reader')
    expect(rendered.status).toBe(200)
    expect(rendered.headers.get('x-prerendered')).toBeNull()
    expect(await rendered.text()).toContain('<!DOCTYPE html>')
  })
})

describe('the page policy', () => {
  it('renders a page with a fresh nonce and sends the policy that allows it, a new one each time', async () => {
    const [first, second] = [await respond('GET', page), await respond('GET', page)]
    const [firstNonce, secondNonce] = [await nonceOf(first.clone()), await nonceOf(second)]
    expect(firstNonce).toEqual(expect.any(String))
    expect(firstNonce).not.toBe(secondNonce)
    expect(first.headers.get('content-security-policy')).toContain(`'nonce-${firstNonce}'`)
  })

  it('leaves API answers alone', async () => {
    const answer = await respond('POST', '/v1/rerank', { json: {} })
    expect(answer.headers.get('content-security-policy')).toBe(API_CONTENT_SECURITY_POLICY)
  })
})

describe('the live deferral', () => {
  it('starts a live page’s runtime from the loader under the request’s nonce, in place of its preloads and entry', async () => {
    const text = await (await respond('GET', page)).text()
    const nonce = /<script[^>]* nonce="([^"]+)"/.exec(text)![1]
    expect(text).toContain(`<script type="module" nonce="${nonce}">(function`)
    expect(text).not.toContain('<link rel="modulepreload"')
    expect(text).not.toContain('async="" src=')
  })

  it('leaves API answers alone, and serves pages as rendered under Vite’s dev server', async () => {
    expect((await respond('GET', '/v1/models')).headers.get('content-type')).toMatch(/^application\/json/)
    // Its SSR transform would rewrite the loader's import(), whose text goes into the page.
    vi.stubEnv('MODE', 'development')
    try {
      expect(await (await respond('GET', page)).text()).toMatch(
        /<script type="module" async="" src="\/assets\/index-test\.js"/,
      )
    } finally {
      vi.unstubAllEnvs()
    }
  })
})

describe('server function calls', () => {
  it('answers 404 for a function no build knows, marked as thrown for its caller', async () => {
    const unknown = await respond('POST', '/_serverFn/not-a-function', { headers: { origin: BASE } })
    expect(unknown.status).toBe(404)
    expect(unknown.headers.get('x-tss-raw')).toBe('thrown')
  })
})
