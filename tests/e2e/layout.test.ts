import type { Browser, Page } from 'playwright-core'
import { describe, expect, inject, it } from 'vitest'
import { dashboardTabs, defaultTab, signedInTabs, type DashboardTab } from '~/lib/dashboard-tabs'
import { interfaceLocales, localizePath } from '~/lib/locale'
import { appRunning, contextWithStore, useBrowser } from './support/browser'
import { submitSignIn } from './support/sign-in'
import { layoutWidths, overflowAt } from './support/overflow'
import { keyFrom } from '../support/trial-key'

const baseUrl = inject('baseUrl')
const usageToken = 'e2e-usage-service-token-0123456789'
const pathOf = (tab: DashboardTab) => (tab === defaultTab ? '/api-dashboard' : `/api-dashboard/${tab}`)
/** Without an account, the tabs that need one are not reachable (their guard sends the visitor to sign in). */
const anonymousPaths = [
  ...dashboardTabs.filter((tab) => !signedInTabs.has(tab.key)).map((tab) => pathOf(tab.key)),
  '/sign-in',
]
const signedInPaths = dashboardTabs.map((tab) => pathOf(tab.key))
const password = 'layout password 1'

/** A trial key as a client of the REST API gets one (the captcha solved here), with some usage on it. */
async function trialKeyWithUsage(): Promise<string> {
  const apiKey = await keyFrom(baseUrl)
  for (const [index, product] of ['embeddings', 'reranker', 'reader'].entries()) {
    const usage = await fetch(`${baseUrl}/internal/v1/usage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${usageToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        api_key: apiKey,
        product,
        model: `${product}-v3`,
        tokens: 123_456 * (index + 1),
        usage_event_id: `layout-${Date.now()}-${index}`,
      }),
    })
    expect(usage.status).toBeLessThan(300)
  }
  // A classifier and a bulk job, so those tabs are measured with their lists filled, long names included.
  const auth = { authorization: `Bearer ${apiKey}` }
  const trained = await fetch(`${baseUrl}/v1/train`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'embeddings-v3',
      input: ['customer-support-escalations', 'product-feedback-and-feature-requests', 'billing'].flatMap((label) => [
        { text: `about ${label}`, label },
        { text: `more about ${label}`, label },
      ]),
    }),
  })
  expect(trained.status).toBe(200)
  const form = new FormData()
  form.append('model', 'embeddings-v3')
  form.append('file', new Blob(['a first text\na second text\n']), 'quarterly-customer-feedback-export-final-v2.txt')
  const job = await fetch(`${baseUrl}/v1/bulk-embeddings`, { method: 'POST', headers: auth, body: form })
  expect(job.status).toBe(200)
  return apiKey
}

/** An account (signed up through the API, as the sign-up form does) holding a key with a long name. */
async function accountWithKeys(): Promise<string> {
  const email = `layout-${Date.now()}@example.com`
  const signedUp = await fetch(`${baseUrl}/api/v1/account/sign_up`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  })
  expect(signedUp.status).toBe(200)
  return email
}

/** Signs in through the sign-in page, as a visitor would; the session then lasts for the context. */
async function signIn(page: Page, email: string) {
  await page.goto(`${baseUrl}/sign-in`)
  await appRunning(page)
  await submitSignIn(page, email, password)
  await page.getByTestId('account-keys').waitFor()
}

/** Opens `path`: a full load, or for a dashboard tab after the first a click on its tab as a visitor would (faster). */
async function open(page: Page, path: string, byTab: boolean) {
  if (byTab && path.includes('/api-dashboard')) {
    const tabs = '[data-testid=dashboard-tabs]'
    await page.locator(`${tabs} a[href="${path}"]`).click({ timeout: 10_000 })
    // The Account tab's guard asks the server first, which three tabs at once keep busy on two cores (beside the
    // other browser file, over 20 s once in CI on a slower machine).
    await page.waitForSelector(`${tabs} a[aria-current=page][href="${path}"]`, { timeout: 60_000 })
  } else {
    await page.goto(baseUrl + path, { waitUntil: 'load' })
    await appRunning(page, 15_000)
  }
  // Dashboard screens show skeletons until their data arrives; measure what replaces them.
  await page.waitForFunction(() => !document.querySelector('[data-slot=skeleton]'), undefined, { timeout: 15_000 })
}

/**
 * Opens every dashboard tab in every interface locale once (the first by loading it, the others by clicking
 * their tab) and checks it at every width by resizing, in a few long-lived browser tabs. Returns one line per
 * path and width that is wider than the window, naming what sticks out.
 */
async function overflowing(
  browser: Browser,
  paths: string[],
  store: Record<string, unknown> = {},
  account?: string,
): Promise<string[]> {
  const visits = interfaceLocales.map((locale) => paths.map((path) => localizePath(path, locale)))
  const failures: string[] = []
  await Promise.all(
    Array.from({ length: 3 }, async () => {
      // A context per tab, the store written before every load: a visit to /de stores the language, which
      // would send another tab's unprefixed English page to German.
      const context = await contextWithStore(browser, store, {}, { everyLoad: true })
      const page: Page = await context.newPage()
      if (account) await signIn(page, account)
      for (let group = visits.shift(); group !== undefined; group = visits.shift()) {
        for (const [index, path] of group.entries()) {
          try {
            // Every load starts narrow, as on a phone; the later widths are reached by resizing.
            await page.setViewportSize({ width: layoutWidths[0], height: 800 })
            await open(page, path, index > 0)
            for (const width of layoutWidths) {
              const overflow = await overflowAt(page, width)
              if (overflow) failures.push(`${path} at ${width}: ${overflow}`)
            }
          } catch (error) {
            failures.push(`${path}: ${(error as Error).message.split('\n')[0]} (at ${page.url()})`)
            break // the group's later tabs are reached from this one
          }
        }
      }
      await context.close()
    }),
  )
  return failures.sort()
}

// Public pages get the same check in routes.test.ts, which loads each of them in every locale anyway.
describe('no dashboard tab is wider than a phone or tablet screen, in any interface locale', () => {
  const browser = useBrowser()

  it('the dashboard without a key, and the sign-in page', async () => {
    const failures = await overflowing(browser, anonymousPaths)
    expect(failures).toEqual([])
  })

  // Signed in with a key that has usage: every tab with its data (the same screens a key alone shows, plus the
  // account's), so a separate pass with the key alone would only repeat them.
  it('the dashboard of a signed-in user with a key that has usage, the Account tab included', async () => {
    const store = { apiKey: await trialKeyWithUsage() }
    const failures = await overflowing(browser, signedInPaths, store, await accountWithKeys())
    expect(failures).toEqual([])
  })
})
