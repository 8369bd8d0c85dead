import type { Frame, Page } from 'playwright-core'
import type { respondTimings } from '~/contracts/reader'
import { PageNotRead } from '../../../domain/refusals'
import type { FetchLimits, Outgoing } from '../fetcher'
import { fetchResource, type FetchedResource } from '../node-fetch'
import type { BrowserPool } from './chromium'
import { guardContext, type GuardLog } from './guard'
import { pageshotArea, screenArea, screenshotOf } from './screenshots'
import { serializeWithShadowRoots } from './serialize'

/** When the page counts as ready (`X-Respond-Timing`), as the original reader names the moments. */
export type RespondTiming = (typeof respondTimings)[number]

export interface RenderOptions {
  waitForSelector?: string
  /** Waited for too (the page is converted once it shows, or when the time is up). */
  targetSelector?: string
  timing?: RespondTiming
  locale?: string
  userAgent?: string
  referer?: string
  /** `name=value` pairs, set for the page's own origin only. */
  cookies?: Array<{ name: string; value: string }>
  withIframes?: boolean
  withShadowDom?: boolean
  viewport?: { width: number; height: number }
  /** A caller's script, run in the page before its own (only when the server allows it). */
  pageScript?: string
  screenshot?: boolean
  pageshot?: boolean
}

export interface RenderedPage {
  /** Where the page was found, after redirects. */
  url: string
  /** The HTML as the browser holds it once ready (undefined when the document is not HTML). */
  html?: string
  /** The document itself when it is not HTML (a PDF, text, JSON): converted as the direct engine would. */
  resource?: FetchedResource
  screenshot?: Buffer
  pageshot?: Buffer
  guard?: GuardLog
}

const DEFAULT_VIEWPORT = { width: 1024, height: 1024 }

const isHtml = (resource: FetchedResource) =>
  /^(text\/html|application\/xhtml\+xml)\b/i.test(resource.headers['content-type'] ?? 'text/html')

/**
 * Renders a page in a fresh browser context of `pool`: the document is fetched first (with the reader's
 * address rules, so its type and final URL are known), then shown in Chromium, every further request going
 * through `guardContext`. Answers the HTML once the page is ready (its iframes and shadow roots inlined when
 * asked), and the screenshots asked for. Everything, from the fetch to the last screenshot and the wait for
 * a free page before them, runs within the read's time (`limits.timeoutMs`); `caller` is whose browser time
 * it is, `secondsPerMinute` how much of it the caller has (`./slots.ts`). A page whose renderer crashes (killed past its memory) is refused for it.
 */
export async function renderPage(
  pool: BrowserPool,
  url: URL,
  options: RenderOptions,
  limits: FetchLimits,
  outgoing: Outgoing = {},
  caller?: string,
  { secondsPerMinute }: { secondsPerMinute?: number } = {},
): Promise<RenderedPage> {
  const deadline = Date.now() + limits.timeoutMs
  pool.refuseSpent(caller, secondsPerMinute)
  const document = await fetchResource(url, limits, outgoing)
  if (document.status < 200 || document.status > 299)
    throw new PageNotRead('status', `The page answered HTTP ${document.status}`)
  if (!isHtml(document)) return { url: document.url, resource: document }
  // Playwright reads a timeout of 0 as none at all: a step always gets at least a millisecond.
  const remaining = () => Math.max(1, deadline - Date.now())
  const viewport = options.viewport ?? DEFAULT_VIEWPORT
  return pool.withContext(
    {
      viewport,
      locale: options.locale,
      userAgent: options.userAgent ?? outgoing.headers?.['user-agent'],
      extraHTTPHeaders: outgoing.headers?.dnt ? { dnt: '1' } : undefined,
    },
    async (context, tab) => {
      const guard = await guardContext(context, limits, document)
      if (options.cookies?.length)
        await context.addCookies(options.cookies.map(({ name, value }) => ({ name, value, url: document.url })))
      if (options.pageScript) await context.addInitScript({ content: options.pageScript })
      const page = await context.newPage()
      page.on('download', (download) => void download.cancel().catch(() => undefined))
      page.on('dialog', (dialog) => void dialog.dismiss().catch(() => undefined))
      // A crashed renderer fails the step under way with its own words: the page is refused for the crash.
      const crashed = new Promise<never>((_, reject) => page.once('crash', () => reject(tab.crashRefusal())))
      crashed.catch(() => undefined)
      const orCrash = (error: unknown) => {
        throw isCrash(error) ? tab.crashRefusal() : error
      }
      const steps = async (): Promise<RenderedPage> => {
        try {
          await page.goto(document.url, {
            waitUntil: waitUntilOf(options.timing),
            timeout: remaining(),
            referer: options.referer ?? outgoing.headers?.referer,
          })
        } catch (error) {
          throw timeoutOr(error, limits, 'The page did not load')
        }
        await settle(page, options, remaining)
        if (options.withIframes) await inlineFrames(page.mainFrame(), remaining)
        const html = options.withShadowDom ? await page.evaluate(serializeWithShadowRoots) : await page.content()
        const rendered: RenderedPage = { url: page.url(), html, guard }
        if (options.screenshot)
          rendered.screenshot = await screenshotOf(page, await screenArea(page, viewport), pool.shotMaxBytes)
        if (options.pageshot)
          rendered.pageshot = await screenshotOf(page, await pageshotArea(page, viewport.width), pool.shotMaxBytes)
        return rendered
      }
      return Promise.race([steps().catch(orCrash), crashed])
    },
    { caller, secondsPerMinute, deadline, timeoutSeconds: limits.timeoutMs / 1000, signal: limits.signal },
  )
}

