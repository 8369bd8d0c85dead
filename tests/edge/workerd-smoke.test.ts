import { execFile } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { solveChallenge, type Challenge } from 'altcha-lib'
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2'
import { Redis } from 'ioredis'
import postgres from 'postgres'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { exportJWK, generateKeyPair, SignJWT } from 'jose'
import { createTestHarness, type TestHarness } from 'wrangler'
import { NODE_ONLY_PACKAGES } from '../../build/vite-edge-plugin'
import { startFakeStripe } from '../support/fake-stripe'
import { describeWithService } from '../support/services'

/**
 * The Cloudflare Workers build, built as `npm run build:edge` builds it and run in workerd (wrangler's test
 * harness, the runtime `wrangler dev` uses), against the local Postgres over TCP: pages, guards, keys,
 * metering, the Stripe webhook, and the routing of Node-only capabilities. Nothing leaves loopback: Stripe
 * and the Node backend are fakes on 127.0.0.1, and wrangler's fetch of Cloudflare's `cf` data is off.
 */
const root = join(import.meta.dirname, '../..')
const dist = join(root, 'dist/edge')
const WEBHOOK_SECRET = 'whsec_edge_smoke_secret'
const SERVICE_TOKEN = 'edge-usage-service-token-0123456789'
/** A real-looking project (not `demo-`), so the Worker runs the production rules: RS256 only. */
const PROJECT_ID = 'lodestar-edge'
/**
 * With TEST_REDIS_URL the Worker keeps its rate-limit counters there too, in a logical database of its own
 * (emptied before and after), so its per-address counts neither meet other tests' nor outlive the run.
 */
const redisUrl = (() => {
  if (!process.env.TEST_REDIS_URL) return undefined
  const url = new URL(process.env.TEST_REDIS_URL)
  url.pathname = '/13'
  return url.href
})()

