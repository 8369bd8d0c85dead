import { solveChallenge, type Challenge } from 'altcha-lib'
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { submitLead } from '~/server/api/contact'
import { apiDatabase, buildRequest, call, keyWithBalance, scalar, solvedCaptcha } from '../support/api'
import { callerOf } from '~/server/http/caller-of'

const database = apiDatabase()

const keyCount = () => scalar(database.db, sql`select count(*) from api_keys`)
const garbage = Buffer.from('{"challenge":{"parameters":{"nonce":"x"},"signature":"y"},"solution":{}}').toString(
  'base64',
)
const trial = (captcha: string, address: string) =>
  call('POST', '/api/v1/api_key/trial', { form: { captcha }, address })
const lead = {
  name: 'Ada Lovelace',
  email: 'ada@engines.example',
  company: 'Analytical Engines Ltd',
  message: 'We need embeddings for 40 million documents.',
  locale: 'en-US' as const,
}
const fromAddress = (address: string) => callerOf(buildRequest('POST', '/_serverFn/contact', { address }), undefined)

/** A solved challenge for `action`, as its parts, so a test can tamper with them before encoding. */
async function solvedParts(action: string) {
  const { body } = await call('GET', '/api/v1/captcha/challenge', { query: { action } })
  const challenge = body as Challenge
  const solution = await solveChallenge({ challenge, deriveKey })
  if (!solution) throw new Error('could not solve the captcha')
  return { challenge, solution }
}
const encode = (payload: unknown) => Buffer.from(JSON.stringify(payload)).toString('base64')

describe('address limits count only attempts whose captcha verified', () => {
  it('lets an address get its three trial keys after garbage attempts from the same network', async () => {
    const address = '192.0.2.80'
    for (let i = 0; i < 10; i++) expect((await trial(garbage, address)).status).toBe(400)
    const answers = []
    for (let i = 0; i < 4; i++) answers.push((await trial(await solvedCaptcha('new_key'), address)).status)
    expect(answers).toEqual([200, 200, 200, 429])
  })

  it('still cuts off a flood of unverified attempts from one address, at a much higher limit', async () => {
    const address = '192.0.2.81'
    const answers = []
    for (let i = 0; i < 61; i++) answers.push((await trial(garbage, address)).status)
    expect(answers.slice(0, 60).every((status) => status === 400)).toBe(true)
    expect(answers[60]).toBe(429)
  })

  it('accepts a real contact lead after five garbage ones from the same address', async () => {
    const address = '198.51.100.80'
    for (let i = 0; i < 5; i++)
      expect(await submitLead(fromAddress(address), { ...lead, captcha: garbage })).toEqual({
        ok: false,
        reason: 'captcha',
      })
    const real = await submitLead(fromAddress(address), {
      ...lead,
      captcha: await solvedCaptcha('contact_sales'),
    })
    expect(real).toEqual({ ok: true })
  })
})

describe('IPv6 clients share one budget per /64', () => {
  it('refuses a fourth trial key to another address of the same /64, not to the next /64', async () => {
    const before = await keyCount()
    const sameNetwork = ['2001:db8:1:2::1', '2001:db8:1:2::2', '2001:DB8:1:2:0:ffff:0:9', '2001:db8:1:2:abcd::1']
    const answers = []
    for (const address of sameNetwork) answers.push((await trial(await solvedCaptcha('new_key'), address)).status)
    expect(answers).toEqual([200, 200, 200, 429])
    expect(await keyCount()).toBe(before + 3)
    expect((await trial(await solvedCaptcha('new_key'), '2001:db8:1:3::1')).status).toBe(200)
  })

  it('counts an IPv4-mapped IPv6 address as the IPv4 address', async () => {
    for (let i = 0; i < 3; i++) expect((await trial(await solvedCaptcha('new_key'), '192.0.2.90')).status).toBe(200)
    expect((await trial(await solvedCaptcha('new_key'), '::ffff:192.0.2.90')).status).toBe(429)
  })
})

describe('a captcha solution is bound to its action and used once', () => {
  it('refuses a challenge without a known action', async () => {
    expect((await call('GET', '/api/v1/captcha/challenge')).status).toBe(422)
    const unknown = await call('GET', '/api/v1/captcha/challenge', { query: { action: 'anything' } })
    expect(unknown.status).toBe(422)
  })

  it('refuses for a trial key a solution issued for contact sales, which still works for its own action', async () => {
    const before = await keyCount()
    const captcha = await solvedCaptcha('contact_sales')
    const refused = await trial(captcha, '192.0.2.100')
    expect(refused.status).toBe(400)
    expect(refused.body).toEqual({ detail: 'Captcha verification failed' })
    expect(await keyCount()).toBe(before)
    expect(await submitLead(fromAddress('192.0.2.100'), { ...lead, captcha })).toEqual({ ok: true })
  })

  it('refuses for a transfer a solution issued for revoking, which then revokes', async () => {
    const sender = await keyWithBalance(database.db, 1_000)
    const receiver = await keyWithBalance(database.db, 0)
    const captcha = await solvedCaptcha('revoke_key')
    const transfer = await call('POST', '/api/v1/billing/transfer_balance', {
      bearer: sender.apiKey,
      query: { receiver_key: receiver.apiKey, revoke_sender_key: 'true' },
      form: { captcha },
    })
    expect(transfer.status).toBe(400)
    const balance = () => scalar(database.db, sql`select balance from api_keys where id = ${receiver.id}`)
    expect(await balance()).toBe(0)
    const revoke = await call('DELETE', '/api/v1/api_key', { bearer: sender.apiKey, form: { captcha } })
    expect(revoke.status).toBe(200)
  })

  it('refuses a replayed solution, for the same action and for another', async () => {
    const captcha = await solvedCaptcha('new_key')
    expect((await trial(captcha, '192.0.2.110')).status).toBe(200)
    expect((await trial(captcha, '192.0.2.111')).status).toBe(400)
    const empty = await call('POST', '/api/v1/api_key/empty', { form: { captcha }, address: '192.0.2.112' })
    expect(empty.status).toBe(400)
  })

  it('refuses a tampered counter, derived key, action or expiry, and accepts the untouched solution after', async () => {
    const before = await keyCount()
    const { challenge, solution } = await solvedParts('new_key')
    const tampered = [
      { challenge, solution: { ...solution, counter: solution.counter + 1 } },
      { challenge, solution: { ...solution, counter: 0 } },
      { challenge, solution: { ...solution, counter: String(solution.counter) } },
      {
        challenge,
        solution: { ...solution, derivedKey: solution.derivedKey.replace(/.$/, (c) => (c === '0' ? '1' : '0')) },
      },
      {
        challenge: { ...challenge, parameters: { ...challenge.parameters, data: { action: 'contact_sales' } } },
        solution,
      },
      {
        challenge: { ...challenge, parameters: { ...challenge.parameters, expiresAt: 4_102_444_800 } },
        solution,
      },
      { challenge: { parameters: challenge.parameters }, solution },
    ]
    for (const [index, payload] of tampered.entries())
      expect((await trial(encode(payload), `192.0.2.${120 + index}`)).status, `tamper ${index}`).toBe(400)
    expect(await keyCount()).toBe(before)
    expect((await trial(encode({ challenge, solution }), '192.0.2.130')).status).toBe(200)
  })
})
