import type { BrowserContext, BrowserContextOptions } from 'playwright-core'
import type { ServerEnv } from '../../../env'
import { onShutdown } from '../../../lifecycle'
import { errorFields, log } from '../../../log'
import { BrowserTimeSpent, PageNotRead } from '../../../domain/refusals'
import { DEFAULT_CHROMIUMS, chromiumPathOf, launchChromium, type BrowserSettings, type Running } from './launch'
import { PageSlots } from './slots'

export { chromiumPathOf, type BrowserSettings }

export function noBrowser(env: Pick<ServerEnv, 'CHROMIUM_PATH'>): PageNotRead {
  const where = env.CHROMIUM_PATH ?? DEFAULT_CHROMIUMS.join(' or ')
  return new PageNotRead(
    'no-browser',
    `The browser engine needs Chromium, and there is none at ${where}: install it (apt-get install chromium-headless-shell) or set CHROMIUM_PATH`,
  )
}

/** How long an unused browser stays up before it is closed (the next page starts one again). */
const IDLE_CLOSE_MS = 60_000

/**
 * How long after its deadline a page is stopped from outside: its own steps time out at the deadline with a
 * detail that says which step (`./render.ts`), and this stop holds when a step cannot (the page never answers).
 */
const STOP_GRACE_MS = 500

/** How long a context may take to close before its browser is killed instead (a renderer that never yields). */
const CLOSE_MS = 3000

/** What a page's render may ask of the pool while it runs. */
export interface PageTab {
  /** Why a page whose renderer crashed is refused: its memory when the watch killed it, else the crash. */
  crashRefusal(): PageNotRead
}

export interface ContextOptions {
  /** Whose browser time this is: `key:<id>`, or `address:<network>` without a key (undefined: internal use). */
  caller?: string
  /** That caller's browser seconds a minute (its key tier's); READER_BROWSER_SECONDS_PER_MINUTE overrides it. */
  secondsPerMinute?: number
  /** When the read's time is up (ms since the epoch): waiting for a slot and every step of the page count. */
  deadline: number
  /** The read's time, for the 504's detail. */
  timeoutSeconds: number
  signal?: AbortSignal
}

/** Resolves to undefined after `ms`. */
const after = (ms: number) =>
  new Promise<undefined>((resolve) => (setTimeout(resolve, ms) as unknown as { unref(): void }).unref())

/**
 * One Chromium process, started on first use, lending a fresh context (its own cookies, storage and cache)
 * to each page and closing it after: nothing one caller's page set is seen by another's. At most
 * READER_BROWSER_PAGES pages render at once, shared fairly between callers (`./slots.ts`); each runs until
 * its read's deadline or its caller's browser time, whichever comes first, and is then closed whatever it
 * is doing (its browser killed when it will not close), so the slot always comes back. While pages render,
 * their renderers' memory is watched and Chromium kept at a lower priority (`./processes.ts`). After
 * READER_BROWSER_RECYCLE_PAGES pages, or a minute unused, the process is closed (once its pages are done)
 * and the next page starts a new one.
 */
export class BrowserPool {
  private launched: Promise<Running> | undefined
  private rendered = 0
  private open = 0
  private idle: ReturnType<typeof setTimeout> | undefined
  private readonly slots: PageSlots

  constructor(
    private readonly settings: BrowserSettings,
    private readonly executablePath: string,
  ) {
    this.slots = new PageSlots({
      pages: settings.READER_BROWSER_PAGES,
      perCaller: settings.READER_BROWSER_PAGES_PER_CALLER ?? settings.READER_BROWSER_PAGES,
      budgetMs:
        settings.READER_BROWSER_SECONDS_PER_MINUTE === undefined
          ? undefined
          : settings.READER_BROWSER_SECONDS_PER_MINUTE * 1000,
    })
  }

  /** The largest screenshot stored (READER_SHOT_MAX_MB), in bytes. */
  get shotMaxBytes(): number {
    return (this.settings.READER_SHOT_MAX_MB ?? 32) * 1024 * 1024
  }

  /** Throws the 429 a browser read of `caller` would get now (its browser time used up), before anything is fetched. */
  refuseSpent(caller: string | undefined, secondsPerMinute?: number): void {
    this.slots.refuseSpent(caller, secondsPerMinute === undefined ? undefined : secondsPerMinute * 1000)
  }

  private launch(): Promise<Running> {
    const started = launchChromium(this.executablePath, this.settings, () => {
      if (this.launched === started) this.launched = undefined
    })
    started.catch(() => {
      if (this.launched === started) this.launched = undefined
    })
    return started
  }

