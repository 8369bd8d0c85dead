import { axe, wcagTags } from './support/axe'
import { solveChallenge, type Challenge } from 'altcha-lib'
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2'
import type { Page, Request } from 'playwright-core'
import { describe, expect, inject, it } from 'vitest'
import { curlArguments } from '../support/shell'
import { appRunning, contextWithStore, launchBrowser, watchPage, useBrowser } from './support/browser'
import { holdRequests } from './support/hold-requests'
import { overflowAt } from './support/overflow'
import { serveBuild, useServer } from './support/server'

const baseUrl = inject('baseUrl')
/** The global server's PUBLIC_API_BASE_URL: unset there, so its PUBLIC_BASE_URL (tests/e2e/support/global-setup.ts). */
const apiBaseUrl = process.env.E2E_PUBLIC_BASE_URL ?? 'http://localhost:3000'

interface Demo {
  page: string
  name: string
  path: string
  needsKey: boolean
  /** What a real answer to the first example shows. */
  expectResult: (page: Page) => Promise<void>
}

const demos: Demo[] = [
  {
    page: '/embeddings',
    name: 'embeddings',
    path: '/v1/embeddings',
    needsKey: true,
    async expectResult(page) {
      const cells = page.locator('[data-testid=similarity-matrix] td[data-value]')
      expect(await cells.count()).toBe(9)
      const value = async (i: number) => Number(await cells.nth(i).getAttribute('data-value'))
      // Row 1: the text itself, its paraphrase, an unrelated sentence.
      expect(await value(0)).toBeCloseTo(1, 5)
      expect(await value(1)).toBeGreaterThan(await value(2))
      expect(Number(await page.getByTestId('embeddings-dimensions').textContent())).toBeGreaterThan(0)
    },
  },
  {
    page: '/reranker',
    name: 'rerank',
    path: '/v1/rerank',
    needsKey: true,
    async expectResult(page) {
      // "Natural organic skincare range for sensitive skin" is document 2 (index 1) of the product example.
      const first = page.locator('[data-testid=rerank-results] > li').first()
      expect(await first.getAttribute('data-index')).toBe('1')
      expect(await page.locator('[data-testid=rerank-results] > li').count()).toBe(4)
    },
  },
  {
    page: '/segmenter',
    name: 'segment',
    path: '/v1/segment',
    needsKey: false,
    async expectResult(page) {
      expect(Number(await page.getByTestId('segment-count').getAttribute('data-value'))).toBeGreaterThan(0)
      expect(await page.locator('[data-testid=segment-chunks] > li').count()).toBeGreaterThan(1)
      expect(await page.locator('[data-testid=segment-chunks] [role=option]').count()).toBeGreaterThan(10)
    },
  },
  {
    page: '/classifier',
    name: 'classify',
    path: '/v1/classify',
    needsKey: true,
    async expectResult(page) {
      const predictions = await page.getByTestId('classify-prediction').allTextContents()
      // Each ticket goes to the label that describes it.
      expect(predictions).toEqual(['order shipping and delivery', 'account password and login', 'billing and charges'])
    },
  },
  {
    page: '/reader',
    name: 'reader',
    path: '/r',
    needsKey: false,
    async expectResult(page) {
      // The first example reads this site's own news post, through the reader, as Markdown.
      expect(await page.getByTestId('reader-title').textContent()).toContain('DeepSearch')
      expect(await page.getByTestId('reader-content').textContent()).toContain('## The loop')
      expect(Number(await page.getByTestId('reader-result').getAttribute('data-count'))).toBeGreaterThan(0)
    },
  },
  {
    page: '/deepsearch',
    name: 'deepsearch',
    path: '/v1/chat/completions',
    needsKey: true,
    async expectResult(page) {
      expect(await page.locator('[data-testid=think-steps] > li[data-kind=search]').count()).toBeGreaterThan(0)
      expect(await page.locator('[data-testid=think-steps] > li[data-kind=read]').count()).toBeGreaterThan(0)
      // The answer quotes its best source, which says it; each marker links to a listed source.
      expect(await page.getByTestId('citation-quote').first().textContent()).toContain('64')
      const markers = page.locator('[data-testid=cited-answer] sup a')
      expect(await markers.count()).toBeGreaterThan(0)
      const target = (await markers.first().getAttribute('href'))!
      expect(await page.locator(target).count()).toBe(1)
    },
  },
  {
    page: '/llm-serp-demo',
    name: 'serp',
    path: '/v1/chat/completions',
    needsKey: true,
    async expectResult(page) {
      const titles = await page.getByTestId('serp-title').allTextContents()
      expect(titles.length).toBeGreaterThan(0)
      expect(titles.join(' ')).toMatch(/Reranker/)
      expect(await page.getByTestId('cited-answer').textContent()).toMatch(/\S/)
    },
  },
]

