import { existsSync } from 'node:fs'
import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright-core'
import type { ServerEnv } from '../../../env'
import { onShutdown } from '../../../lifecycle'
import { errorFields, log } from '../../../log'
import { PageNotRead } from '../../../domain/refusals'

/**
 * Where Debian puts Chromium when CHROMIUM_PATH is unset: its headless shell first (`apt-get install
 * chromium-headless-shell`, the engine without the desktop browser around it, which renders the same pages for
 * about two thirds of the processor time), then the full browser (`apt-get install chromium`).
 */
const DEFAULT_CHROMIUMS = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium']

/** How long an unused browser stays up before it is closed (the next page starts one again). */
const IDLE_CLOSE_MS = 60_000

export type BrowserSettings = Pick<
  ServerEnv,
  'CHROMIUM_PATH' | 'READER_BROWSER_PAGES' | 'READER_BROWSER_MEMORY_MB' | 'READER_BROWSER_RECYCLE_PAGES'
>

/** The Chromium this server would start, or undefined when there is none (the browser options then answer 501). */
export function chromiumPathOf(env: Pick<ServerEnv, 'CHROMIUM_PATH'>): string | undefined {
  return (env.CHROMIUM_PATH ? [env.CHROMIUM_PATH] : DEFAULT_CHROMIUMS).find((path) => existsSync(path))
}

export function noBrowser(env: Pick<ServerEnv, 'CHROMIUM_PATH'>): PageNotRead {
  const where = env.CHROMIUM_PATH ?? DEFAULT_CHROMIUMS.join(' or ')
  return new PageNotRead(
    'no-browser',
    `The browser engine needs Chromium, and there is none at ${where}: install it (apt-get install chromium-headless-shell) or set CHROMIUM_PATH`,
  )
}

/**
 * The flags every launch gets. The host resolver answers no name and no address, so Chromium itself can
 * reach nothing: every request a page makes is fulfilled by the reader (`./guard.ts`), with the reader's
 * address rules, or fails. The rest keep a headless browser from calling home.
 */
function launchArgs(memoryMb: number): string[] {
  return [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-dev-shm-usage',
    '--host-resolver-rules=MAP * ~NOTFOUND',
    `--js-flags=--max-old-space-size=${memoryMb}`,
  ]
}

/** A waiting line for the page slots: first come, first served. */
class Slots {
  private free: number
  private readonly waiting: Array<() => void> = []
  constructor(size: number) {
    this.free = size
  }
  async take(signal?: AbortSignal): Promise<void> {
    if (this.free > 0) {
      this.free--
      return
    }
    await new Promise<void>((resolve, reject) => {
      const ready = () => {
        signal?.removeEventListener('abort', gone)
        resolve()
      }
      const gone = () => {
        this.waiting.splice(this.waiting.indexOf(ready), 1)
        reject(signal?.reason)
      }
      this.waiting.push(ready)
      signal?.addEventListener('abort', gone, { once: true })
    })
  }
  give(): void {
    const next = this.waiting.shift()
    if (next) next()
    else this.free++
  }
}

/**
 * One Chromium process, started on first use, lending a fresh context (its own cookies, storage and cache)
 * to each page and closing it after: nothing one caller's page set is seen by another's. At most
 * READER_BROWSER_PAGES pages render at once; after READER_BROWSER_RECYCLE_PAGES pages, or a minute unused,
 * the process is closed (once its pages are done) and the next page starts a new one.
 */
export class BrowserPool {
  private browser: Promise<Browser> | undefined
  private rendered = 0
  private open = 0
  private idle: ReturnType<typeof setTimeout> | undefined
  private readonly slots: Slots

  constructor(
    private readonly settings: BrowserSettings,
    private readonly executablePath: string,
  ) {
    this.slots = new Slots(settings.READER_BROWSER_PAGES)
  }

  private launch(): Promise<Browser> {
    const started = import('playwright-core').then(({ chromium }) =>
      chromium.launch({
        executablePath: this.executablePath,
        args: launchArgs(this.settings.READER_BROWSER_MEMORY_MB),
        // Playwright's own defaults would add --headless=new etc.; the flags above are all it needs.
        headless: true,
      }),
    )
    started.then(
      (browser) =>
        browser.on('disconnected', () => {
          if (this.browser === started) this.browser = undefined
        }),
      () => {
        if (this.browser === started) this.browser = undefined
      },
    )
    return started
  }

  /** Runs `use` with a new context of its own, within the page limit; the context is closed after, whatever happens. */
  async withContext<T>(
    options: BrowserContextOptions,
    use: (context: BrowserContext) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    await this.slots.take(signal)
    clearTimeout(this.idle)
    this.open++
    let context: BrowserContext | undefined
    try {
      this.browser ??= this.launch()
      const browser = await this.browser.catch((error: unknown) => {
        throw new PageNotRead('browser', 'The browser engine could not start', { cause: error })
      })
      context = await browser.newContext({ ...options, serviceWorkers: 'block', acceptDownloads: false })
      return await use(context)
    } finally {
      await context?.close().catch(() => undefined)
      this.open--
      this.rendered++
      this.slots.give()
      this.afterPage()
    }
  }

  /** Recycles the process after its quota of pages, and closes it when nothing used it for a while. */
  private afterPage(): void {
    if (this.open > 0) return
    if (this.rendered >= this.settings.READER_BROWSER_RECYCLE_PAGES) {
      this.rendered = 0
      void this.close()
      return
    }
    this.idle = setTimeout(() => void this.close(), IDLE_CLOSE_MS)
    this.idle.unref()
  }

  /** Whether a Chromium process is up right now (for the benchmarks and tests). */
  get running(): boolean {
    return this.browser !== undefined
  }

  async close(): Promise<void> {
    clearTimeout(this.idle)
    const browser = this.browser
    this.browser = undefined
    await browser?.then((b) => b.close()).catch(() => undefined)
  }
}

let pool: { path: string; pool: BrowserPool } | undefined

/** The server's browser pool (one per process), or a 501 refusal naming CHROMIUM_PATH when there is no Chromium. */
export function browserPool(env: ServerEnv): BrowserPool {
  const path = chromiumPathOf(env)
  if (!path) throw noBrowser(env)
  if (pool?.path !== path) {
    const previous = pool?.pool
    pool = { path, pool: new BrowserPool(env, path) }
    void previous?.close()
    const current = pool.pool
    onShutdown(async () => {
      await current.close().catch((error: unknown) => log('warn', 'browser not closed', { error: errorFields(error) }))
    }, 'work')
  }
  return pool.pool
}
