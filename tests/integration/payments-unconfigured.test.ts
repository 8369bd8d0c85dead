import { describe, expect, it } from 'vitest'
import { sandboxPayFor, sandboxSessionFor } from '~/server/api/payments/sandbox-checkout'
import { PaymentsUnavailable } from '~/server/domain/refusals'
import { answerFor } from '~/server/http/refusal-answers'
import { call, fingerprint, keyWithBalance, apiDatabase } from '../support/api'
import { card, postWebhook, signedEvent } from '../support/payments'

/** A deployment's configuration: no Stripe keys, and nobody asked for the sandbox (PAYMENTS_SANDBOX unset). */
const database = apiDatabase({ env: { PAYMENTS_SANDBOX_SECRET: 'whsec_test_sandbox_secret_0123456789' } })
delete process.env.PAYMENTS_SANDBOX

const unavailable = {
  status: 501,
  body: { detail: 'Payments are not set up on this server, so nothing can be bought here' },
}

describe('no payment service set up (no Stripe keys, no PAYMENTS_SANDBOX)', () => {
  it('refuses a checkout, turning auto-recharge on and a threshold with 501 {detail}, and writes nothing', async () => {
    const key = await keyWithBalance(database.db, 5)
    const before = await fingerprint(database.db)
    const checkout = await call('POST', '/api/v1/checkout_session', {
      bearer: key.apiKey,
      json: { price_id: 'price_tokens_11b' },
    })
    expect(checkout).toMatchObject(unavailable)
    const recharge = await call('POST', '/api/v1/auto_recharge', {
      bearer: key.apiKey,
      json: {
        price_id: 'price_tokens_1b',
        success_url: 'http://localhost:3000/api-dashboard/auto-recharge',
        cancel_url: 'http://localhost:3000/api-dashboard/auto-recharge',
        metadata: { auto_recharge: true, threshold: 1000, currency: 'USD' },
      },
    })
    expect(recharge).toMatchObject(unavailable)
    const threshold = await call('POST', '/api/v1/auto_recharge/settings', {
      bearer: key.apiKey,
      query: { threshold: '1000' },
    })
    expect(threshold).toMatchObject(unavailable)
    expect(await fingerprint(database.db)).toEqual(before)
    // Reading the settings and turning auto-recharge off still work.
    const status = await call('GET', '/api/v1/auto_recharge', { bearer: key.apiKey })
    expect(status).toMatchObject({ status: 200, body: { enabled: false, eligible: false } })
    expect((await call('DELETE', '/api/v1/auto_recharge', { bearer: key.apiKey })).status).toBe(200)
  })

  it('has no sandbox checkout to show or pay, and takes no sandbox-signed event', async () => {
    for (const attempt of [
      sandboxSessionFor('cs_test_0123456789abcdef01234567'),
      sandboxPayFor('cs_test_0123456789abcdef01234567', card('succeeds')),
    ]) {
      const refusal = await attempt.catch((error: unknown) => error)
      expect(refusal).toBeInstanceOf(PaymentsUnavailable)
      expect(answerFor(refusal as PaymentsUnavailable)).toEqual({ status: 501, detail: unavailable.body.detail })
    }
    const event = signedEvent('checkout.session.completed', { id: 'cs_test_0123456789abcdef01234567' })
    expect(await postWebhook(event.payload, event.signature)).toMatchObject(unavailable)
  })
})