function waitUntilOf(timing: RespondTiming | undefined): 'commit' | 'domcontentloaded' | 'load' | 'networkidle' {
  switch (timing) {
    case 'html':
      return 'commit'
    case 'visible-content':
      return 'domcontentloaded'
    case 'network-idle':
    case 'media-idle':
      return 'networkidle'
    default:
      return 'load'
  }
}

/**
 * After the load event: the selectors the caller waits for, then (unless the caller asked for the HTML as
 * it arrived) a short quiet spell, so content a script inserts after loading is there.
 */
async function settle(page: Page, options: RenderOptions, remaining: () => number): Promise<void> {
  if (options.waitForSelector) {
    try {
      await page.waitForSelector(options.waitForSelector, { state: 'attached', timeout: remaining() })
    } catch (error) {
      if (isCrash(error)) throw error
      throw new PageNotRead(
        isTimeout(error) ? 'timeout' : 'selector',
        isTimeout(error)
          ? `No element matched X-Wait-For-Selector within the page's time`
          : 'X-Wait-For-Selector is not a valid CSS selector',
      )
    }
  }
  if (options.targetSelector)
    // Converted whether it shows or not: the conversion then says it matched nothing.
    await page
      .waitForSelector(options.targetSelector, { state: 'attached', timeout: remaining() })
      .catch(() => undefined)
  if (options.timing === 'html' || options.timing === 'visible-content') return
  const quiet = Math.min(options.timing === 'mutation-idle' ? 1500 : 500, remaining())
  await page.waitForLoadState('networkidle', { timeout: quiet }).catch(() => undefined)
}

/** Frames worth reading: documents the guard let load (a refused frame shows Chromium's error page). */
const readableFrame = (frame: Frame) => /^(https?:|about:srcdoc|data:)/.test(frame.url())

/** Resolves to undefined after `ms`, so one frame that never answers cannot hold the page. */
const within = <T>(ms: number, work: Promise<T>): Promise<T | undefined> =>
  Promise.race([
    work,
    new Promise<undefined>((resolve) => (setTimeout(resolve, ms) as unknown as { unref(): void }).unref()),
  ])

/** Replaces each iframe by its document's body (deepest first), so a page's framed content is read as part of it. */
async function inlineFrames(frame: Frame, remaining: () => number): Promise<void> {
  for (const child of frame.childFrames()) {
    if (!readableFrame(child)) continue
    await inlineFrames(child, remaining)
    const budget = Math.min(2000, remaining())
    await within(
      budget,
      (async () => {
        const body = await child.evaluate(() => document.body?.innerHTML ?? '')
        const element = await child.frameElement()
        await element.evaluate((iframe: Element, html: string) => {
          const div = document.createElement('div')
          div.setAttribute('data-iframe', iframe.getAttribute('src') ?? '')
          div.innerHTML = html
          iframe.replaceWith(div)
        }, body)
      })(),
    ).catch(() => undefined) // a frame that went away has nothing to add
  }
}

const isTimeout = (error: unknown) => (error as Error)?.name === 'TimeoutError'
const isCrash = (error: unknown) => /crash/i.test((error as Error)?.message ?? '')

function timeoutOr(error: unknown, limits: FetchLimits, what: string): Error {
  if (error instanceof PageNotRead || isCrash(error)) return error as Error
  if (isTimeout(error)) return new PageNotRead('timeout', `The page did not arrive within ${limits.timeoutMs / 1000} s`)
  return new PageNotRead('browser', `${what} in the browser`, { cause: error })
}
