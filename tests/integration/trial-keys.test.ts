import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { apiDatabase, call, scalar, solvedCaptcha } from '../support/api'

const database = apiDatabase()

const keyCount = () => scalar(database.db, sql`select count(*) from api_keys`)

describe('trial keys (reliability test 27)', () => {
  it('issues a key with the free pack of 10,000,000 tokens for a solved captcha', async () => {
    const captcha = await solvedCaptcha('new_key')
    const { status, body } = await call('POST', '/api/v1/api_key/trial', { form: { captcha } })
    expect(status).toBe(200)
    expect(body.api_key).toMatch(/^lds_[A-Za-z0-9_-]{32}$/)
    const info = await call('GET', '/api/v1/api_key/fe_user', { query: { api_key: body.api_key } })
    expect(info.status).toBe(200)
    expect(info.body.wallet.total_balance).toBe(10_000_000)
    expect(info.body.metadata).toEqual({ speed_level: 1, auto_recharge: false })
    expect(info.body.email).toBeNull()
  })

  it('gives no key for a missing, forged or replayed captcha', async () => {
    const before = await keyCount()
    const missing = await call('POST', '/api/v1/api_key/trial', { form: {} })
    expect(missing.status).toBe(422)
    const forged = await call('POST', '/api/v1/api_key/trial', {
      form: {
        captcha: Buffer.from('{"challenge":{"parameters":{"nonce":"x"},"signature":"y"},"solution":{}}').toString(
          'base64',
        ),
      },
    })
    expect(forged.status).toBe(400)
    expect(forged.body).toEqual({ detail: 'Captcha verification failed' })
    const captcha = await solvedCaptcha('new_key')
    expect((await call('POST', '/api/v1/api_key/trial', { form: { captcha } })).status).toBe(200)
    const replay = await call('POST', '/api/v1/api_key/trial', {
      form: { captcha },
      address: '198.51.100.9',
    })
    expect(replay.status).toBe(400)
    expect(await keyCount()).toBe(before + 1)
  })

  it('limits a burst from one address with 429, and the same captcha then gets an empty key', async () => {
    const answers = []
    for (let i = 0; i < 5; i++) {
      const captcha = await solvedCaptcha('new_key')
      const result = await call('POST', '/api/v1/api_key/trial', {
        form: { captcha },
        address: '192.0.2.44',
      })
      answers.push(result.status)
      if (result.status === 429) {
        expect(result.response.headers.get('retry-after')).toMatch(/^\d+$/)
        const fallback = await call('POST', '/api/v1/api_key/empty', {
          form: { captcha },
          address: '192.0.2.44',
        })
        expect(fallback.status).toBe(200)
        const info = await call('GET', '/api/v1/api_key/fe_user', { bearer: fallback.body.api_key })
        expect(info.body.wallet.total_balance).toBe(0)
      }
    }
    expect(answers).toEqual([200, 200, 200, 429, 429])
    // Another address is unaffected.
    const captcha = await solvedCaptcha('new_key')
    expect((await call('POST', '/api/v1/api_key/trial', { form: { captcha }, address: '192.0.2.45' })).status).toBe(200)
  })
})
