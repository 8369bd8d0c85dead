import { sql } from 'drizzle-orm'
import { extractText, getDocumentProxy } from 'unpdf'
import { describe, expect, it } from 'vitest'
import { confirmCheckoutFor } from '~/server/api/payments/purchases'
import { numberInvoice } from '~/server/domain/invoices'
import { purchaseBySession } from '~/server/domain/purchases'
import { consume } from '~/server/domain/metering'
import { apiDatabase, call, keyWithBalance, respond, scalar } from '../support/api'
import {
  buyPack,
  card,
  postWebhook,
  runRecharges,
  sandbox,
  SANDBOX_SECRET,
  signedEvent,
  startCheckout,
} from '../support/payments'
import { describeWithService } from '../support/services'
import { callerOf } from '~/server/http/caller-of'

const database = apiDatabase({ env: { PAYMENTS_SANDBOX_SECRET: SANDBOX_SECRET }, maxConnections: 30 })

const returnTo = 'http://localhost:3000/api-dashboard/auto-recharge'
const balanceOf = (id: string) => scalar(database.db, sql`select balance from api_keys where id = ${id}::uuid`)
const rechargeSettings = async (apiKey: string) => (await call('GET', '/api/v1/auto_recharge', { bearer: apiKey })).body
const turnOn = (apiKey: string, extra: Record<string, unknown> = {}) =>
  call('POST', '/api/v1/auto_recharge', {
    bearer: apiKey,
    json: {
      price_id: 'price_tokens_1b',
      success_url: `${returnTo}?checkout=success&session={CHECKOUT_SESSION_ID}`,
      cancel_url: returnTo,
      metadata: { auto_recharge: true, threshold: 500_000_000, currency: 'USD' },
      ...extra,
    },
  })
const purchasesOf = async (apiKey: string) =>
  (await call('GET', '/api/v1/billing/purchases', { bearer: apiKey })).body.purchases
const keyCaller = (apiKey: string) => callerOf(new Request('http://localhost:3000/'), apiKey)