describeWithService('TEST_DATABASE_URL', 'the edge build in workerd', () => {
  let harness: TestHarness
  let base: string
  let admin: ReturnType<typeof postgres>
  let db: ReturnType<typeof postgres>
  let stripe: Awaited<ReturnType<typeof startFakeStripe>>
  let nodeBackend: Awaited<ReturnType<typeof startFakeNodeBackend>>
  let redis: Redis | undefined
  let jwks: Awaited<ReturnType<typeof startJwksServer>>
  const database = `edge_${process.pid}_${Date.now().toString(36)}`

  beforeAll(async () => {
    await promisify(execFile)(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build'], {
      cwd: root,
      env: { ...process.env, BUILD_TARGET: 'cloudflare', WRANGLER_SEND_METRICS: 'false' },
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: { stdout?: string; stderr?: string }) => {
      throw new Error(`npm run build:edge failed:\n${`${error.stdout}\n${error.stderr}`.slice(-4000)}`)
    })

    const adminUrl = new URL(process.env.TEST_DATABASE_URL!)
    admin = postgres(adminUrl.href, { max: 1, onnotice: () => {} })
    await admin.unsafe(`create database "${database}"`)
    const url = new URL(adminUrl)
    url.pathname = `/${database}`
    db = postgres(url.href, { max: 2, onnotice: () => {} })

    if (redisUrl) {
      redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 })
      await redis.flushdb()
    }
    stripe = await startFakeStripe(WEBHOOK_SECRET)
    nodeBackend = await startFakeNodeBackend()
    jwks = await startJwksServer()
    // Miniflare would otherwise fetch Request.cf from Cloudflare at start (and fall back after a timeout),
    // and wrangler may report usage: nothing here leaves the machine.
    process.env.CLOUDFLARE_CF_FETCH_ENABLED = 'false'
    process.env.WRANGLER_SEND_METRICS = 'false'
    harness = createTestHarness({
      root,
      workers: [
        {
          configPath: join(dist, 'server/wrangler.json'),
          vars: {
            DATABASE_URL: url.href,
            CAPTCHA_SECRET: 'edge-captcha-secret-0123456789',
            CAPTCHA_DIFFICULTY: '50',
            USAGE_SERVICE_TOKEN: SERVICE_TOKEN,
            STRIPE_SECRET_KEY: 'sk_test_fake',
            STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
            STRIPE_API_URL: stripe.url,
            READER_UPSTREAM: nodeBackend.url,
            FIREBASE_PROJECT_ID: PROJECT_ID,
            FIREBASE_JWKS_URL: jwks.url,
            ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
            LOG_LEVEL: 'info',
          },
        },
      ],
    })
    base = (await harness.listen()).url.origin
  })

  afterAll(async () => {
    await harness?.close()
    await Promise.all([stripe?.close(), nodeBackend?.close(), jwks?.close(), db?.end()])
    await admin?.unsafe(`drop database if exists "${database}" with (force)`)
    await admin?.end()
    await redis?.flushdb()
    redis?.disconnect()
  })

  // A failing check shows what the Worker logged (its errors, with the request ids the answers carry).
  afterEach(({ task }) => {
    if (task.result?.state === 'fail') harness?.debug()
  })

  const get = (path: string, init: RequestInit = {}) => fetch(base + path, { redirect: 'manual', ...init })
  const keyInfo = async (apiKey: string) => {
    const info = await get('/api/v1/api_key/fe_user', { headers: { authorization: `Bearer ${apiKey}` } })
    expect(info.status).toBe(200)
    return (await info.json()) as { key_id: string; wallet: { total_balance: number } }
  }
  const balanceOf = async (apiKey: string) => (await keyInfo(apiKey)).wallet.total_balance
  async function newKey(): Promise<string> {
    const challenge = (await (await get('/api/v1/captcha/challenge?action=new_key')).json()) as Challenge
    const solution = await solveChallenge({ challenge, deriveKey })
    const captcha = Buffer.from(JSON.stringify({ challenge, solution })).toString('base64')
    const issued = await get('/api/v1/api_key/trial', { method: 'POST', body: new URLSearchParams({ captcha }) })
    expect(issued.status, await issued.clone().text()).toBe(200)
    // The captcha is redeemed once, in the database every isolate shares.
    const replay = await get('/api/v1/api_key/trial', { method: 'POST', body: new URLSearchParams({ captcha }) })
    expect(replay.status).toBe(400)
    return ((await issued.json()) as { api_key: string }).api_key
  }

  it('leaves every Node-only package out of the Worker', () => {
    const dir = join(dist, 'server')
    const packages = new Set<string>()
    for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js.map')))
      for (const source of (JSON.parse(readFileSync(join(dir, file), 'utf8')) as { sources: string[] }).sources) {
        const at = source.lastIndexOf('node_modules/')
        if (at < 0) continue
        const [scope, name] = source.slice(at + 'node_modules/'.length).split('/')
        packages.add(scope.startsWith('@') ? `${scope}/${name}` : scope)
      }
    expect(packages).toContain('postgres')
    expect([...packages].filter((name) => NODE_ONLY_PACKAGES.includes(name))).toEqual([])
    expect(readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => /\.(node|wasm)$/.test(f))).toEqual([])
  })

  it('renders the marketing pages live in two locales, with a fresh nonce each', async () => {
    const english = await get('/')
    const german = await get('/de')
    for (const page of [english, german]) {
      expect(page.status).toBe(200)
      expect(page.headers.get('content-type')).toMatch(/^text\/html/)
      expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self' 'nonce-[\w+/=]+'/)
      expect(page.headers.get('x-request-id')).toBeTruthy()
    }
    const [en, de] = [await english.text(), await german.text()]
    expect(en).toMatch(/<html[^>]* lang="en-US"/)
    expect(de).toMatch(/<html[^>]* lang="de"/)
    // Each language from its own catalog: the same page's title differs.
    const title = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1]
    expect(title(en)).toBeTruthy()
    expect(title(de)).not.toBe(title(en))
    expect(english.headers.get('content-security-policy')).not.toBe(german.headers.get('content-security-policy'))
    // The runtime is deferred here too (app/server/http/live-deferral.ts): the loader, under the page's nonce,
    // names the runtime's files in place of the preloads and the entry.
    const nonce = /'nonce-([\w+/=]+)'/.exec(english.headers.get('content-security-policy')!)?.[1]
    expect(en).toContain(`<script type="module" nonce="${nonce}">`)
    expect(en).not.toContain('<link rel="modulepreload"')
    // Static files are Cloudflare's to serve: their headers come from the build's _headers file.
    const script = /"(\/assets\/[^"]+\.js)"/.exec(en)?.[1]
    expect(script).toBeTruthy()
    const asset = await get(script!)
    expect(asset.status).toBe(200)
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    const icon = await get('/favicon.svg')
    expect(icon.status).toBe(200)
    expect(icon.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    )
  })

  it('runs the guards: unknown locales and pages redirect, unknown endpoints and wrong methods are refused', async () => {
    const unsupported = await get('/xx/models')
    expect(unsupported.status).toBe(307)
    expect(new URL(unsupported.headers.get('location')!, base).pathname).toBe('/')
    const unknown = await get('/de/no-such-page')
    expect(unknown.status).toBe(307)
    expect(new URL(unknown.headers.get('location')!, base).pathname).toBe('/de')
    const endpoint = await get('/api/v1/no-such-endpoint')
    expect(endpoint.status).toBe(404)
    expect(await endpoint.json()).toEqual({ detail: 'Unknown endpoint' })
    const wrongMethod = await get('/api/v1/api_key/trial')
    expect(wrongMethod.status).toBe(405)
    expect(wrongMethod.headers.get('allow')).toContain('POST')
    const crossSite = await get('/api/v1/api_key/trial', {
      method: 'POST',
      headers: { origin: 'https://evil.example' },
    })
    expect(crossSite.status).toBe(403)
  })

  it('issues a key for a solved captcha and meters it in Postgres, once per usage event', async () => {
    const apiKey = await newKey()
    expect(await balanceOf(apiKey)).toBe(10_000_000)
    // Every request its own Redis connection: the second key's attempts counted where the first's were.
    if (redis) expect(await redis.keys('rl:trial:*')).not.toEqual([])

    const usage = (id: string) =>
      get('/internal/v1/usage', {
        method: 'POST',
        headers: { authorization: `Bearer ${SERVICE_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ api_key: apiKey, product: 'embeddings', tokens: 1200, usage_event_id: id }),
      })
    expect((await usage('edge-event-1')).status).toBe(200)
    const again = await usage('edge-event-1')
    expect(again.status).toBe(200)
    expect(await again.json()).toMatchObject({ duplicate: true })
    expect(await balanceOf(apiKey)).toBe(10_000_000 - 1200)

    // The builtin engine is plain JavaScript, so the search API itself runs here and debits the same ledger.
    const embedded = await get('/v1/embeddings', {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'embeddings-v3', input: ['an edge request'] }),
    })
    expect(embedded.status).toBe(200)
    const { usage: used } = (await embedded.json()) as { usage: { total_tokens: number } }
    const { key_id: keyId, wallet } = await keyInfo(apiKey)
    expect(wallet.total_balance).toBe(10_000_000 - 1200 - used.total_tokens)
    // Read back from Postgres itself: the trial grant and the two debits, summing to the balance.
    const [ledger] = await db<[{ entries: number; total: string }]>`
      select count(*)::int as entries, sum(amount)::text as total from ledger_entries where key_id = ${keyId}::uuid`
    expect(ledger).toEqual({ entries: 3, total: String(wallet.total_balance) })
  })

  it('credits a Stripe checkout once from its webhook, the signature checked with SubtleCrypto', async () => {
    const apiKey = await newKey()
    const checkout = await get('/api/v1/checkout_session', {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ price_id: 'price_tokens_1b' }),
    })
    expect(checkout.status, await checkout.clone().text()).toBe(200)
    const { id } = (await checkout.json()) as { id: string }
    const events = stripe.paySession(id, { email: 'edge-buyer@example.com' })
    const deliver = (event: { payload: string; signature: string }) =>
      get('/api/v1/billing/webhook/stripe', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
        body: event.payload,
      })
    expect((await deliver(events.completed)).status).toBe(200)
    expect((await deliver(events.completed)).status).toBe(200)
    expect(await balanceOf(apiKey)).toBe(10_000_000 + 1_000_000_000)

    const forged = await deliver({ payload: events.succeeded.payload, signature: 't=1,v1=00' })
    expect(forged.status).toBe(400)
    expect(await forged.json()).toEqual({ detail: 'Invalid payment event signature' })

    // The receipt names the card, and the invoice PDF (pdf-lib, loaded on demand) renders in the Worker too.
    const purchases = (await (
      await get('/api/v1/billing/purchases', { headers: { authorization: `Bearer ${apiKey}` } })
    ).json()) as { purchases: Array<{ id: string; card: { last4: string } | null; invoice_number: string | null }> }
    const [purchase] = purchases.purchases
    expect(purchase).toMatchObject({ card: { last4: '4242' }, invoice_number: expect.stringMatching(/^INV-\d{6}$/) })
    const invoice = await get(`/api/v1/billing/invoices/${purchase.id}`, {
      headers: { authorization: `Bearer ${apiKey}` },
    })
    expect(invoice.status, invoice.status === 200 ? '' : await invoice.clone().text()).toBe(200)
    expect(invoice.headers.get('content-type')).toBe('application/pdf')
    expect(new TextDecoder().decode((await invoice.arrayBuffer()).slice(0, 5))).toBe('%PDF-')
  })

  it('hands the reader and deep search to READER_UPSTREAM, streams included, and names BULK_UPSTREAM when unset', async () => {
    const read = await get('/r/https://example.com/page?x=1', {
      headers: { authorization: 'Bearer lds_some_key', accept: 'application/json' },
    })
    expect(read.status).toBe(200)
    expect(await read.json()).toEqual({ answered: 'by node' })
    const seen = nodeBackend.requests.at(-1)!
    expect(seen.url).toBe('/r/https://example.com/page?x=1')
    expect(seen.headers.authorization).toBe('Bearer lds_some_key')
    expect(seen.headers['x-forwarded-for']).toBe('127.0.0.1')
    expect(seen.headers['x-request-id']).toBe(read.headers.get('x-request-id'))

    const streamed = await get('/v1/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer lds_some_key' },
      body: JSON.stringify({ model: 'deepsearch-v1', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    })
    expect(streamed.headers.get('content-type')).toMatch(/^text\/event-stream/)
    expect(await streamed.text()).toBe('data: {"n":1}\n\ndata: [DONE]\n\n')
    expect(nodeBackend.requests.at(-1)!.body).toContain('deepsearch-v1')

    const bulk = await get('/v1/bulk-embeddings', { headers: { authorization: 'Bearer lds_some_key' } })
    expect(bulk.status).toBe(501)
    expect(await bulk.json()).toEqual({
      detail: 'This edge deployment has no Node backend for bulk embeddings (BULK_UPSTREAM)',
      // OpenAI's error object beside it, as on every /v1 answer.
      error: expect.objectContaining({ code: 'needs_node', type: 'server_error' }),
    })
    const said = harness.getLogs().map((entry) => String(entry.message))
    expect(
      said.some((line) => line.includes('edge build: Node-only capabilities') && line.includes('READER_UPSTREAM')),
    ).toBe(true)
  })

  it('verifies ID tokens with jose and Web Crypto: RS256 from the published keys opens getUserInfo; alg none, another audience or another key do not', async () => {
    const now = Math.floor(Date.now() / 1000)
    const claims = (overrides: Record<string, unknown> = {}) => ({
      iss: `https://securetoken.google.com/${PROJECT_ID}`,
      aud: PROJECT_ID,
      sub: 'edge-user-1',
      iat: now - 10,
      exp: now + 3600,
      auth_time: now - 10,
      email: 'edge@example.com',
      ...overrides,
    })
    const signed = (payload: Record<string, unknown>, key = jwks.privateKey) =>
      new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid: 'edge-key' }).sign(key)
    const unsigned = (payload: Record<string, unknown>) =>
      `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.`
    const userInfo = (token: string) =>
      get('/api/v1/account/getUserInfo', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ displayName: 'Edge' }),
      })

    const accepted = await userInfo(await signed(claims()))
    expect(accepted.status).toBe(200)
    expect(await accepted.json()).toMatchObject({ uid: 'edge-user-1', email: 'edge@example.com', displayName: 'Edge' })
    for (const refused of [
      unsigned(claims({ sub: 'forged' })),
      await signed(claims({ aud: 'someone-else', sub: 'forged' })),
      await signed(claims({ sub: 'forged' }), (await generateKeyPair('RS256')).privateKey),
    ])
      expect((await userInfo(refused)).status).toBe(401)
    expect(await db`select uid from users order by uid`).toEqual([{ uid: 'edge-user-1' }])
  })

  it('logged no error and no cross-request I/O along the way', () => {
    const trouble = harness
      .getLogs()
      .map((entry) => `${entry.level}: ${String(entry.message)}`)
      .filter((line) => /"level":"error"|different request|Disallowed operation/.test(line))
    expect(trouble).toEqual([])
  })
})

/**
 * A stand-in for the Node instance the edge hands Node-only paths to: it records what reached it and
 * answers JSON, or an event stream for deep search.
 */
async function startFakeNodeBackend() {
  const requests: Array<{ url: string; headers: IncomingMessage['headers']; body: string }> = []
  const server = createServer(async (req, res) => {
    let body = ''
    for await (const chunk of req) body += chunk
    requests.push({ url: req.url!, headers: req.headers, body })
    if (req.url === '/v1/chat/completions') {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write('data: {"n":1}\n\n')
      setTimeout(() => res.end('data: [DONE]\n\n'), 50)
      return
    }
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ answered: 'by node' }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** Google's key endpoint played on loopback: one RS256 public key, as a JWKS, with its private half kept here. */
async function startJwksServer() {
  const { publicKey, privateKey } = await generateKeyPair('RS256')
  const body = JSON.stringify({
    keys: [{ ...(await exportJWK(publicKey)), kid: 'edge-key', alg: 'RS256', use: 'sig' }],
  })
  const server = createServer((_, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'public, max-age=3600' })
    response.end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/keys`,
    privateKey,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
