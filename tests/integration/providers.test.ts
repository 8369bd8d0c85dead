import { readdir, readFile, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { randomUUID } from 'node:crypto'
import { solveChallenge, type Challenge } from 'altcha-lib'
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getDb } from '~/server/db/client'
import { rowsOf } from '~/server/db/rows'
import { checkRateLimit, spendRateLimit, rateLimit } from '~/server/api/rate-limit'
import { redisStore, resetRateLimits } from '~/server/providers/rate-limit-store'
import { altchaProvider } from '~/server/providers/captcha/altcha'
import { createMailer, drainOutbox } from '~/server/providers/email'
import { call, apiDatabase, testEnv } from '../support/api'
import { describeWithService } from '../support/services'

const database = apiDatabase()

describe('ALTCHA across instances', () => {
  it('refuses on a second instance a solution the first already accepted', async () => {
    const secret = 'shared-secret-of-all-instances'
    const one = altchaProvider(getDb, { secret, difficulty: 20 })
    const two = altchaProvider(getDb, { secret, difficulty: 20 })
    const challenge = (await one.challenge('new_key')) as Challenge
    const solution = await solveChallenge({ challenge, deriveKey })
    const payload = Buffer.from(JSON.stringify({ challenge, solution })).toString('base64')
    expect(await one.verify(payload, { action: 'new_key' })).toBe(true)
    expect(await two.verify(payload, { action: 'new_key' })).toBe(false)
  })

  it('refuses an expired challenge and one signed with another secret', async () => {
    const provider = altchaProvider(getDb, { secret: 'secret-number-one-xxxx', difficulty: 20 })
    const foreign = altchaProvider(getDb, { secret: 'secret-number-two-xxxx', difficulty: 20 })
    const challenge = (await foreign.challenge('new_key')) as Challenge
    const solution = await solveChallenge({ challenge, deriveKey })
    const payload = Buffer.from(JSON.stringify({ challenge, solution })).toString('base64')
    expect(await provider.verify(payload, { action: 'new_key' })).toBe(false)
    expect(await provider.verify('not base64 json', { action: 'new_key' })).toBe(false)
  })
})

