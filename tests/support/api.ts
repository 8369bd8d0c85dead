import { solveChallenge, type Challenge } from 'altcha-lib'
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2'
import { randomUUID } from 'node:crypto'
import { sql, type SQL } from 'drizzle-orm'
import * as v from 'valibot'
import { afterAll, beforeAll, beforeEach } from 'vitest'
import { errorAnswer } from '~/contracts/common'
import { useDatabase } from '~/server/db/client'
import { rowsOf } from '~/server/db/rows'
import type { Db } from '~/server/db/types'
import { bySystem } from '~/server/domain/audit'
import { issueKey } from '~/server/domain/keys'
import { applyEntry } from '~/server/domain/ledger'
import { onShutdown, shutdown } from '~/server/lifecycle'
import { resetRateLimits } from '~/server/providers/rate-limit-store'
import { createTestDatabase } from './db'

export const BASE = 'http://localhost:3000'
export const SERVICE_TOKEN = 'test-usage-service-token-0123456789'

/** Environment for in-process API tests: cheap captchas, addresses from X-Forwarded-For, a metering token. */
export function testEnv(extra: Record<string, string> = {}): void {
  for (const name of ['TURNSTILE_SECRET_KEY', 'SMTP_URL', 'REDIS_URL']) delete process.env[name]
  Object.assign(process.env, {
    CAPTCHA_DIFFICULTY: '20',
    TRUST_PROXY: 'true',
    USAGE_SERVICE_TOKEN: SERVICE_TOKEN,
    PUBLIC_BASE_URL: BASE,
    DATA_DIR: 'tests/.tmp/data',
    // Payments through the test-mode sandbox, as npm start runs them (a file with Stripe keys turns it off).
    PAYMENTS_SANDBOX: extra.STRIPE_SECRET_KEY ? 'off' : 'on',
    ...extra,
  })
}

/** What a file adds to the test environment, or a function giving it once the file's fakes are started. */
export type TestEnv = Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>)

export interface ApiDatabaseOptions {
  /**
   * Adds to the test environment. A function runs in the file's `beforeAll`, before the database opens, for
   * settings that name something started there (an Auth emulator's address, a fake S3's port): start it in the
   * function and return its settings; stop it in the file's own `afterAll` (after hooks run last-first, so
   * that runs before the database closes).
   */
  env?: TestEnv
  /** Sizes the pool for files that pay concurrently. */
  maxConnections?: number
  /** Rate limits are reset before each test unless false: for a file whose tests count them across tests. */
  resetRateLimits?: boolean
}

/**
 * The test database of a file that calls the API, and its one line of setup: the environment set, the database
 * opened before its tests and closed after them, the rate limits reset before each test. Its fields are there
 * once the tests run (`database.db`).
 */
export function apiDatabase({
  env = {},
  maxConnections,
  resetRateLimits: reset = true,
}: ApiDatabaseOptions = {}): Awaited<ReturnType<typeof setupApi>> {
  testEnv(typeof env === 'function' ? {} : env)
  const database = {} as Awaited<ReturnType<typeof setupApi>>
  beforeAll(async () => {
    if (typeof env === 'function') testEnv(await env())
    Object.assign(database, await setupApi({ maxConnections }))
  })
  // A file whose setup failed before the database opened has nothing to close but still stops as a server does.
  afterAll(() => (database.close ?? shutdown)())
  if (reset) beforeEach(() => resetRateLimits())
  return database
}

/**
 * A fresh database that the route handlers use, and empty rate-limit counters. It is the server's own, so it
 * closes as a stopping server's does (lifecycle.ts): `close` is the server's shutdown, which ends its work and
 * writes the request log's last rows before the connections close, not after.
 */
export async function setupApi(options: { maxConnections?: number } = {}) {
  const database = await createTestDatabase(options)
  useDatabase(database)
  resetRateLimits()
  onShutdown(async () => {
    useDatabase(undefined)
    await database.close()
  }, 'connections')
  return { ...database, close: shutdown }
}

export interface CallInit {
  query?: Record<string, string | string[]>
  bearer?: string
  headers?: Record<string, string>
  form?: Record<string, string>
  json?: unknown
  body?: BodyInit
  /** The client address, sent as X-Forwarded-For (the tests trust the proxy): 203.0.113.7 unless given. */
  address?: string
}

