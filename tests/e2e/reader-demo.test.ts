import AxeBuilder from '@axe-core/playwright'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { wcagTags } from './support/axe'
import { appRunning, contextWithStore, useServedBrowser, watchPage } from './support/browser'
import { overflowAt } from './support/overflow'
import { serveBuild } from './support/server'
import { freePort } from '../support/ports'

/**
 * The reader demo on a server as `npm start` runs it: READER_ALLOW_PRIVATE_NETWORKS unset (the e2e global
 * server sets it), so only this site's own origin is readable on loopback. Its default example answers
 * offline, the JavaScript-rendered sample shows what the browser engine adds, and the answer is viewable
 * as Markdown, a screenshot and JSON, at 320 px to desktop, light and dark, axe-clean.
 */
const { browser, server } = useServedBrowser(async () => {
  const port = await freePort()
  return serveBuild(
    { PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, READER_ALLOW_PRIVATE_NETWORKS: 'false', DATABASE_URL: '' },
    { port },
  )
})
let bystander: Server
const bystanderHits: string[] = []

beforeAll(async () => {
  // Another server on loopback, which the reader must still refuse to read.
  bystander = createServer((request, response) => {
    bystanderHits.push(request.url ?? '')
    response.end('<p>PRIVATE</p>')
  })
  await new Promise<void>((resolve) => bystander.listen(0, '127.0.0.1', resolve))
})
afterAll(() => new Promise((resolve) => bystander?.close(resolve)))

async function openReaderDemo(page: Page, path = '/reader') {
  await page.goto(server.baseUrl + path, { waitUntil: 'load' })
  await appRunning(page)
  await page.locator('#demo').scrollIntoViewIfNeeded()
  await page.getByTestId('demo-reader').waitFor({ timeout: 15_000 })
}

async function runAndWait(page: Page) {
  await page.getByTestId('demo-run').click()
  await page.locator('[data-testid=demo-result]:is([data-status=done], [data-status=failed])').waitFor({
    timeout: 120_000,
  })
  expect(await page.getByTestId('demo-result').getAttribute('data-status')).toBe('done')
}

describe('the reader demo on a fresh install (private networks refused)', () => {
  it('answers its default example, this site’s own page, while any other loopback server stays refused', async () => {
    const context = await contextWithStore(browser)
    const page = await context.newPage()
    const { problems } = watchPage(page, server.baseUrl)
    await openReaderDemo(page)
    await runAndWait(page)
    expect(await page.getByTestId('reader-title').textContent()).toContain('DeepSearch')
    expect(await page.getByTestId('reader-content').textContent()).toContain('## The loop')
    expect(await page.getByTestId('reader-engine').getAttribute('data-engine')).toBe('direct')
    expect(problems).toEqual([])
    await context.close()

    const port = (bystander.address() as AddressInfo).port
    for (const target of [`http://127.0.0.1:${port}/`, `http://localhost:${port}/`]) {
      const answer = await fetch(`${server.baseUrl}/r/${target}`, { headers: { accept: 'application/json' } })
      expect(answer.status).toBe(403)
    }
    expect(bystanderHits).toEqual([])
  })

  it('reads the scripted sample with the browser (its text and a screenshot), and with a direct fetch only its loading line', async () => {
    const context = await contextWithStore(browser, undefined, { viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const { problems } = watchPage(page, server.baseUrl)
    await openReaderDemo(page)
    await page.locator('[data-example=scripted]').click()
    await runAndWait(page)
    const content = page.getByTestId('reader-content')
    expect(await content.textContent()).toContain('# How a single-page app hides its text from a plain fetch')
    expect(await content.textContent()).not.toContain('Loading the article')
    expect(await page.getByTestId('reader-engine').getAttribute('data-engine')).toBe('browser')

    await page.getByTestId('reader-view-screenshot').click()
    const image = page.getByTestId('reader-shot-view').locator('img')
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)), { timeout: 15_000 })
      .toBeGreaterThan(300)

    await page.getByTestId('reader-view-json').click()
    const json = JSON.parse((await page.getByTestId('reader-json').textContent())!) as Record<string, unknown>
    expect(json.engine).toBe('browser')
    expect(json.screenshotUrl).toMatch(/\/v1\/reader\/shots\//)
    expect(json.content).toContain('single-page app')

    // The same page with a direct fetch: the script never runs, so only its loading line is there.
    await page.locator('#reader-engine').selectOption('direct')
    await page.getByTestId('reader-screenshot').uncheck()
    await runAndWait(page)
    await page.getByTestId('reader-view-content').click()
    expect(await page.getByTestId('reader-content').textContent()).toContain('Loading the article')
    expect(await page.getByTestId('reader-content').textContent()).not.toContain('single-page app')
    expect(await page.getByTestId('reader-engine').getAttribute('data-engine')).toBe('direct')
    expect(problems).toEqual([])
    await context.close()
  })

  it('fits 320 px to desktop and passes axe in each view, light and dark, translated', async () => {
    const failures: string[] = []
    for (const [locale, dark] of [
      ['ja', false],
      ['de', true],
    ] as const) {
      const context = await contextWithStore(browser, { settings: { darkMode: dark } }, {}, { everyLoad: true })
      const page = await context.newPage()
      const { problems } = watchPage(page, server.baseUrl)
      await page.setViewportSize({ width: 320, height: 800 })
      await openReaderDemo(page, `/${locale}/reader`)
      await page.locator('[data-example=scripted]').click()
      expect(await page.getByTestId('reader-view-json').count()).toBe(0)
      await runAndWait(page)
      for (const view of ['content', 'screenshot', 'json'] as const) {
        await page.getByTestId(`reader-view-${view}`).click()
        expect(await page.getByTestId(`reader-view-${view}`).textContent()).not.toBe('')
        for (const width of [320, 390, 768, 1280]) {
          const overflow = await overflowAt(page, width)
          if (overflow) failures.push(`/${locale} ${view} at ${width}: ${overflow}`)
        }
        const { violations } = await new AxeBuilder({ page })
          .include('#demo')
          .withTags([...wcagTags, 'best-practice'])
          .analyze()
        for (const v of violations)
          failures.push(
            `/${locale} ${view}: axe ${v.id} (${v.impact}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
          )
        await page.setViewportSize({ width: 320, height: 800 })
      }
      // Translated: the browser engine's option does not read as the English source.
      expect(await page.locator('#reader-engine option[value=browser]').textContent()).not.toBe(
        "Browser (runs the page's scripts)",
      )
      failures.push(...problems)
      await context.close()
    }
    expect(failures).toEqual([])
  })
})
