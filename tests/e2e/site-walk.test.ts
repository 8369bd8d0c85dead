import type { Page } from 'playwright-core'
import { describe, expect, inject, it } from 'vitest'
import { docsEntries } from '#content/docs-index'
import { models } from '#content/models'
import { posts } from '#content/news'
import { interfaceLocales, localizePath } from '~/lib/locale'
import { curlArguments } from '../support/shell'
import { keyFrom } from '../support/trial-key'
import { submitSignIn } from './support/sign-in'
import { appRunning, contextWithStore, useBrowser } from './support/browser'

const baseUrl = inject('baseUrl')

/** The page's visible text, as a visitor reads it. */
const visibleText = (page: Page) => page.evaluate(() => document.body.innerText)

/** What a new visitor met on the site in issue 42's walk, each as that visitor would notice it. */
describe('the site, as a newcomer walks it', () => {
  const browser = useBrowser()

  it('says on the LLM SERP page that a search runs on the visitor’s key and costs tokens', async () => {
    const context = await contextWithStore(browser, undefined, { viewport: { width: 390, height: 844 } })
    const page = await context.newPage()
    for (const [path, said] of [
      ['/llm-serp-demo', /DeepSearch session on your API key, billed per token/],
      ['/de/llm-serp-demo', /DeepSearch-Sitzung mit Ihrem API-Schlüssel, abgerechnet pro Token/],
    ] as const) {
      await page.goto(baseUrl + path)
      const text = await visibleText(page)
      expect(text, path).toMatch(said)
      expect(text, path).not.toMatch(/no key and no tokens|kein Schlüssel und keine Token/i)
    }
    // And the panel asks for the key it runs on.
    await page.goto(`${baseUrl}/llm-serp-demo`)
    await appRunning(page)
    await page.locator('#demo').scrollIntoViewIfNeeded()
    await page.getByTestId('demo-no-key').waitFor({ timeout: 15_000 })
    await context.close()
  })

  it('lists fine-tuning and the LLM SERP demo in the products menu and the footer, in every language', async () => {
    const context = await contextWithStore(browser, undefined, { viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const missing: string[] = []
    for (const locale of interfaceLocales) {
      const home = localizePath('/', locale)
      await page.goto(baseUrl + home)
      await appRunning(page)
      // The first of the header's menus: Products, in whatever language.
      await page.locator('header nav button[aria-expanded]').first().click()
      for (const path of ['/fine-tuning', '/llm-serp-demo']) {
        const href = localizePath(path, locale)
        if (!(await page.locator(`header a[href="${href}"]`).first().isVisible())) missing.push(`${home} menu: ${href}`)
        if (!(await page.locator(`footer a[href="${href}"]`).count())) missing.push(`${home} footer: ${href}`)
      }
    }
    expect(missing).toEqual([])
    // On a phone, the menu button holds them too.
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto(`${baseUrl}/ru`)
    await appRunning(page)
    await page.locator('header nav').getByRole('button', { name: 'Меню' }).click()
    for (const href of ['/ru/fine-tuning', '/ru/llm-serp-demo'])
      expect(await page.locator(`header a[href="${href}"]`).first().isVisible(), href).toBe(true)
    await context.close()
  })

  it('names the key one way in every code sample: the API_KEY variable', async () => {
    const context = await contextWithStore(browser, undefined, { viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const pages = [
      '/',
      ...['/reader', '/embeddings', '/reranker', '/deepsearch', '/classifier', '/llm-serp-demo'],
      '/api-reference',
      ...docsEntries.map((entry) => `/docs/${entry.slug}`),
      ...posts.map((post) => `/news/${post.slug}`),
    ]
    // The shell's variable, and the same variable read in Python and JavaScript.
    const spellings = new Set(['$API_KEY', "{os.environ['API_KEY']}", '${process.env.API_KEY}'])
    const others: string[] = []
    for (const path of pages) {
      await page.goto(baseUrl + path)
      // Every tab of the product samples: each language names the key in its own way of reading a variable.
      const tabs = page.locator('[data-testid=code-samples] [role=tab]')
      const count = await tabs.count()
      if (count) await appRunning(page)
      const texts = [await visibleText(page)]
      for (let i = 1; i < count; i++) {
        await tabs.nth(i).click()
        texts.push((await page.getByTestId('code-samples').innerText())!)
      }
      for (const text of texts)
        for (const [, bearer] of text.matchAll(/Bearer (\{os\.environ\['API_KEY'\]\}|[^\s"'`]+)/g))
          // A word after it is prose ("the `Authorization: Bearer` header"), not a key.
          // An admin key is another credential, named as its own variable on the Administration API's page.
          if (
            !spellings.has(bearer!) &&
            bearer !== '$USAGE_SERVICE_TOKEN' &&
            !(path.endsWith('/docs/admin-api') && /^\$ADMIN_KEY[.,]?$/.test(bearer!)) &&
            !/^[a-z]+$/.test(bearer!)
          )
            others.push(`${path}: Bearer ${bearer}`)
      if (/YOUR_API_KEY|<key>|<api[_-]key>/i.test(texts.join('\n'))) others.push(`${path}: a placeholder key`)
    }
    expect(others).toEqual([])
    await context.close()
  })

  it('runs the embeddings page’s own sample and first demo on the default engine with no option left unapplied', async () => {
    const apiKey = await keyFrom(baseUrl)
    const context = await contextWithStore(browser, undefined, { viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    await page.goto(`${baseUrl}/embeddings`)
    await appRunning(page)
    await page.locator('#demo').scrollIntoViewIfNeeded()
    await page.getByTestId('demo-embeddings').waitFor({ timeout: 15_000 })
    const commands = {
      sample: (await page.getByTestId('code-samples').locator('pre').innerText())!,
      demo: (await page.getByTestId('demo-curl').innerText())!,
    }
    for (const [which, command] of Object.entries(commands)) {
      const args = curlArguments(command.replaceAll('$API_KEY', apiKey))
      const body = args[args.indexOf('-d') + 1]!
      expect(JSON.parse(body), which).not.toHaveProperty('task')
      const answer = await fetch(`${baseUrl}/v1/embeddings`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body,
      })
      expect(answer.status, which).toBe(200)
      expect(answer.headers.get('x-options-not-applied'), which).toBeNull()
      await answer.arrayBuffer()
    }
    await context.close()
  })

  it('shows the API reference’s own headings and controls in the reader’s language, without internal routes', async () => {
    const context = await contextWithStore(browser, undefined, { viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    /** Text of the page's own that is English: outside descriptions marked English, code and the API's names. */
    const englishOfItsOwn = () =>
      page.evaluate(() => {
        const found = new Set<string>()
        const walker = document.createTreeWalker(document.querySelector('main')!, NodeFilter.SHOW_TEXT)
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const text = node.textContent!.trim()
          const inside = node.parentElement!.closest('[lang=en], code, pre, [translate=no], .font-mono')
          if (!inside && /[A-Za-z]{3}/.test(text)) found.add(text)
        }
        return [...found]
      })
    // Names that stay as they are in every language.
    const names = /^(Lodestar AI|OpenAPI|CAPTCHA|API|JSON|curl|Cookie)$/
    for (const locale of ['ja', 'ru'] as const) {
      await page.goto(`${baseUrl}/${locale}/api-reference`)
      await appRunning(page)
      const ascii = (await englishOfItsOwn()).filter((text) => /^[\x20-\x7e]+$/.test(text) && !names.test(text))
      expect(ascii, locale).toEqual([])
      expect(await page.content(), locale).not.toContain('/internal/v1/usage')
    }
    // German shares the alphabet: none of the page's own English words is left.
    await page.goto(`${baseUrl}/de/api-reference`)
    await appRunning(page)
    const own = new Set(await englishOfItsOwn())
    const english = ['Getting started', 'Show parameters, responses and an example', 'Responses', 'Example']
    english.push('Request body', 'Authentication:', 'Description', 'Required', 'Property', 'Type')
    // ("Status" and "optional" are German words too.)
    english.push('header', 'query', 'path', 'required', 'On this page')
    expect(english.filter((text) => own.has(text))).toEqual([])
    expect(await page.content()).not.toContain('/internal/v1/usage')
    await context.close()
  })

  it('shows every model’s banner title whole, wrapped rather than cut, at 320, 390 and 1280 px in en, de and ru', async () => {
    // The artwork carries no text of its own any more: only the page's text can be cut, and it wraps.
    for (const model of models) {
      const svg = await (await fetch(baseUrl + model.image)).text()
      expect(svg, model.image).not.toContain('<text')
    }
    const context = await contextWithStore(browser, undefined, { viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const cut: string[] = []
    for (const locale of ['en-US', 'de', 'ru'] as const)
      for (const path of ['/models', '/models/embeddings-v4', '/models/reranker-v2-base-multilingual']) {
        const url = baseUrl + localizePath(path, locale)
        for (const width of [320, 390, 1280]) {
          await page.setViewportSize({ width, height: 900 })
          await page.goto(url)
          await page.evaluate(() => document.fonts.ready)
          const banners = await page.evaluate(() =>
            [...document.querySelectorAll('[data-testid=model-banner]')].map((banner) => {
              const title = banner.querySelector<HTMLElement>('[data-testid=model-banner-title]')!
              const box = banner.getBoundingClientRect()
              const text = title.getBoundingClientRect()
              return {
                name: title.textContent,
                inside:
                  text.top >= box.top - 0.5 &&
                  text.bottom <= box.bottom + 0.5 &&
                  text.left >= box.left - 0.5 &&
                  text.right <= box.right + 0.5 &&
                  box.right <= document.documentElement.clientWidth + 0.5,
                overflowing: title.scrollWidth > title.clientWidth + 1 || title.scrollHeight > title.clientHeight + 1,
              }
            }),
          )
          expect(banners.length, url).toBeGreaterThan(0)
          for (const banner of banners)
            if (!banner.inside || banner.overflowing) cut.push(`${url} at ${width} px: ${banner.name}`)
        }
      }
    expect(cut).toEqual([])
    await context.close()
  })

  it('shows a sign-up’s verification code on the sign-in page when e-mail stays on the machine, and its link verifies', async () => {
    const email = `local-mail-${Date.now()}@example.com`
    const password = 'local mail password 1'
    const context = await contextWithStore(browser, undefined, { viewport: { width: 390, height: 844 } })
    const page = await context.newPage()
    await page.goto(`${baseUrl}/sign-in`)
    await appRunning(page)
    const mailbox = page.getByTestId('local-mailbox')
    await mailbox.waitFor()
    expect(await mailbox.textContent()).toContain('no e-mail is sent')
    await page.getByTestId('auth-mode-sign-up').click()
    const signUp = page.getByTestId('sign-up-form')
    await signUp.getByLabel('E-mail').fill(email)
    await signUp.getByLabel('Password').fill(password)
    await signUp.getByRole('button', { name: 'Create account' }).click()
    // The code arrives in the list by itself, named by its address.
    const mail = mailbox.getByTestId('local-mail').filter({ hasText: email })
    await mail.waitFor({ timeout: 15_000 })
    expect(await mail.textContent()).toContain('Verification code')
    expect((await mail.getByTestId('local-mail-code').textContent())!.length).toBeGreaterThan(10)
    await mail.getByRole('link', { name: 'Open the link from this e-mail' }).click()
    await page.getByText('Your e-mail address is verified.').waitFor({ timeout: 30_000 })

    // Signed in, the Account tab says so.
    await page.goto(`${baseUrl}/sign-in`)
    await appRunning(page)
    await submitSignIn(page, email, password)
    await page.goto(`${baseUrl}/api-dashboard/account`)
    await page.getByTestId('email-verified').waitFor({ timeout: 30_000 })
    await context.close()
  })
})