describe('a card saved without a purchase (sandbox)', () => {
  it('saves the card in a setup-mode checkout, charges nothing, turns auto-recharge on, and recharges with it later', async () => {
    const key = await keyWithBalance(database.db, 600_000_000)
    const { status, body } = await turnOn(key.apiKey, { save_card_only: true })
    expect(status).toBe(200)
    const session = new URL(body.url).pathname.split('/').pop()!
    expect(await sandbox().view(session)).toMatchObject({ mode: 'setup', amount: 0 })
    expect(await sandbox().pay(session, { ...card('succeeds'), email: 'saver@example.com' })).toMatchObject({
      kind: 'paid',
    })
    // Nothing bought: the balance, the purchases and the key's paid status are as they were.
    expect(await balanceOf(key.id)).toBe(600_000_000)
    expect(await purchasesOf(key.apiKey)).toEqual([])
    const info = (await call('GET', '/api/v1/api_key/fe_user', { query: { api_key: key.apiKey } })).body
    expect(info.email).toBeNull()
    expect(await rechargeSettings(key.apiKey)).toMatchObject({
      enabled: true,
      threshold: 500_000_000,
      eligible: true,
      card: { brand: 'visa', last4: '4242' },
    })
    // The return page and a redelivered event find it saved: one card.saved in the audit log.
    expect(await confirmCheckoutFor(keyCaller(key.apiKey), session)).toMatchObject({
      status: 'card_saved',
      tokens: 0,
      card: { last4: '4242' },
    })
    const stored = await sandbox().view(session)
    expect(stored?.status).toBe('complete')
    const redelivered = signedEvent('checkout.session.completed', { id: session, mode: 'setup' })
    expect((await postWebhook(redelivered.payload, redelivered.signature)).status).toBe(200)
    expect(
      await scalar(
        database.db,
        sql`select count(*) from audit_log where key_id = ${key.id}::uuid and action = 'card.saved'`,
      ),
    ).toBe(1)

    // A debit crosses the threshold: the saved card buys the pack, and the key becomes paid with the saver's address.
    await consume(database.db, {
      keyId: key.id,
      tokens: 200_000_000,
      usageEventId: `spend-${key.id}`,
      product: 'embeddings',
    })
    await runRecharges(database.db)
    expect(await balanceOf(key.id)).toBe(400_000_000 + 1_000_000_000)
    const [recharge] = await purchasesOf(key.apiKey)
    expect(recharge).toMatchObject({ kind: 'auto_recharge', status: 'paid', card: { brand: 'visa', last4: '4242' } })
    const paid = (await call('GET', '/api/v1/api_key/fe_user', { query: { api_key: key.apiKey } })).body
    expect(paid.email).toBe('saver@example.com')
  })

  it('saves nothing for a declined card, and a cancelled setup leaves auto-recharge off', async () => {
    const key = await keyWithBalance(database.db, 5)
    const { body } = await turnOn(key.apiKey, { save_card_only: true })
    const session = new URL(body.url).pathname.split('/').pop()!
    expect(await sandbox().pay(session, card('declined'))).toEqual({ kind: 'declined' })
    expect(await rechargeSettings(key.apiKey)).toMatchObject({ enabled: false, eligible: false, card: null })
  })

  it('offers the card of an earlier purchase: auto-recharge turns on at once, without another checkout', async () => {
    const key = await keyWithBalance(database.db, 0)
    await buyPack(key.apiKey)
    expect(await rechargeSettings(key.apiKey)).toMatchObject({
      enabled: false,
      eligible: true,
      card: { last4: '4242' },
    })
    const sessionsBefore = await scalar(
      database.db,
      sql`select count(*) from sandbox_objects where kind = 'checkout.session'`,
    )
    const { status, body } = await turnOn(key.apiKey)
    expect(status).toBe(200)
    expect(body.url.startsWith(returnTo)).toBe(true)
    expect(await scalar(database.db, sql`select count(*) from sandbox_objects where kind = 'checkout.session'`)).toBe(
      sessionsBefore,
    )
    expect(await rechargeSettings(key.apiKey)).toMatchObject({ enabled: true, threshold: 500_000_000 })
  })
})

describe('receipts and invoices', () => {
  it("names the card on the receipt and prints the buyer's billing details on the invoice PDF", async () => {
    const key = await keyWithBalance(database.db, 0)
    await buyPack(key.apiKey)
    const [purchase] = await purchasesOf(key.apiKey)
    expect(purchase).toMatchObject({ status: 'paid', card: { brand: 'visa', last4: '4242' } })
    expect(purchase.invoice_number).toMatch(/^INV-\d{6}$/)

    // Refused in plain words, writing nothing: a script the invoice cannot print, an empty address, a bad tax id.
    const refused = await call('PUT', '/api/v1/billing/details', {
      bearer: key.apiKey,
      json: { name: 'Иван Петров', address: ' ', tax_id: 'DE 123 <b>' },
    })
    expect(refused.status).toBe(422)
    expect(refused.body.detail.map((issue: { loc: string[] }) => issue.loc.join('.'))).toEqual([
      'body.name',
      'body.address',
      'body.tax_id',
    ])
    expect(refused.body.detail[0].msg).toContain('Latin letters')
    expect((await call('GET', '/api/v1/billing/details', { bearer: key.apiKey })).body).toEqual({
      details: null,
    })

    const saved = await call('PUT', '/api/v1/billing/details', {
      bearer: key.apiKey,
      json: {
        name: '  Müller & Söhne GmbH ',
        address: 'Hauptstraße 1\r\n10115 Berlin\nGermany',
        tax_id: 'DE123456789',
      },
    })
    expect(saved.body).toEqual({
      details: { name: 'Müller & Söhne GmbH', address: 'Hauptstraße 1\n10115 Berlin\nGermany', tax_id: 'DE123456789' },
    })

    const pdf = await call('GET', `/api/v1/billing/invoices/${purchase.id}`, {
      bearer: key.apiKey,
    })
    expect(pdf.status).toBe(200)
    expect(pdf.response.headers.get('content-type')).toBe('application/pdf')
    expect(pdf.response.headers.get('content-disposition')).toContain(`${purchase.invoice_number}.pdf`)
    const text = await pdfText(key.apiKey, purchase.id)
    for (const expected of [
      purchase.invoice_number,
      'Müller & Söhne GmbH',
      'Hauptstraße 1',
      '10115 Berlin',
      'Tax ID: DE123456789',
      '1,000,000,000 API tokens',
      '$50.00',
      'Visa ending 4242',
    ])
      expect(text).toContain(expected)

    // Issued with those details, the invoice keeps them when the details change later.
    await call('PUT', '/api/v1/billing/details', {
      bearer: key.apiKey,
      json: { name: 'Another Name Ltd', address: '1 Other Street' },
    })
    const again = await pdfText(key.apiKey, purchase.id)
    expect(again).toContain('Müller & Söhne GmbH')
    expect(again).not.toContain('Another Name Ltd')

    // Another key's invoice is not found.
    const stranger = await keyWithBalance(database.db, 0)
    expect(
      (
        await call('GET', `/api/v1/billing/invoices/${purchase.id}`, {
          bearer: stranger.apiKey,
        })
      ).status,
    ).toBe(404)
  })
})