export function buildRequest(method: string, path: string, init: CallInit = {}): Request {
  const url = new URL(path, BASE)
  for (const [name, value] of Object.entries(init.query ?? {}))
    for (const v of [value].flat()) url.searchParams.append(name, v)
  const headers = new Headers(init.headers)
  if (init.bearer) headers.set('authorization', `Bearer ${init.bearer}`)
  headers.set('x-forwarded-for', init.address ?? '203.0.113.7')
  // A request with cookies is a browser's on one of our pages, which says so (the CSRF check wants it).
  if (headers.has('cookie') && !headers.has('origin') && !headers.has('sec-fetch-site'))
    headers.set('sec-fetch-site', 'same-origin')
  let body = init.body
  if (init.form) body = new URLSearchParams(init.form)
  if (init.json !== undefined) {
    body = JSON.stringify(init.json)
    if (!headers.has('content-type')) headers.set('content-type', 'application/json')
  }
  return new Request(url, { method, headers, body, ...(body instanceof ReadableStream && { duplex: 'half' }) })
}

/** The server's own request handler (app/server-handler.ts), loaded on the first request of the worker. */
let server: typeof import('~/server-handler') | undefined
let router: ReturnType<typeof import('~/router').getRouter> | undefined

/**
 * Sends a request to the app by URL, as a client would, through the server's whole pipeline: Start's handler
 * with every request middleware (request id, security headers, CORS, body limit, method check, …), the route
 * and its handler. The answer comes back as is (streams included).
 */
export function respond(method: string, path: string, init: CallInit = {}): Promise<Response> {
  return send(buildRequest(method, path, init))
}

/** Sends a request a test built itself (a streamed body, an abort signal) through the same pipeline. */
export async function send(request: Request): Promise<Response> {
  server ??= await import('~/server-handler')
  return server.answerRequest(request)
}

/** The answer schema of the endpoint at `path` for `method`, read from the route tree as the router matches it. */
async function answerSchemaOf(method: string, path: string): Promise<v.GenericSchema | undefined> {
  router ??= (await import('~/router')).getRouter()
  const [, , route] = router.getMatchedRoutes(new URL(path, BASE).pathname)
  const handlers = (route?.options as { server?: { handlers?: unknown } } | undefined)?.server?.handlers
  const handler = (handlers as Record<string, { spec?: { answer: v.GenericSchema } }> | undefined)?.[method]
  return handler?.spec?.answer
}

/**
 * Sends a request as `respond` does and reads its answer. Every answer is held to the endpoint's contract: a
 * JSON success must parse with the endpoint's answer schema, a refusal with `{detail}`. An answer in another
 * media type (text, an event stream) comes back as its text.
 */
export async function call(
  method: string,
  path: string,
  init: CallInit = {},
): Promise<{ status: number; body: any; response: Response }> {
  const response = await respond(method, path, init)
  const text = await response.text()
  const isJson = (response.headers.get('content-type') ?? '').startsWith('application/json')
  const body = text && isJson ? JSON.parse(text) : text || undefined
  const contract = !response.ok ? errorAnswer : isJson ? await answerSchemaOf(method, path) : undefined
  if (contract) {
    const checked = v.safeParse(contract, body)
    if (!checked.success)
      throw new Error(
        `${method} ${path} answered ${response.status} outside its contract: ${v.summarize(checked.issues)}`,
      )
  }
  return { status: response.status, body, response }
}

/** Solves an ALTCHA challenge issued for `action` as the browser widget does, returning the form field value. */
export async function solvedCaptcha(action: string): Promise<string> {
  const { body: challenge } = await call('GET', '/api/v1/captcha/challenge', { query: { action } })
  const solution = await solveChallenge({ challenge: challenge as Challenge, deriveKey })
  if (!solution) throw new Error('could not solve the captcha')
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64')
}

/** The first column of the first row, as a number. */
export async function scalar(db: Db, query: SQL): Promise<number> {
  const [row] = rowsOf<Record<string, unknown>>(await db.execute(query))
  return Number(Object.values(row ?? {})[0] ?? 0)
}

/** A key holding `balance` tokens, bought as one purchase entry. */
export async function keyWithBalance(db: Db, balance: number): Promise<{ apiKey: string; id: string }> {
  const { apiKey, key } = await issueKey(db, bySystem, 'empty')
  if (balance > 0)
    await applyEntry(db, { keyId: key.id, amount: balance, type: 'purchase', externalRef: `purchase:${randomUUID()}` })
  return { apiKey, id: key.id }
}

/** Everything a request could have written, summarised: equal fingerprints mean nothing changed. */
export async function fingerprint(db: Db): Promise<Record<string, unknown>> {
  const [row] = rowsOf<Record<string, unknown>>(
    await db.execute(sql`select
      (select count(*) from api_keys) as keys,
      (select coalesce(sum(balance), 0) from api_keys) as balances,
      (select count(*) from api_keys where revoked_at is not null) as revoked,
      (select count(*) from ledger_entries) as entries,
      (select count(*) from balance_notifications) as alerts,
      (select coalesce(string_agg(threshold || ':' || armed, ',' order by id), '') from balance_notifications) as alert_state,
      (select count(*) from email_outbox) as mails,
      (select count(*) from captcha_redemptions) as captchas`),
  )
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, String(v)]))
}
