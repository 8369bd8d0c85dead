import { BrowserTimeSpent, PageNotRead } from '../../../domain/refusals'

/** The window browser time is counted over. */
export const BROWSER_TIME_WINDOW_MS = 60_000

export interface SlotLimits {
  /** Pages rendered at once (READER_BROWSER_PAGES). */
  pages: number
  /** Pages one caller renders at once (READER_BROWSER_PAGES_PER_CALLER); the rest of its reads wait. */
  perCaller: number
  /**
   * Browser time every caller may use per minute, in ms (READER_BROWSER_SECONDS_PER_MINUTE), whatever its own
   * budget; unset, each caller has the budget its read names (its key tier's), and one naming none no limit.
   */
  budgetMs?: number
}

/** Reads one caller may have waiting for a page slot before more are refused with 429. */
export const MAX_WAITING_PER_CALLER = 8

/** A page slot held: `until` is when the caller's browser time runs out (Infinity for an unnamed caller). */
export interface Lease {
  until: number
  release(): void
}

interface Waiter {
  caller: string | undefined
  arrived: number
  grant: () => void
}

/** What one caller used: spans that ended within the window, and the start of each page it renders now. */
interface Usage {
  ended: Array<{ at: number; ms: number }>
  running: number[]
  waiting: number
  /** The caller's browser time a minute, as its last read named it. */
  budgetMs: number
}

/**
 * The browser's page slots, shared fairly between callers (an API key, or a client address without one):
 * a caller renders at most `perCaller` pages at once and its budget of browser time a minute (a page is cut
 * when its caller's time runs out, and a caller with none left is refused with 429 and when to retry). A
 * freed slot goes to the waiting read whose caller renders the fewest pages now, then used the least time,
 * then came first; so however many reads two callers send, a third's waits at most until one of their
 * pages ends, which their budget bounds. A read waits no longer than its own deadline (then 504).
 * Reads without a caller (internal use) are limited by the slots only.
 */
export class PageSlots {
  private free: number
  private readonly waiting: Waiter[] = []
  private readonly usage = new Map<string, Usage>()
  private releases = 0

  constructor(
    private readonly limits: SlotLimits,
    private readonly now: () => number = Date.now,
  ) {
    this.free = limits.pages
  }

  /** The browser time a minute of a caller whose read names `own` (ms): the server's override, else its own. */
  budgetMsOf(own: number | undefined): number {
    return this.limits.budgetMs ?? own ?? Infinity
  }

  /** Throws the 429 a read of `caller` would get now, before anything is fetched for it. */
  refuseSpent(caller: string | undefined, budgetMs?: number): void {
    if (caller === undefined) return
    const usage = this.usage.get(caller)
    if (!usage) return
    if (budgetMs !== undefined) usage.budgetMs = this.budgetMsOf(budgetMs)
    const retryMs = this.retryMs(caller)
    if (retryMs > 0) throw new BrowserTimeSpent(retryMs / 1000, usage.budgetMs / 1000)
  }

  /**
   * A slot for `caller` (whose browser time a minute is `budgetMs`), once one is free and it is its turn; 504
   * at `deadline`, the signal's reason when aborted.
   */
  async take(caller: string | undefined, deadline: number, signal?: AbortSignal, budgetMs?: number): Promise<Lease> {
    signal?.throwIfAborted()
    this.refuseSpent(caller, budgetMs)
    const usage = caller === undefined ? undefined : this.usageOf(caller, budgetMs)
    if (usage && usage.waiting >= MAX_WAITING_PER_CALLER)
      throw new BrowserTimeSpent(1, usage.budgetMs / 1000, 'waiting')
    if (usage) usage.waiting++
    try {
      await new Promise<void>((resolve, reject) => {
        const leave = (error: unknown) => {
          const at = this.waiting.indexOf(waiter)
          if (at < 0) return
          this.waiting.splice(at, 1)
          clearTimeout(timer)
          signal?.removeEventListener('abort', aborted)
          reject(error)
        }
        const aborted = () => leave(signal?.reason)
        const timer = setTimeout(
          () =>
            leave(
              new PageNotRead(
                'timeout',
                "The browser engine had no free page within the read's time (X-Timeout); try again later",
              ),
            ),
          Math.max(0, deadline - this.now()),
        )
        const waiter: Waiter = {
          caller,
          arrived: this.now(),
          grant: () => {
            clearTimeout(timer)
            signal?.removeEventListener('abort', aborted)
            resolve()
          },
        }
        signal?.addEventListener('abort', aborted, { once: true })
        this.waiting.push(waiter)
        this.dispatch()
      })
    } finally {
      if (usage) usage.waiting--
    }
    // Its time may have run out while it waited.
    const retryMs = caller === undefined ? 0 : this.retryMs(caller)
    if (retryMs > 0) {
      this.free++
      this.dispatch()
      throw new BrowserTimeSpent(retryMs / 1000, this.usageOf(caller!).budgetMs / 1000)
    }
    return this.lease(caller)
  }

