import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { contextWithStore, launchBrowser, watchPage } from './support/browser'

const baseUrl = inject('baseUrl')

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

/**
 * A prerendered page whose client runtime is held back until `release`, so a tap can land before the app runs,
 * as on a slow phone. Records the scripts fetched before `load`.
 */
async function heldPage(path: string, viewport = { width: 1280, height: 900 }) {
  const context = await contextWithStore(browser, undefined, { viewport })
  const page: Page = await context.newPage()
  const { problems } = watchPage(page, baseUrl)
  let release!: () => void
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
    await held
    await route.continue()
  })
  let loaded = false
  const beforeLoad: string[] = []
  page.on('load', () => (loaded = true))
  page.on('request', (request) => {
    if (request.resourceType() === 'script' && !loaded) beforeLoad.push(request.url())
  })
  await page.goto(baseUrl + path, { waitUntil: 'load' })
  // Marks this document: a full reload would lose it.
  await page.evaluate(() => Object.assign(window, { sameDocument: true }))
  return { page, context, release, beforeLoad, problems }
}

describe('prerendered pages start their client runtime after the first paint', () => {
  it('fetches no script before load, and a link tapped before the app runs navigates in place once it does', async () => {
    const { page, context, release, beforeLoad, problems } = await heldPage('/')
    expect(beforeLoad).toEqual([])
    await page.locator('header a[href="/models"]:visible').first().click()
    expect(await page.getAttribute('#app', 'data-mounted')).toBe('false')
    expect(new URL(page.url()).pathname).toBe('/')
    release()
    await page.waitForURL(/\/models$/)
    await page.waitForSelector('#app[data-mounted="true"]')
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true)
    expect(problems).toEqual([])
    await context.close()
  })

  it('opens the theme menu tapped before the app runs, and its choice applies', async () => {
    const { page, context, release } = await heldPage('/embeddings')
    await page.getByRole('button', { name: /^Theme: / }).click()
    release()
    await page.waitForSelector('#app[data-mounted="true"]')
    await page.getByRole('button', { name: 'Dark', exact: true }).click()
    await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true)
    await context.close()
  })
})