  /**
   * Runs `use` with a new context of its own, within the page limit and the caller's share, until the
   * deadline or the caller's browser time (504, or 429 with when to retry); the context is closed after,
   * whatever happens, and the slot given back.
   */
  async withContext<T>(
    options: BrowserContextOptions,
    use: (context: BrowserContext, tab: PageTab) => Promise<T>,
    { caller, secondsPerMinute, deadline, timeoutSeconds, signal }: ContextOptions,
  ): Promise<T> {
    const budgetMs = secondsPerMinute === undefined ? undefined : secondsPerMinute * 1000
    const lease = await this.slots.take(caller, deadline, signal, budgetMs)
    clearTimeout(this.idle)
    this.open++
    const cutByBudget = lease.until < deadline
    let context: BrowserContext | undefined
    let running: Running | undefined
    let done = false
    const work = (async () => {
      this.launched ??= this.launch()
      running = await this.launched.catch((error: unknown) => {
        throw new PageNotRead('browser', 'The browser engine could not start', { cause: error })
      })
      running.watch.start()
      const opened = await running.browser.newContext({ ...options, serviceWorkers: 'block', acceptDownloads: false })
      if (done) {
        void opened.close().catch(() => undefined)
        throw new PageNotRead('timeout', `The page did not arrive within ${timeoutSeconds} s`)
      }
      context = opened
      // A window the page opens despite the flags is closed at once: only the page asked for renders.
      let first = true
      context.on('page', (page) => {
        if (first) first = false
        else void page.close().catch(() => undefined)
      })
      const watch = running.watch
      return use(context, {
        crashRefusal: () =>
          watch.killedWithin(5000)
            ? new PageNotRead(
                'too-large',
                `The page needed more than ${this.settings.READER_BROWSER_MEMORY_MB} MB in the browser, the reader's limit`,
              )
            : new PageNotRead('browser', 'The page crashed the browser engine'),
      })
    })()
    work.catch(() => undefined)
    let stop: (() => void) | undefined
    const stopped = new Promise<'time' | 'aborted'>((resolve) => {
      const stopAt = cutByBudget ? lease.until : deadline + STOP_GRACE_MS
      const timer = setTimeout(() => resolve('time'), Math.max(0, stopAt - Date.now()))
      const aborted = () => resolve('aborted')
      if (signal?.aborted) aborted()
      signal?.addEventListener('abort', aborted, { once: true })
      stop = () => {
        clearTimeout(timer)
        signal?.removeEventListener('abort', aborted)
      }
    })
    let outcome: { value: T } | 'time' | 'aborted'
    try {
      outcome = await Promise.race([work.then((value) => ({ value })), stopped])
    } finally {
      done = true
      stop?.()
      await this.dispose(context, running)
      this.open--
      this.rendered++
      lease.release()
      this.afterPage()
    }
    if (typeof outcome === 'object') return outcome.value
    if (outcome === 'aborted') throw signal?.reason
    if (cutByBudget) {
      this.slots.refuseSpent(caller, budgetMs)
      throw new BrowserTimeSpent(1, this.slots.budgetMsOf(budgetMs) / 1000)
    }
    throw new PageNotRead('timeout', `The page did not arrive within ${timeoutSeconds} s`)
  }

  /** Closes a page's context; one that does not close in CLOSE_MS (its renderer never yields) costs its browser. */
  private async dispose(context: BrowserContext | undefined, running: Running | undefined): Promise<void> {
    if (!context || !running) return
    const closed = await Promise.race([
      context.close().then(
        () => true,
        () => true,
      ),
      after(CLOSE_MS),
    ])
    if (closed) return
    log('warn', 'browser page did not close: its browser is killed')
    running.watch.killBrowser()
    void running.browser.close().catch(() => undefined)
    if (this.launched && (await this.launched.catch(() => undefined)) === running) this.launched = undefined
  }

  /** Recycles the process after its quota of pages, and closes it when nothing used it for a while. */
  private afterPage(): void {
    if (this.open > 0) return
    void this.launched
      ?.then(({ watch }) => {
        if (this.open === 0) watch.stop()
      })
      .catch(() => undefined)
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
    return this.launched !== undefined
  }

  async close(): Promise<void> {
    clearTimeout(this.idle)
    const running = this.launched
    this.launched = undefined
    await running?.then(({ browser }) => browser.close()).catch(() => undefined)
  }
}

let pool: { key: string; pool: BrowserPool } | undefined

/** The server's browser pool (one per process), or a 501 refusal naming CHROMIUM_PATH when there is no Chromium. */
export function browserPool(env: ServerEnv): BrowserPool {
  const path = chromiumPathOf(env)
  if (!path) throw noBrowser(env)
  const settings: BrowserSettings = {
    CHROMIUM_PATH: path,
    READER_BROWSER_PAGES: env.READER_BROWSER_PAGES,
    READER_BROWSER_PAGES_PER_CALLER: env.READER_BROWSER_PAGES_PER_CALLER,
    READER_BROWSER_SECONDS_PER_MINUTE: env.READER_BROWSER_SECONDS_PER_MINUTE,
    READER_BROWSER_MEMORY_MB: env.READER_BROWSER_MEMORY_MB,
    READER_BROWSER_RECYCLE_PAGES: env.READER_BROWSER_RECYCLE_PAGES,
    READER_SHOT_MAX_MB: env.READER_SHOT_MAX_MB,
  }
  // A new pool when the settings change (tests that share a process set their own).
  const key = JSON.stringify(settings)
  if (pool?.key !== key) {
    const previous = pool?.pool
    pool = { key, pool: new BrowserPool(settings, path) }
    void previous?.close()
    const current = pool.pool
    onShutdown(async () => {
      await current.close().catch((error: unknown) => log('warn', 'browser not closed', { error: errorFields(error) }))
    }, 'work')
  }
  return pool.pool
}
