import type { Page } from 'playwright-core'
import { describe, expect, inject, it } from 'vitest'
import { appRunning, contextWithStore, useBrowser } from './support/browser'

const baseUrl = inject('baseUrl')

describe('small slips a visitor sees', () => {
  const browser = useBrowser()

  async function open(
    path: string,
    { width = 1280, store, colorScheme = 'light' as const } = {} as {
      width?: number
      store?: Record<string, unknown>
      colorScheme?: 'light' | 'dark'
    },
  ): Promise<Page> {
    const context = await contextWithStore(browser, store, { viewport: { width, height: 900 }, colorScheme })
    const page = await context.newPage()
    await page.goto(baseUrl + path)
    await appRunning(page)
    return page
  }

  it.each([
    ['/', 1280],
    ['/de', 1280],
    ['/de', 390],
    ['/ru', 320],
  ])('lines the hero figures of %s up, row by row, at %i px', async (path, width) => {
    const page = await open(path, { width })
    // On a phone the figures may take two rows; within a row, every value starts at the same height.
    const figures = await page.$$eval('main h1 ~ dl dd', (values) =>
      values.map((v) => ({
        row: Math.round(v.parentElement!.getBoundingClientRect().top),
        top: v.getBoundingClientRect().top,
      })),
    )
    expect(figures).toHaveLength(3)
    const rows = [...new Set(figures.map((figure) => figure.row))]
    if (width >= 1280) expect(rows).toHaveLength(1)
    for (const row of rows) {
      const tops = figures.filter((figure) => figure.row === row).map((figure) => figure.top)
      expect(Math.max(...tops) - Math.min(...tops)).toBeLessThan(1)
    }
    await page.context().close()
  })

  it('draws every customer logo at its own aspect ratio, 32 px tall on a desktop', async () => {
    const page = await open('/')
    const logos = page.locator('img[src^="/images/customers/"]')
    // They load lazily: bring them into view and wait until every one has its picture.
    await page.evaluate(() => document.querySelector('img[src^="/images/customers/"]')!.scrollIntoView())
    await page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLImageElement>('img[src^="/images/customers/"]')].every(
        (image) => image.complete && image.naturalWidth > 0,
      ),
    )
    const drawn = await logos.evaluateAll((images: HTMLImageElement[]) =>
      images.map((image) => {
        const box = image.getBoundingClientRect()
        return {
          src: image.src,
          ratio: box.width / box.height,
          natural: image.naturalWidth / image.naturalHeight,
          h: box.height,
        }
      }),
    )
    expect(drawn.length).toBeGreaterThan(20)
    for (const logo of drawn) {
      expect(logo.ratio, logo.src).toBeCloseTo(logo.natural, 1)
      expect(logo.h, logo.src).toBe(32)
    }
    await page.context().close()
  })

  it('offers light, dark and system themes, each visible at once on a light system', async () => {
    const page = await open('/models')
    const isDark = () => page.evaluate(() => document.documentElement.classList.contains('dark'))
    expect(await isDark()).toBe(false)
    await page.getByRole('button', { name: /theme/i }).click()
    await page.getByRole('button', { name: 'Dark', exact: true }).click()
    expect(await isDark()).toBe(true)
    await page.getByRole('button', { name: 'System', exact: true }).click()
    expect(await isDark()).toBe(false)
    await page.getByRole('button', { name: 'Dark', exact: true }).click()
    await page.getByRole('button', { name: 'Light', exact: true }).click()
    expect(await isDark()).toBe(false)
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('user')!).settings.darkMode)).toBe(false)
    await page.context().close()
  })

  it('says the theme in the interface language', async () => {
    const page = await open('/de/models')
    await page.getByRole('button', { name: /Design/ }).click()
    await page.getByRole('button', { name: 'Dunkel', exact: true }).click()
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true)
    await page.context().close()
  })
})
