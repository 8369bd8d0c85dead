import { solveChallenge, type Challenge } from 'altcha-lib'
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2'
import { randomUUID } from 'node:crypto'
import { sql, type SQL } from 'drizzle-orm'
import * as v from 'valibot'
import { afterAll, beforeAll, beforeEach } from 'vitest'
import { errorAnswer } from '~/contracts/common'
import { useDatabase } from '~/server/db/client'
import { rowsOf } from '~/server/db/migrate'
import type { Db } from '~/server/db/types'
import { issueKey } from '~/server/domain/keys'
import { applyEntry } from '~/server/domain/ledger'
import { serverEnv } from '~/server/env'
import { requestIdOf } from '~/server/http/request-id'
import { currentRequest, runInRequest } from '~/server/request-context'
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

/**
 * The test database of a file that calls the API: set up before its tests, closed after them, the rate limits
 * reset before each test. Its fields are there once the tests run (`database.db`). `env` adds to the test
 * environment; `maxConnections` sizes the pool for files that pay concurrently.
 */
export function apiDatabase({
  env = {},
  maxConnections,
}: { env?: Record<string, string>; maxConnections?: number } = {}): Awaited<ReturnType<typeof setupApi>> {
  testEnv(env)
  const database = {} as Awaited<ReturnType<typeof setupApi>>
  beforeAll(async () => {
    Object.assign(database, await setupApi({ maxConnections }))
  })
  afterAll(() => database.close())
  beforeEach(() => resetRateLimits())
  return database
}

/** A fresh database that the route handlers use, and empty rate-limit counters. */
export async function setupApi(options: { maxConnections?: number } = {}) {
  const database = await createTestDatabase(options)
  useDatabase(database)
  resetRateLimits()
  return {
    ...database,
    async close() {
      useDatabase(undefined)
      await database.close()
    },
  }
}

type Handler = (ctx: { request: Request; params: Record<string, string> }) => Promise<Response>
interface RouteLike {
  options: { server?: { handlers?: unknown } }
}

export interface CallInit {
  query?: Record<string, string | string[]>
  bearer?: string
  headers?: Record<string, string>
  form?: Record<string, string>
  json?: unknown
  body?: BodyInit
  params?: Record<string, string>
  address?: string
}

export function buildRequest(method: string, path: string, init: CallInit = {}): Request {
  const url = new URL(path, BASE)
  for (const [name, value] of Object.entries(init.query ?? {}))
    for (const v of [value].flat()) url.searchParams.append(name, v)
  const headers = new Headers(init.headers)
  if (init.bearer) headers.set('authorization', `Bearer ${init.bearer}`)
  headers.set('x-forwarded-for', init.address ?? '203.0.113.7')
  let body = init.body
  if (init.form) body = new URLSearchParams(init.form)
  if (init.json !== undefined) {
    body = JSON.stringify(init.json)
    if (!headers.has('content-type')) headers.set('content-type', 'application/json')
  }
  return new Request(url, { method, headers, body })
}

type SpecHandler = Handler & { spec?: { answer: v.GenericSchema } }

function handlerOf(route: RouteLike, method: string, path: string): SpecHandler {
  const handler = (route.options.server?.handlers as Record<string, SpecHandler> | undefined)?.[method]
  if (!handler) throw new Error(`no ${method} handler for ${path}`)
  return handler
}

/**
 * Calls a route's server handler in process and hands back its Response as is (streams included), inside
 * the request's context as the request middleware gives it (its `X-Request-Id`, kept when sent), unless
 * the test runs it inside a context of its own.
 */
export function respond(route: RouteLike, method: string, path: string, init: CallInit = {}): Promise<Response> {
  const handler = handlerOf(route, method, path)
  const request = buildRequest(method, path, init)
  const run = () => handler({ request, params: init.params ?? {} })
  // A test that opened a request context of its own (to read the log lines it names) keeps it.
  if (currentRequest()) return run()
  const context = { env: serverEnv(), requestId: requestIdOf(request), method, path: new URL(request.url).pathname }
  return runInRequest(context, run)
}

/**
 * Calls a route's server handler in process, as Start would after its middleware. Every answer is held
 * to the route's contract: a JSON success must parse with the endpoint's answer schema, a refusal with
 * `{detail}`. An answer in another media type (text, an event stream) comes back as its text.
 */
export async function call(
  route: RouteLike,
  method: string,
  path: string,
  init: CallInit = {},
): Promise<{ status: number; body: any; response: Response }> {
  const handler = handlerOf(route, method, path)
  const response = await respond(route, method, path, init)
  const text = await response.text()
  const isJson = (response.headers.get('content-type') ?? '').startsWith('application/json')
  const body = text && isJson ? JSON.parse(text) : text || undefined
  const contract = !response.ok ? errorAnswer : isJson ? handler.spec?.answer : undefined
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
export async function solvedCaptcha(challengeRoute: RouteLike, action: string): Promise<string> {
  const { body: challenge } = await call(challengeRoute, 'GET', '/api/v1/captcha/challenge', { query: { action } })
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
  const { apiKey, key } = await issueKey(db, 'empty')
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
