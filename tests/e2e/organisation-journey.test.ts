import type { Page } from 'playwright-core'
import { describe, expect, inject, it } from 'vitest'
import { appRunning, contextWithStore, useServedBrowser } from './support/browser'
import { invitationLinkTo } from './support/invitation-mail'
import { paySandboxCheckout, walletBalance } from './support/sandbox-checkout'
import { signUpVerified } from './support/sign-in'

const emulator = inject('authEmulator')
const password = 'correct horse 42'

/** Its own server, at its real address: the checkout of the shared balance comes back to it. */
const { browser, server } = useServedBrowser({
  FIREBASE_PROJECT_ID: emulator.projectId,
  FIREBASE_AUTH_EMULATOR_HOST: new URL(emulator.url).host,
  CAPTCHA_DIFFICULTY: '1000',
})

/** A same-origin call to the REST API from the page, with its session cookie, as the dashboard makes it. */
async function rest(page: Page, method: string, path: string, json?: unknown) {
  return page.evaluate(
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
}

/** Creates a key of the organisation in the project on the Members tab, as the owner would; answers its value. */
async function keyFromMembersTab(page: Page, name: string): Promise<string> {
  const form = page.getByTestId('create-organisation-key')
  await form.getByLabel('New key').fill(name)
  await form.getByLabel('Project').selectOption({ label: 'Search backend' })
  await form.getByRole('button', { name: 'Create key' }).click()
  const shown = page.getByTestId('new-key-once')
  await shown.waitFor({ timeout: 20_000 })
  const value = (await shown.getByTestId('new-key-value').textContent())!.trim()
  await shown.getByTestId('new-key-done').click()
  return value
}

async function embed(apiKey: string, input: string[]) {
  const response = await fetch(`${server.baseUrl}/v1/embeddings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'embeddings-v3', input }),
  })
  return { status: response.status, body: (await response.json()) as any }
}

/** The cells of a summary table's rows, by their first cell: what the member reads. */
async function tableRows(page: Page, testId: string): Promise<Record<string, string[]>> {
  const rows = await page.locator(`[data-testid=organisation-usage-section] [data-testid=${testId}] tbody tr`).all()
  const cells = await Promise.all(rows.map((row) => row.locator('td').allTextContents()))
  return Object.fromEntries(cells.map(([first, ...rest]) => [first, rest]))
}

const tokensIn = (cells: string[] | undefined) => Number((cells?.[3] ?? '').replace(/\D/g, ''))

describe('an organisation as a team uses it (issue 42)', () => {
  it('owner and viewer: a shared balance bought once, two keys of a project drawing on it, a monthly project limit, and usage per key and model equal to the ledger', async () => {
    const { baseUrl, dataDir } = server
    const stamp = Date.now()
    const ownerEmail = `team-owner-${stamp}@example.com`
    const viewerEmail = `team-viewer-${stamp}@example.com`
    const ownerContext = await contextWithStore(browser, undefined, { viewport: { width: 1280, height: 900 } })
    const owner = await ownerContext.newPage()
    await signUpVerified(owner, { baseUrl, emulator }, ownerEmail, password)

    // The organisation, its shared balance bought through checkout, a project and an invitation.
    const made = await rest(owner, 'POST', 'account/organisations', { name: 'Team Journey' })
    expect(made.status).toBe(200)
    const orgId: string = made.body.id
    const org = `account/organisations/${orgId}`
    const checkout = await rest(owner, 'POST', `${org}/checkout_session`, {
      price_id: 'price_tokens_1b',
    })
    expect(checkout.status).toBe(200)
    await owner.goto(checkout.body.url)
    await paySandboxCheckout(owner, ownerEmail)
    await expect
      .poll(async () => (await rest(owner, 'GET', 'account/organisations')).body.organisations, { timeout: 30_000 })
      .toContainEqual(expect.objectContaining({ id: orgId, balance: 1_000_000_000 }))
    const project = await rest(owner, 'POST', `${org}/projects`, { name: 'Search backend' })
    expect(project.status).toBe(200)
    expect((await rest(owner, 'POST', `${org}/invitations`, { email: viewerEmail, role: 'viewer' })).status).toBe(200)

    // Two keys of the project, made on the Members tab.
    await owner.goto(`${baseUrl}/api-dashboard/members`)
    await appRunning(owner)
    await owner.getByTestId('organisation-choice').selectOption({ label: 'Team Journey (Owner)' })
    const first = await keyFromMembersTab(owner, 'indexer')
    const second = await keyFromMembersTab(owner, 'ranker')

    // Both spend the one balance: what they used is what the ledger took from it, to the token.
    const answers = [
      await embed(first, ['a team shares one balance', 'and every key draws on it']),
      await embed(first, ['the ledger records each debit under its key']),
      await embed(second, ['naming the balance it moved']),
    ]
    for (const answer of answers) expect(answer.status).toBe(200)
    const used = (keyAnswers: typeof answers) =>
      keyAnswers.reduce((sum, answer) => sum + answer.body.usage.total_tokens, 0)
    const spent = { indexer: used(answers.slice(0, 2)), ranker: used(answers.slice(2)) }
    expect(await walletBalance(baseUrl, second)).toBe(1_000_000_000 - spent.indexer - spent.ranker)

    // A monthly limit on the project counts what its keys spent this month: a few tokens left for both keys.
    const limit = await rest(owner, 'POST', `${org}/projects/${project.body.id}/limits`, {
      unit: 'tokens',
      amount: spent.indexer + spent.ranker + 5,
      period: 'month',
    })
    expect(limit.status).toBe(200)
    expect(limit.body).toMatchObject({ used: spent.indexer + spent.ranker, left: 5 })
    for (const key of [first, second]) {
      const refused = await embed(key, ['a request that would pass the project limit'])
      expect(refused.status).toBe(402)
      expect(refused.body.error?.message ?? refused.body.detail).toMatch(/monthly spend limit/)
    }

    // The viewer joins from the mailed link and reads the usage: per key and per model, as the ledger holds it.
    await expect.poll(() => invitationLinkTo(dataDir, viewerEmail), { timeout: 60_000 }).toBeTruthy()
    const link = (await invitationLinkTo(dataDir, viewerEmail))!
    const viewerContext = await contextWithStore(browser, undefined, { viewport: { width: 390, height: 844 } })
    const viewer = await viewerContext.newPage()
    await signUpVerified(viewer, { baseUrl, emulator }, viewerEmail, password)
    await viewer.goto(link.replace(/^https?:\/\/[^/]+/, baseUrl))
    await appRunning(viewer)
    await viewer.getByTestId('invitation-offer').getByTestId('accept-invitation').click()
    await viewer.getByText('You joined Team Journey.').waitFor()
    await expect
      .poll(() => viewer.getByTestId('organisation-choice').locator('option:checked').textContent())
      .toBe('Team Journey (Viewer)')
    await viewer.getByTestId('organisation-usage-totals').waitFor({ timeout: 30_000 })
    const byKey = await tableRows(viewer, 'summary-by-key')
    expect(tokensIn(byKey.indexer)).toBe(spent.indexer)
    expect(tokensIn(byKey.ranker)).toBe(spent.ranker)
    const byModel = await tableRows(viewer, 'summary-by-model')
    const embeddings = Object.entries(byModel).find(([product]) => product.includes('embeddings-v3'))
    expect(tokensIn(embeddings?.[1])).toBe(spent.indexer + spent.ranker)
    const byProject = await tableRows(viewer, 'summary-by-project')
    expect(tokensIn(byProject['Search backend'])).toBe(spent.indexer + spent.ranker)
    // A viewer reads usage and nothing to change: no keys, no invitations, no project controls.
    expect(await viewer.getByTestId('organisation-keys-section').count()).toBe(0)
    expect(await viewer.getByTestId('invite-form').count()).toBe(0)
    expect((await rest(viewer, 'POST', `${org}/projects`, { name: 'not mine' })).status).toBe(403)
    const limitByViewer = await rest(viewer, 'POST', `${org}/projects/${project.body.id}/limits`, {
      unit: 'usd',
      amount: 1,
      period: 'day',
    })
    expect(limitByViewer.status).toBe(403)
    await viewerContext.close()
    await ownerContext.close()
  })
})