/** The curl shown, and what a shell hands to curl for it. */
async function curlOf(page: Page): Promise<{ text: string; args: string[]; body: unknown }> {
  const text = (await page.getByTestId('demo-curl').textContent())!
  const args = curlArguments(text)
  return { text, args, body: JSON.parse(args[args.indexOf('-d') + 1]) }
}

/** Calls the page made to the search API, as they left the browser. */
function apiCalls(page: Page): Request[] {
  const calls: Request[] = []
  page.on('request', (request) => {
    if (/^\/(v1\/|r$)/.test(new URL(request.url()).pathname)) calls.push(request)
  })
  return calls
}

async function openDemo(page: Page, url: string, name: string) {
  await page.goto(url, { waitUntil: 'load' })
  await appRunning(page)
  await page.locator('#demo').scrollIntoViewIfNeeded()
  await page.getByTestId(`demo-${name}`).waitFor({ timeout: 15_000 })
}

async function runAndWait(page: Page) {
  await page.getByTestId('demo-run').click()
  await page.locator('[data-testid=demo-result]:is([data-status=done], [data-status=failed])').waitFor()
}

/** A key as a REST client gets one, the captcha solved here: `trial` (10M tokens) or `empty` (none). */
async function restKey(kind: 'trial' | 'empty'): Promise<string> {
  const challenge = await (await fetch(`${baseUrl}/api/v1/captcha/challenge?action=new_key`)).json()
  const solution = await solveChallenge({ challenge: challenge as Challenge, deriveKey })
  const captcha = Buffer.from(JSON.stringify({ challenge, solution })).toString('base64')
  const issued = await fetch(`${baseUrl}/api/v1/api_key/${kind}`, {
    method: 'POST',
    body: new URLSearchParams({ captcha }),
  })
  expect(issued.status).toBe(200)
  return ((await issued.json()) as { api_key: string }).api_key
}