  /** The slot `dispatch` gave `caller`, now counted as its. */
  private lease(caller: string | undefined): Lease {
    const started = this.now()
    const usage = caller === undefined ? undefined : this.usageOf(caller)
    usage?.running.push(started)
    let released = false
    return {
      until: usage ? started + Math.max(0, usage.budgetMs - this.usedMs(usage, started)) : Infinity,
      release: () => {
        if (released) return
        released = true
        if (usage) {
          usage.running.splice(usage.running.indexOf(started), 1)
          usage.ended.push({ at: this.now(), ms: this.now() - started })
        }
        this.free++
        if (++this.releases % 100 === 0) this.prune()
        this.dispatch()
      },
    }
  }

  /** Gives free slots to the waiting reads whose turn it is. */
  private dispatch(): void {
    while (this.free > 0) {
      let best: Waiter | undefined
      let bestRank: number[] = []
      for (const waiter of this.waiting) {
        if (!this.mayStart(waiter.caller)) continue
        const usage = waiter.caller === undefined ? undefined : this.usageOf(waiter.caller)
        const rank = [usage?.running.length ?? 0, usage ? this.usedMs(usage, this.now()) : 0, waiter.arrived]
        if (!best || compare(rank, bestRank) < 0) {
          best = waiter
          bestRank = rank
        }
      }
      if (!best) return
      this.waiting.splice(this.waiting.indexOf(best), 1)
      this.free--
      best.grant()
    }
  }

  private mayStart(caller: string | undefined): boolean {
    if (caller === undefined) return true
    return this.usageOf(caller).running.length < this.limits.perCaller
  }

  private usageOf(caller: string, budgetMs?: number): Usage {
    let usage = this.usage.get(caller)
    if (!usage) {
      usage = { ended: [], running: [], waiting: 0, budgetMs: this.budgetMsOf(budgetMs) }
      this.usage.set(caller, usage)
    } else if (budgetMs !== undefined) usage.budgetMs = this.budgetMsOf(budgetMs)
    return usage
  }

  /** Browser time `usage` counts at `at`: spans that ended within the window, and the pages still running. */
  private usedMs(usage: Usage, at: number): number {
    while (usage.ended.length && usage.ended[0].at <= at - BROWSER_TIME_WINDOW_MS) usage.ended.shift()
    let used = 0
    for (const span of usage.ended) used += span.ms
    for (const started of usage.running) used += at - started
    return used
  }

  /** How long until `caller` has browser time again (0: it has some now). */
  private retryMs(caller: string): number {
    const usage = this.usage.get(caller)
    if (!usage) return 0
    const now = this.now()
    let over = this.usedMs(usage, now) - usage.budgetMs
    if (over < 0) return 0
    // The oldest spans leave the window first; the caller may start again once enough of them have.
    for (const span of usage.ended) {
      over -= span.ms
      if (over < 0) return Math.max(1000, span.at + BROWSER_TIME_WINDOW_MS - now)
    }
    // Its running pages alone use it up: they end by then, and their spans leave the window a minute later.
    return BROWSER_TIME_WINDOW_MS
  }

  /** Forgets callers with nothing running, waiting or counted (every hundredth release, so the map stays small). */
  private prune(): void {
    const now = this.now()
    for (const [caller, usage] of this.usage)
      if (!usage.running.length && !usage.waiting && this.usedMs(usage, now) === 0) this.usage.delete(caller)
  }
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i]
  return 0
}
