import { existsSync } from 'node:fs'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { later } from './later'
import { useServer, type ServedBuild, type ServerStart } from './server'

/**
 * Debian's headless shell (`apt-get install chromium-headless-shell`, what Playwright itself runs headless) before
 * the full browser: the same engine without the desktop browser around it, which took half the processor time of
 * the route matrix in its browser and GPU processes.
 */
const headlessShell = '/usr/bin/chromium-headless-shell'
const fullBrowsers = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome']

/**
 * `painting`: for checks of when a page paints and when its runtime starts against that paint. They run in the
 * full browser, which schedules its frames as a visitor's does; the headless shell produces them on its own
 * schedule, and under load reported a first paint after scripts that the full browser runs after it.
 */
export async function launchBrowser({ painting = false } = {}): Promise<Browser> {
  const candidates = painting
    ? [process.env.CHROMIUM_PATH, ...fullBrowsers, headlessShell]
    : [process.env.CHROMIUM_PATH, headlessShell, ...fullBrowsers]
  const executablePath = candidates.find((path) => path && existsSync(path))
  if (!executablePath)
    throw new Error('Chromium not found: apt-get install -y chromium-headless-shell, or set CHROMIUM_PATH')
  return chromium.launch({
    executablePath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // Nothing but this machine resolves, so a stray request fails at once instead of hanging a test. Done by
      // the resolver rather than by routing every request through the test (which also turns the browser's
      // cache off, and with it the compiled-code cache: each page load compiled the whole runtime again).
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost',
    ],
  })
}

/**
 * The browser of a file (or of a describe block, when called in one), and its one line of setup: launched
 * before its tests, closed after them. Use it inside tests and later hooks (see `later`).
 */
export function useBrowser(options: Parameters<typeof launchBrowser>[0] = {}): Browser {
  const browser = later<Browser>('the browser')
  let launched: Browser | undefined
  beforeAll(async () => {
    launched = await launchBrowser(options)
    browser.set(launched)
  })
  afterAll(() => launched?.close())
  return browser.value
}

/**
 * A file that serves its own build and visits it: the server (serveAtOwnOrigin with `start`'s settings, or
 * what `start` returns) started first, then the browser; the browser closed first after the tests, then the
 * server stopped. One line: `const { browser, server } = useServedBrowser({ … })`.
 */
export function useServedBrowser(
  start: ServerStart = {},
  options: Parameters<typeof launchBrowser>[0] = {},
): { browser: Browser; server: ServedBuild } {
  const server = useServer(start)
  return { server, browser: useBrowser(options) }
}

export interface PageProblems {
  problems: string[]
}

/**
 * Records what a visitor's console would show: errors, React's hydration warnings, uncaught
 * exceptions, and any request that tries to leave this machine.
 */
export function watchPage(page: Page, baseUrl: string): PageProblems {
  const record: PageProblems = { problems: [] }
  const origin = new URL(baseUrl).origin
  page.on('console', (message) => {
    const text = message.text()
    // A failed resource's text does not name it; its location does.
    const where = /^Failed to load resource/.test(text) ? ` (${message.location().url})` : ''
    if (message.type() === 'error' || /hydrat/i.test(text))
      record.problems.push(`console.${message.type()}: ${text}${where}`)
  })
  page.on('pageerror', (error) => record.problems.push(`pageerror: ${error.message}`))
  page.on('request', (request) => {
    const url = request.url()
    if (/^(data|blob):/.test(url)) return
    if (new URL(url).origin !== origin) record.problems.push(`external request: ${url}`)
  })
  return record
}

/** A context whose local storage starts with the given user store (spec §3 key `user`). */
export async function contextWithStore(
  browser: Browser,
  store?: Record<string, unknown>,
  options: Parameters<Browser['newContext']>[0] = {},
  { everyLoad = false } = {},
): Promise<BrowserContext> {
  // A stray request to another host fails fast: the browser resolves no other (launchBrowser).
  const context = await browser.newContext(options)
  if (store) {
    // Seed once per tab, or before every load when one tab visits many pages that should not affect each other.
    await context.addInitScript(
      ([value, always]) => {
        if (always || !sessionStorage.getItem('__seeded')) {
          localStorage.setItem('user', value)
          sessionStorage.setItem('__seeded', '1')
        }
      },
      [JSON.stringify(store), everyLoad] as const,
    )
  }
  return context
}

/**
 * Waits until the client runtime runs. A prerendered page starts it on the visitor's first interaction, a live
 * one once the browser is idle after its first paint (app/server/http/deferred-runtime.ts), so unless it already
 * runs this makes one: a key press that changes nothing.
 */
export async function appRunning(page: Page, timeout?: number): Promise<void> {
  if ((await page.getAttribute('#app', 'data-mounted')) !== 'true') await page.keyboard.press('Shift')
  await page.waitForSelector('#app[data-mounted="true"]', { timeout })
}