describe('the live demos on the product pages', () => {
  const browser = useBrowser()

  for (const demo of demos) {
    it(`${demo.page}: from no key to a real answer and the curl that repeats it`, async () => {
      const context = await contextWithStore(browser, undefined, { viewport: { width: 1280, height: 900 } })
      const page = await context.newPage()
      const { problems } = watchPage(page, baseUrl)
      const calls = apiCalls(page)
      await openDemo(page, baseUrl + demo.page, demo.name)

      // enableAutoAPIRequest is off by default: nothing was sent.
      await page.waitForTimeout(500)
      expect(calls).toEqual([])
      expect(await page.getByTestId('demo-run').isDisabled()).toBe(demo.needsKey)

      let key: string | undefined
      if (demo.needsKey) {
        const offer = page.getByTestId('demo-no-key')
        await offer.getByRole('checkbox', { name: "I'm not a robot" }).click()
        await offer.locator('[data-testid=captcha][data-state=loaded]').waitFor({ timeout: 60_000 })
        await page.getByTestId('demo-get-trial-key').click()
        await page.locator('[data-testid=demo-key][data-has-key=true]').waitFor({ timeout: 30_000 })
        // Stored where the dashboard keeps it.
        key = await page.evaluate(() => JSON.parse(localStorage.getItem('user')!).apiKey as string)
        expect(key).toMatch(/^lds_/)
      }

      await runAndWait(page)
      expect(await page.getByTestId('demo-result').getAttribute('data-status')).toBe('done')
      expect(calls).toHaveLength(1)
      const sent = calls[0]
      expect(sent.method()).toBe('POST')
      expect(new URL(sent.url()).pathname).toBe(demo.path)
      expect(sent.headers().authorization).toBe(key ? `Bearer ${key}` : undefined)
      await demo.expectResult(page)
      // What the call cost: the segmenter is free, and says so (usage 0), as the original's does.
      const charged = Number(await page.getByTestId('demo-usage').getAttribute('data-value'))
      if (demo.name === 'segment') expect(charged).toBe(0)
      else expect(charged).toBeGreaterThan(0)

      // The curl names the public API base URL and carries exactly the body that was sent.
      const curl = await curlOf(page)
      expect(curl.args.slice(0, 3)).toEqual(['-X', 'POST', `${apiBaseUrl}${demo.path}`])
      expect(curl.body).toEqual(sent.postDataJSON())
      if (key) {
        // Masked until revealed.
        expect(curl.text).not.toContain(key)
        await page.getByRole('button', { name: 'Show key' }).click()
        expect((await curlOf(page)).args).toContain(`Authorization: Bearer ${key}`)
        // The dashboard shows the key taken here.
        await page.goto(`${baseUrl}/api-dashboard`)
        await page.getByTestId('balance').waitFor({ timeout: 30_000 })
        expect(await page.getByTestId('api-key').textContent()).toContain(key.slice(-4))
      } else {
        expect(curl.args.filter((arg) => arg.startsWith('Authorization'))).toEqual([])
      }

      expect(problems).toEqual([])
      await context.close()
    })
  }

  it('sends nothing on load unless enableAutoAPIRequest is on, and then runs the first example once', async () => {
    const apiKey = await restKey('trial')
    for (const enableAutoAPIRequest of [false, true]) {
      const context = await contextWithStore(browser, { apiKey, settings: { enableAutoAPIRequest } })
      const page = await context.newPage()
      const calls = apiCalls(page)
      await page.goto(`${baseUrl}/reranker`, { waitUntil: 'load' })
      await appRunning(page)
      if (enableAutoAPIRequest) {
        // Without scrolling: the setting alone loads the demo and sends the first example.
        await page.locator('[data-testid=demo-result][data-status=done]').waitFor({ timeout: 15_000 })
        await page.waitForTimeout(500)
        expect(calls.map((call) => call.postDataJSON().query)).toEqual(['Organic skincare products for sensitive skin'])
      } else {
        await page.locator('#demo').scrollIntoViewIfNeeded()
        await page.getByTestId('demo-rerank').waitFor()
        await page.waitForTimeout(1000)
        expect(calls).toEqual([])
        expect(await page.getByTestId('demo-result').getAttribute('data-status')).toBe('idle')
      }
      await context.close()
    }
  })

  it('explains a refused key, an exhausted balance and its billing, in the API’s own words', async () => {
    for (const [apiKey, kind, status] of [
      ['lds_not-a-key-0000000000000000000000', 'unauthorized', '401'],
      [await restKey('empty'), 'exhausted', '402'],
    ] as const) {
      const context = await contextWithStore(browser, { apiKey })
      const page = await context.newPage()
      await openDemo(page, `${baseUrl}/classifier`, 'classify')
      await runAndWait(page)
      const failure = page.getByTestId('demo-failure')
      expect(await failure.getAttribute('data-kind')).toBe(kind)
      expect(await failure.textContent()).toMatch(new RegExp(`^${status}: \\S`))
      if (kind === 'exhausted') {
        const billing = failure.getByRole('link')
        expect(await billing.getAttribute('href')).toBe('/api-dashboard/billing')
      }
      await context.close()
    }
  })

  it('holds its place: the demo is exactly as tall as the skeleton the page showed before it', async () => {
    const apiKey = await restKey('trial')
    const shifts: string[] = []
    // Each width and each locale is seen with a key and without, in six runs rather than all eighteen: the
    // skeleton's height follows the width and the text; the key only changes what the demo shows.
    const runs = [
      { store: undefined, width: 320, locale: '/ru' },
      { store: undefined, width: 768, locale: '/de' },
      { store: undefined, width: 1280, locale: '' },
      { store: { apiKey }, width: 320, locale: '/de' },
      { store: { apiKey }, width: 768, locale: '' },
      { store: { apiKey }, width: 1280, locale: '/ru' },
    ]
    // Each demo's own chunk, named after it (shared chunks such as use-demo-run are not held).
    const demoChunk = new RegExp(`/assets/(${demos.map((d) => d.name).join('|')})-demo-[\\w-]+\\.js$`)
    for (const { store, width, locale } of runs) {
      const context = await contextWithStore(browser, store, { viewport: { width, height: 800 } }, { everyLoad: true })
      const page = await context.newPage()
      // The demo's chunk is held back until the skeleton has been measured: paused in the browser's own request
      // interception for that one file, not routed through Playwright (which turns the whole cache off).
      const chunks = await holdRequests(page, '*-demo-*.js', demoChunk)
      for (const demo of demos) {
        chunks.holding = true
        await page.goto(baseUrl + locale + demo.page, { waitUntil: 'load' })
        await appRunning(page)
        await page.locator('#demo').scrollIntoViewIfNeeded()
        await expect.poll(() => chunks.held).toBe(1)
        const height = () => page.locator('[data-demo]').evaluate((e) => e.getBoundingClientRect().height)
        const skeleton = await height()
        await chunks.release()
        await page.getByTestId(`demo-${demo.name}`).waitFor()
        await page.getByTestId('demo-run').waitFor()
        const loaded = await height()
        if (Math.abs(loaded - skeleton) > 0.5)
          shifts.push(
            `${store ? 'key' : 'no key'}, ${width} px, ${locale || '/en'}${demo.page}: ${skeleton} → ${loaded}`,
          )
      }
      await context.close()
    }
    expect(shifts).toEqual([])
  })

  it('fits a phone in German and Russian, passes axe, light and dark', async () => {
    const apiKey = await restKey('trial')
    const failures: string[] = []
    for (const [locale, dark] of [
      ['de', false],
      ['ru', true],
    ] as const) {
      const context = await contextWithStore(browser, { apiKey, settings: { darkMode: dark } }, {}, { everyLoad: true })
      const page = await context.newPage()
      const { problems } = watchPage(page, baseUrl)
      for (const demo of demos) {
        const path = `/${locale}${demo.page}`
        await page.setViewportSize({ width: 320, height: 800 })
        await openDemo(page, baseUrl + path, demo.name)
        // Translated: the Run button does not read as the English source.
        expect(await page.getByTestId('demo-run').textContent()).not.toMatch(/^Run$/)
        await runAndWait(page)
        expect(await page.getByTestId('demo-result').getAttribute('data-status'), path).toBe('done')
        for (const width of [320, 390, 768, 1280]) {
          const overflow = await overflowAt(page, width)
          if (overflow) failures.push(`${path} at ${width}: ${overflow}`)
        }
        const { violations } = await axe(page, [...wcagTags, 'best-practice'], '#demo')
        for (const v of violations)
          failures.push(`${path}: axe ${v.id} (${v.impact}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
      }
      failures.push(...problems)
      await context.close()
    }
    expect(failures).toEqual([])
  })

  it('brings the answer into view on a phone when the visitor runs a demo', async () => {
    const context = await contextWithStore(browser, undefined, { viewport: { width: 390, height: 844 } })
    const page = await context.newPage()
    await openDemo(page, `${baseUrl}/segmenter`, 'segment')
    // The visitor scrolled just far enough to reach Run, at the bottom of the screen.
    await page
      .getByTestId('demo-run')
      .evaluate((run) => window.scrollBy(0, run.getBoundingClientRect().bottom - window.innerHeight + 16))
    const answerTop = () => page.getByTestId('demo-result').evaluate((e) => e.getBoundingClientRect().top)
    const height = await page.evaluate(() => window.innerHeight)
    // Below the form, under the fold: what the visitor would not see without scrolling.
    expect(await answerTop()).toBeGreaterThan(height)
    await runAndWait(page)
    // Smoothly scrolled: its top settles below the sticky header, in the upper part of the screen.
    await expect.poll(answerTop).toBeLessThan(height * 0.8)
    expect(await answerTop()).toBeGreaterThanOrEqual(0)
    expect(await page.getByTestId('demo-result').getAttribute('data-status')).toBe('done')
    await context.close()
  })

  it('shows the code blocks’ titles and buttons whole at 320 px in German and Russian', async () => {
    const apiKey = await restKey('trial')
    const clipped: string[] = []
    for (const locale of ['de', 'ru']) {
      const context = await contextWithStore(browser, { apiKey }, { viewport: { width: 320, height: 800 } })
      const page = await context.newPage()
      await openDemo(page, `${baseUrl}/${locale}/embeddings`, 'embeddings')
      for (const box of ['code-samples', 'demo-curl-box']) {
        // Both boxes clip what sticks out (rounded corners): a header wider than the box loses its end.
        const fit = await page.getByTestId(box).evaluate((element) => {
          const right = element.getBoundingClientRect().right
          const out = [...element.querySelectorAll('h3, button, [role=tab]')]
            .filter((part) => part.getBoundingClientRect().right > right + 0.5)
            .map((part) => part.textContent?.trim())
          return { scrollWidth: element.scrollWidth, clientWidth: element.clientWidth, out }
        })
        if (fit.scrollWidth > fit.clientWidth || fit.out.length)
          clipped.push(`/${locale} ${box}: ${fit.scrollWidth} > ${fit.clientWidth} px, cut: ${fit.out.join(', ')}`)
      }
      await context.close()
    }
    expect(clipped).toEqual([])
  })
})

describe('a server whose PUBLIC_API_BASE_URL differs from the build', () => {
  const otherApi = 'https://api.demos.example'
  const server = useServer(() =>
    serveBuild({ PUBLIC_BASE_URL: apiBaseUrl, PUBLIC_API_BASE_URL: otherApi, DATABASE_URL: '' }),
  )

  it('renders the product pages live, with its API base URL in the samples and the demo curl', async () => {
    const answer = await fetch(`${server.baseUrl}/segmenter`)
    expect(answer.headers.get('x-prerendered')).toBeNull()
    expect(await answer.text()).toContain(`${otherApi}/v1/segment`)
    const prerendered = await fetch(`${baseUrl}/segmenter`)
    expect(prerendered.headers.get('x-prerendered')).toBe('1')

    const browser = await launchBrowser()
    try {
      const page = await browser.newPage()
      await openDemo(page, `${server.baseUrl}/segmenter`, 'segment')
      expect((await curlOf(page)).args[2]).toBe(`${otherApi}/v1/segment`)
    } finally {
      await browser.close()
    }
  })
})
