import AxeBuilder from '@axe-core/playwright'
import { describe, expect, inject, it } from 'vitest'
import { wcagTags } from './support/axe'
import { appRunning, contextWithStore, watchPage, useBrowser } from './support/browser'

const baseUrl = inject('baseUrl')

const browser = useBrowser()

describe('dashboard tables on a phone', () => {
  it('scroll sideways with a visible cue, and every model shows its API id with a copy button, light and dark', async () => {
    for (const dark of [false, true]) {
      const context = await contextWithStore(
        browser,
        { settings: { darkMode: dark } },
        { viewport: { width: 320, height: 700 } },
      )
      const page = await context.newPage()
      const { problems } = watchPage(page, baseUrl)
      await page.goto(`${baseUrl}/ru/api-dashboard/models`)
      await appRunning(page)
      const table = page.getByTestId('models')
      await table.waitFor()
      const box = table.locator('xpath=..')
      const { overflows, cue } = await box.evaluate((el) => ({
        overflows: el.scrollWidth > el.clientWidth,
        cue: getComputedStyle(el).backgroundImage,
      }))
      // Wider than the phone: it scrolls inside its box, and the box shows the shadow that says so.
      expect(overflows).toBe(true)
      expect(cue).toContain('radial-gradient')
      // The page itself does not scroll sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
      const ids = await page.getByTestId('model-api-id').allTextContents()
      expect(ids).toContain('embeddings-v3')
      expect(await page.getByRole('button', { name: /embeddings-v3/ }).count()).toBeGreaterThan(0)
      const { violations } = await new AxeBuilder({ page }).include('main').withTags(wcagTags).analyze()
      expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
      expect(problems).toEqual([])
      await context.close()
    }
  })
})