/** The invoice's text as a PDF reader extracts it (the call helper reads bodies as text, so the bytes come from `respond`). */
async function pdfText(apiKey: string, purchaseId: string): Promise<string> {
  const response = await respond('GET', `/api/v1/billing/invoices/${purchaseId}`, {
    bearer: apiKey,
  })
  const document = await getDocumentProxy(new Uint8Array(await response.arrayBuffer()))
  const { text } = await extractText(document, { mergePages: true })
  return text
}

describeWithService('TEST_DATABASE_URL', 'invoice numbers on real Postgres', () => {
  it('numbers concurrent purchases without gaps or repeats, and a rolled-back credit gives its number back', async () => {
    const keys = await Promise.all(Array.from({ length: 12 }, () => keyWithBalance(database.db, 0)))
    const sessions = await Promise.all(keys.map((key) => startCheckout(key.apiKey)))
    // All paid at once: each credit takes its number in its own transaction, under the counter's row lock.
    const paid = await Promise.all(sessions.map((session) => sandbox().pay(session, card('succeeds'))))
    expect(paid.every((payment) => payment?.kind === 'paid')).toBe(true)

    // A credit that fails after taking its number rolls the number back with everything else.
    const pending = await purchaseBySession(database.db, await startCheckout(keys[0].apiKey))
    await expect(
      database.db.transaction(async (tx) => {
        await numberInvoice(tx, pending!.id)
        throw new Error('the credit failed after its number was taken')
      }),
    ).rejects.toThrow('the credit failed')
    expect((await buyPack(keys[1].apiKey)).paid).toMatchObject({ kind: 'paid' })

    const count = await scalar(database.db, sql`select count(*) from invoices`)
    expect(count).toBeGreaterThanOrEqual(13)
    expect(await scalar(database.db, sql`select min(number) from invoices`)).toBe(1)
    expect(await scalar(database.db, sql`select max(number) from invoices`)).toBe(count)
    expect(await scalar(database.db, sql`select count(distinct number) from invoices`)).toBe(count)
    expect(await scalar(database.db, sql`select last_number from invoice_counter`)).toBe(count)
    expect(
      await scalar(
        database.db,
        sql`select count(*) from purchases p where status = 'paid'
          and not exists (select 1 from invoices i where i.purchase_id = p.id)`,
      ),
    ).toBe(0)
  })
})
