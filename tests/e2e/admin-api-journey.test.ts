import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { startReceiver, verified, type Receiver } from '../support/webhook-receiver'
import { appRunning, contextWithStore, useServedBrowser } from './support/browser'
import { paySandboxCheckout } from './support/sandbox-checkout'
import { signUpVerified } from './support/sign-in'

const emulator = inject('authEmulator')
const password = 'correct horse 42'

/** Its own server at its real address (the checkout returns to it), delivering webhooks to a loopback receiver. */
const { browser, server } = useServedBrowser({
  FIREBASE_PROJECT_ID: emulator.projectId,
  FIREBASE_AUTH_EMULATOR_HOST: new URL(emulator.url).host,
  CAPTCHA_DIFFICULTY: '1000',
  WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true',
})
let receiver: Receiver
beforeAll(async () => {
  receiver = await startReceiver()
})
afterAll(() => receiver?.close())

/** A same-origin REST call from the page with its session, as the dashboard makes it. */
const rest = (page: Page, method: string, path: string, json?: unknown) =>
  page.evaluate(
    async ({ method, path, json }) => {
      const response = await fetch(`/api/v1/${path}`, {
        method,
        headers: json === undefined ? {} : { 'content-type': 'application/json' },
        body: json === undefined ? undefined : JSON.stringify(json),
      })
      return { status: response.status, body: await response.json() }
    },
    { method, path, json },
  )

/** A call with a bearer key, as a script would make it. */
async function api(bearer: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${bearer}`,
      ...(body === undefined || body instanceof FormData ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as any }
}

describe('an organisation run by a program (issue 43)', () => {
  it('an owner makes an admin key in the console; through the Administration API alone a project, a key with a monthly limit and a webhook endpoint; signed limit.reached and bulk_job.completed arrive; usage by key and model equals the console', async () => {
    const { baseUrl } = server
    const ownerEmail = `admin-owner-${Date.now()}@example.com`
    const context = await contextWithStore(browser, undefined, { viewport: { width: 1280, height: 900 } })
    const owner = await context.newPage()
    await signUpVerified(owner, { baseUrl, emulator }, ownerEmail, password)
    const made = await rest(owner, 'POST', 'account/organisations', { name: 'Scripted Team' })
    const orgId: string = made.body.id
    const checkout = await rest(owner, 'POST', `account/organisations/${orgId}/checkout_session`, {
      price_id: 'price_tokens_1b',
    })
    await owner.goto(checkout.body.url)
    await paySandboxCheckout(owner, ownerEmail)

    // The admin key, made on the Members tab and shown once.
    await owner.goto(`${baseUrl}/api-dashboard/members`)
    await appRunning(owner)
    await owner.getByTestId('organisation-choice').selectOption({ label: 'Scripted Team (Owner)' })
    const form = owner.getByTestId('create-admin-key')
    await form.getByLabel('New admin key').fill('provisioning')
    await form.getByRole('button', { name: 'Create admin key' }).click()
    const admin = (await owner.getByTestId('new-admin-key-value').textContent())!.trim()
    expect(admin).toMatch(/^sk-admin-/)
    await owner.getByTestId('admin-key-done').click()
    await owner.getByTestId('admin-key-row').filter({ hasText: 'provisioning' }).waitFor()

    // From here on, only the admin key.
    const project = await api(admin, 'POST', '/v1/organization/projects', { name: 'Nightly jobs' })
    expect(project.status).toBe(200)
    const hook = await api(admin, 'POST', '/v1/organization/webhooks', {
      url: receiver.url('/scripted'),
      events: ['limit.reached', 'bulk_job.completed'],
    })
    expect(hook.status).toBe(200)
    expect(hook.body.secret).toMatch(/^whsec_/)
    const keys = `/v1/organization/projects/${project.body.id}/api_keys`
    const text = 'a script spends within the limit its admin set'
    const probe = await api(admin, 'POST', keys, { name: 'probe' })
    const perRequest = (
      await api(probe.body.value, 'POST', '/v1/embeddings', { model: 'embeddings-v3', input: [text] })
    ).body.usage.total_tokens
    const capped = await api(admin, 'POST', keys, {
      name: 'capped',
      limits: { period: 'month', tokens: 2 * perRequest },
    })
    expect(capped.status).toBe(200)
    const statuses = []
    for (let i = 0; i < 4; i++)
      statuses.push(
        (await api(capped.body.value, 'POST', '/v1/embeddings', { model: 'embeddings-v3', input: [text] })).status,
      )
    expect(statuses).toEqual([200, 200, 402, 402])
    const bulk = new FormData()
    bulk.append('model', 'embeddings-v3')
    bulk.append('file', new Blob(['one\ntwo\nthree'], { type: 'text/plain' }), 'texts.txt')
    const job = await api(probe.body.value, 'POST', '/v1/bulk-embeddings', bulk)
    expect(job.status).toBe(200)

    // Both events signed with the endpoint's secret, as the standardwebhooks package verifies them.
    await expect.poll(() => receiver.at('/scripted').length, { timeout: 60_000 }).toBe(2)
    const events = receiver.at('/scripted').map((request) => verified(hook.body.secret, request))
    expect(events.map((event) => event.type).sort()).toEqual(['bulk_job.completed', 'limit.reached'])
    expect(events.find((event) => event.type === 'limit.reached')!.data).toMatchObject({
      key_id: capped.body.id,
      allowed_tokens: 2 * perRequest,
    })
    expect(events.find((event) => event.type === 'bulk_job.completed')!.data).toMatchObject({ job_id: job.body.id })

    // The usage API grouped by key and model, and the console's table per key: the same tokens.
    const day = Math.floor(Date.now() / 86_400_000) * 86_400
    const usage = await api(
      admin,
      'GET',
      `/v1/organization/usage/embeddings?start_time=${day}&bucket_width=1d&group_by=api_key_id&group_by=model`,
    )
    expect(usage.status).toBe(200)
    const results = usage.body.data.flatMap((bucket: { results: any[] }) => bucket.results)
    const byKey = (id: string) =>
      results.filter((r: any) => r.api_key_id === id).reduce((sum: number, r: any) => sum + r.input_tokens, 0)
    expect(byKey(capped.body.id)).toBe(2 * perRequest)
    await owner.reload()
    await appRunning(owner)
    const row = owner
      .locator('[data-testid=organisation-usage-section] [data-testid=summary-by-key] tbody tr')
      .filter({ hasText: 'capped' })
    await row.waitFor({ timeout: 30_000 })
    const cells = await row.locator('td').allTextContents()
    expect(Number(cells[4].replace(/\D/g, ''))).toBe(byKey(capped.body.id))
    await context.close()
  })
})
