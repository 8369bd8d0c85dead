import type { Request as PageRequest } from 'playwright-core'
import { describe, expect, inject, it } from 'vitest'
import { appRunning, contextWithStore, watchPage, useBrowser } from './support/browser'

const baseUrl = inject('baseUrl')
/** Looks like a key, is not one of ours. */
const unknownKey = `lds_${'Q'.repeat(32)}`

describe('the dashboard over server functions', () => {
  const browser = useBrowser()

  it('reads through server functions only, shows a refusal as "status: detail", and the server keeps the same rules', async () => {
    const context = await contextWithStore(browser, { apiKey: unknownKey }, { viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const problems = watchPage(page, baseUrl).problems
    const calls: PageRequest[] = []
    page.on('request', (request) => {
      const { pathname } = new URL(request.url())
      if (pathname.startsWith('/_serverFn/') || pathname.startsWith('/api/')) calls.push(request)
    })

    await page.goto(`${baseUrl}/api-dashboard`)
    await appRunning(page)
    await expect
      .poll(() => page.getByTestId('key-info-error').textContent())
      .toContain('401: Invalid or missing API key')
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Models' }).click()
    await page.getByTestId('models').waitFor()
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Billing' }).click()
    await expect.poll(() => page.locator('[data-testid=packs] tbody tr').count()).toBe(3)

    // The key screens read through server functions; only the account service's sign-in state is REST.
    const restPaths = calls.map((call) => new URL(call.url()).pathname).filter((path) => path.startsWith('/api/'))
    expect(restPaths.filter((path) => !path.startsWith('/api/v1/account/'))).toEqual([])
    const keyInfo = calls.find((call) => call.method() === 'POST' && call.postData()?.includes(unknownKey))
    expect(keyInfo, 'the key info read went out as a server function POST').toBeDefined()

    // The same call replayed from another site is refused before it runs.
    const replay = (origin: string) =>
      fetch(keyInfo!.url(), {
        method: 'POST',
        headers: { ...keyInfo!.headers(), origin, 'sec-fetch-site': origin === baseUrl ? 'same-origin' : 'cross-site' },
        body: keyInfo!.postData(),
      })
    const foreign = await replay('https://evil.example')
    expect(foreign.status).toBe(403)
    // Marked so the browser's caller rejects with it instead of reading the refusal as data.
    expect(foreign.headers.get('x-tss-raw')).toBe('thrown')

    // From the site itself it answers the refusal the REST route gives, with a request id and no internals.
    const own = await replay(baseUrl)
    const body = await own.text()
    expect(own.status).toBe(401)
    expect(own.headers.get('x-request-id')).toMatch(/^[\w.:-]+$/)
    expect(body).toContain('Invalid or missing API key')
    expect(body).not.toMatch(/stack|node_modules|\bat \w/)

    // A call Start cannot decode, and a function no build has, answer {detail} as the REST routes would.
    const malformed = await fetch(keyInfo!.url(), {
      method: 'POST',
      headers: { ...keyInfo!.headers(), origin: baseUrl },
      body: '{"not":"what the client sends"',
    })
    expect({ status: malformed.status, body: await malformed.json() }).toEqual({
      status: 400,
      body: { detail: 'Malformed server function call' },
    })
    const unknown = await fetch(`${baseUrl}/_serverFn/no-such-function`, {
      method: 'POST',
      headers: { origin: baseUrl, 'content-type': 'application/json' },
      body: '{}',
    })
    expect(unknown.status).toBe(404)
    expect(unknown.headers.get('x-tss-raw')).toBe('thrown')

    // Only the browser's own line for the 401 answer reaches the console.
    expect(
      problems.filter((problem) => !/Failed to load resource|401: Invalid or missing API key/.test(problem)),
    ).toEqual([])
    await context.close()
  })
})