describe('Turnstile', () => {
  let server: Server
  const seen: string[] = []
  beforeAll(async () => {
    // Cloudflare's siteverify, on loopback: a token is good once.
    server = createServer((req, res) => {
      let body = ''
      req.on('data', (c) => (body += c))
      req.on('end', () => {
        const token = new URLSearchParams(body).get('response') ?? ''
        const success = token.startsWith('good') && !seen.includes(token)
        seen.push(token)
        // `good:<action>:n` stands for a token from a widget rendered with that action.
        const action = token.split(':')[1]
        res.setHeader('content-type', 'application/json')
        res.end(JSON.stringify({ success, action, 'error-codes': success ? [] : ['invalid-input-response'] }))
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    testEnv({
      TURNSTILE_SECRET_KEY: 'test-secret',
      TURNSTILE_SITE_KEY: 'site-key',
      TURNSTILE_VERIFY_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify`,
    })
    resetRateLimits()
  })
  afterAll(async () => {
    testEnv()
    await new Promise((resolve) => server.close(resolve))
  })

  it('gives the widget the site key and issues a key only for a token siteverify accepts, once', async () => {
    const challenge = await call('GET', '/api/v1/captcha/challenge', { query: { action: 'new_key' } })
    expect(challenge.body).toEqual({ provider: 'turnstile', site_key: 'site-key', action: 'new_key' })
    expect((await call('POST', '/api/v1/api_key/trial', { form: { captcha: 'bad-token' } })).status).toBe(400)
    expect((await call('POST', '/api/v1/api_key/trial', { form: { captcha: 'good-1' } })).status).toBe(200)
    expect((await call('POST', '/api/v1/api_key/trial', { form: { captcha: 'good-1' } })).status).toBe(400)
  })

  it('refuses a token whose widget was rendered for another action', async () => {
    const trial = (captcha: string) => call('POST', '/api/v1/api_key/trial', { form: { captcha } })
    expect((await trial('good:contact_sales:1')).status).toBe(400)
    expect((await trial('good:new_key:2')).status).toBe(200)
  })
})

describe('mail without SMTP', () => {
  it('writes each outbox message as .eml and .json under DATA_DIR/outbox, once', async () => {
    const dir = `tests/.tmp/outbox-${randomUUID()}`
    testEnv({ DATA_DIR: dir })
    const to = `file-${randomUUID()}@example.com`
    await database.db.execute(
      sql`insert into email_outbox ("to", subject, text, kind) values (${to}, 'Hello', 'Body text', 'test')`,
    )
    const mailer = await createMailer()
    expect(await drainOutbox(database.db, mailer)).toEqual({ sent: 1, failed: 0 })
    expect(await drainOutbox(database.db, mailer)).toEqual({ sent: 0, failed: 0 })
    const files = await readdir(`${dir}/outbox`)
    expect(files.filter((f) => f.endsWith('.eml'))).toHaveLength(1)
    const eml = await readFile(`${dir}/outbox/${files.find((f) => f.endsWith('.eml'))}`, 'utf8')
    expect(eml).toContain(`To: ${to}`)
    expect(eml).toContain('Body text')
    await rm(dir, { recursive: true, force: true })
    testEnv()
  })

  it('backs off and keeps a message whose sending failed', async () => {
    const to = `fail-${randomUUID()}@example.com`
    await database.db.execute(
      sql`insert into email_outbox ("to", subject, text, kind) values (${to}, 'Hello', 'Body', 'test')`,
    )
    const result = await drainOutbox(database.db, { send: async () => Promise.reject(new Error('smtp down')) })
    expect(result.failed).toBeGreaterThanOrEqual(1)
    const [row] = rowsOf<{ sent_at: unknown; last_error: string; later: boolean }>(
      await database.db.execute(
        sql`select sent_at, last_error, next_attempt_at > now() as later from email_outbox where "to" = ${to}`,
      ),
    )
    expect(row).toEqual({ sent_at: null, last_error: 'smtp down', later: true })
  })
})

describeWithService('TEST_REDIS_URL', 'rate limits in Redis', () => {
  it('shares one counter between instances', async () => {
    const one = await redisStore(process.env.TEST_REDIS_URL!)
    const two = await redisStore(process.env.TEST_REDIS_URL!)
    const bucket = `test:${randomUUID()}`
    resetRateLimits(one)
    await rateLimit(bucket, 3, 60_000)
    await rateLimit(bucket, 3, 60_000)
    resetRateLimits(two)
    await rateLimit(bucket, 3, 60_000)
    await expect(rateLimit(bucket, 3, 60_000)).rejects.toMatchObject({ kind: 'RateLimited' })
    resetRateLimits()
  })

  it('checks a shared budget without counting the check', async () => {
    const one = await redisStore(process.env.TEST_REDIS_URL!)
    const two = await redisStore(process.env.TEST_REDIS_URL!)
    const bucket = `test:${randomUUID()}`
    resetRateLimits(one)
    await rateLimit(bucket, 2, 60_000)
    resetRateLimits(two)
    for (let i = 0; i < 3; i++) await checkRateLimit(bucket, 2, 60_000)
    await rateLimit(bucket, 2, 60_000)
    resetRateLimits(one)
    await expect(checkRateLimit(bucket, 2, 60_000)).rejects.toMatchObject({ kind: 'RateLimited' })
    resetRateLimits()
  })

  it('spends tokens per minute across instances, giving back a refused amount', async () => {
    const one = await redisStore(process.env.TEST_REDIS_URL!)
    const two = await redisStore(process.env.TEST_REDIS_URL!)
    const bucket = `test:${randomUUID()}`
    resetRateLimits(one)
    await spendRateLimit(bucket, 1000, 60_000, 600)
    resetRateLimits(two)
    await expect(spendRateLimit(bucket, 1000, 60_000, 600)).rejects.toMatchObject({ kind: 'RateLimited' })
    // The refused 600 were given back: 400 still fit.
    await spendRateLimit(bucket, 1000, 60_000, 400)
    await expect(spendRateLimit(bucket, 1000, 60_000, 1)).rejects.toMatchObject({ kind: 'RateLimited' })
    resetRateLimits()
  })
})
