import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchBrowser } from './support/browser'
import { routeMatrixFailures } from './support/route-matrix'

const baseUrl = inject('baseUrl')

// The locales seen in the dark theme are in routes-dark.test.ts: two files, so the two e2e workers share them.
describe('every route in every interface locale, light and dark, accessible and no wider than a phone', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(() => browser?.close())

  it('renders without console errors or hydration warnings: the locales seen in the light theme', async () => {
    expect(await routeMatrixFailures(browser, baseUrl, false)).toEqual([])
  }, 600_000)
})
