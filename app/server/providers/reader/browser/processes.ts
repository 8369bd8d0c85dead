import { readdirSync, readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { getPriority, setPriority } from 'node:os'
import type { CDPSession } from 'playwright-core'
import { errorFields, log } from '../../../log'

/**
 * Chromium runs below the server: its every thread at this nice value (Linux), as the converters do
 * (`../convert-pool/lower-priority.ts`), so 12 pages rendering at once cannot hold up the server's event loop.
 */
export const CHROMIUM_NICE = 10

/** How often a renderer's memory is read while pages render: typed arrays grow a renderer by gigabytes a second. */
export const MEMORY_CHECK_MS = 100

/** How often, while the browser runs, threads it started (or raised itself: it may, as root) are lowered again. */
export const NICE_CHECK_MS = 500

interface ProcessInfo {
  type: string
  id: number
}

/**
 * Watches one Chromium's processes through /proc while its pages render: a renderer whose resident memory
 * (anonymous and shared: the JavaScript heap, typed arrays, images, the DOM) passes `memoryMb` is killed at
 * once, and so is the largest when all renderers together pass `memoryMb` × `pages` (a page split over
 * several processes by its cross-site frames); the page then crashes and is refused (`./render.ts`). Every
 * thread of every Chromium process is kept at CHROMIUM_NICE. Where /proc cannot be read (not Linux) it
 * does nothing, and says so once.
 */
export class ChromiumWatch {
  private timer: ReturnType<typeof setInterval> | undefined
  private niceTimer: ReturnType<typeof setInterval> | undefined
  private busy = false
  private lastKill = 0
  private warned = false
  private browserPid: number | undefined
  private unlisted: number[] = []

  constructor(
    private readonly cdp: CDPSession,
    private readonly limits: { memoryMb: number; pages: number },
  ) {}

  /**
   * Lowers every process Chromium has now, and those it starts from them (its zygotes fork the renderers, and
   * a process inherits its parent's priority), then again every NICE_CHECK_MS until `end`.
   */
  async lowerPriority(): Promise<void> {
    const processes = await this.processes()
    if (!processes) return
    const browser = processes.find((p) => p.type === 'browser')
    this.browserPid = browser?.id
    // Its zygotes and launcher script are not in its own list: found once, and kept low with the rest.
    if (browser) this.unlisted = [...descendantsOf(browser.id), ...wrappersOf(browser.id)]
    for (const pid of new Set([...processes.map((p) => p.id), ...this.unlisted])) lowerThreads(pid)
    this.niceTimer ??= setInterval(() => void this.lowerAgain(), NICE_CHECK_MS)
    this.niceTimer.unref()
  }

  private async lowerAgain(): Promise<void> {
    try {
      const processes = (await this.processes()) ?? []
      for (const pid of new Set([...processes.map((p) => p.id), ...this.unlisted])) lowerThreads(pid)
    } catch {
      // The browser went away; `end` follows.
    }
  }

  /** Starts the memory checks (while pages render); `stop` ends them. */
  start(): void {
    if (this.timer) return
    this.timer = setInterval(() => void this.check(), MEMORY_CHECK_MS)
    this.timer.unref()
  }

  stop(): void {
    clearInterval(this.timer)
    this.timer = undefined
  }

  /** Ends every check (the browser is gone). */
  end(): void {
    this.stop()
    clearInterval(this.niceTimer)
    this.niceTimer = undefined
  }

  /** Kills the browser itself (a page it cannot close): its pages end, and the next page starts another browser. */
  killBrowser(): void {
    if (this.browserPid === undefined) return
    try {
      process.kill(this.browserPid, 'SIGKILL')
    } catch {
      // Gone already.
    }
  }

  /** Whether a renderer was killed for its memory within the last `ms` (a page that crashed then is refused for it). */
  killedWithin(ms: number): boolean {
    return Date.now() - this.lastKill <= ms
  }

  private async check(): Promise<void> {
    if (this.busy) return
    this.busy = true
    try {
      const processes = await this.processes()
      if (!processes) return
      const renderers: Array<{ pid: number; mb: number }> = []
      for (const { id, type } of processes)
        if (type === 'renderer') renderers.push({ pid: id, mb: await residentMb(id) })
      const over = renderers.filter((r) => r.mb > this.limits.memoryMb)
      const total = renderers.reduce((sum, r) => sum + r.mb, 0)
      if (!over.length && total > this.limits.memoryMb * this.limits.pages)
        over.push(renderers.reduce((a, b) => (b.mb > a.mb ? b : a)))
      for (const renderer of over) this.kill(renderer)
      // A new renderer's threads take the priorities Chromium names (it may, as root): lowered within a check.
      for (const { pid } of renderers) lowerThreads(pid)
    } catch (error) {
      // The browser went away between two checks; the next page starts another.
      log('debug', 'browser process check failed', { error: errorFields(error) })
    } finally {
      this.busy = false
    }
  }

  private kill({ pid, mb }: { pid: number; mb: number }): void {
    try {
      process.kill(pid, 'SIGKILL')
      this.lastKill = Date.now()
      log('warn', 'browser page stopped: over its memory limit', {
        residentMb: Math.round(mb),
        limitMb: this.limits.memoryMb,
      })
    } catch {
      // Gone already.
    }
  }

  /** Chromium's processes as it lists them, or undefined where their memory cannot be read. */
  private async processes(): Promise<ProcessInfo[] | undefined> {
    if (!procReadable()) {
      if (!this.warned)
        log('warn', 'no /proc here: browser pages are not held to READER_BROWSER_MEMORY_MB nor run at a lower priority')
      this.warned = true
      return undefined
    }
    const { processInfo } = (await this.cdp.send('SystemInfo.getProcessInfo')) as { processInfo: ProcessInfo[] }
    return processInfo
  }
}

let readable: boolean | undefined
const procReadable = () =>
  (readable ??= (() => {
    try {
      readFileSync('/proc/self/status')
      return true
    } catch {
      return false
    }
  })())

/** Resident memory of `pid` that is its own (anonymous and shared memory, not mapped files), in MB; 0 when gone. */
async function residentMb(pid: number): Promise<number> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8')
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0)
    return (kb('RssAnon') + kb('RssShmem')) / 1024
  } catch {
    return 0
  }
}

/** Sets every thread of `pid` to CHROMIUM_NICE (Linux keeps a priority per thread; new ones inherit their creator's). */
function lowerThreads(pid: number): void {
  let threads: string[]
  try {
    threads = readdirSync(`/proc/${pid}/task`)
  } catch {
    return
  }
  for (const thread of threads) {
    try {
      const id = Number(thread)
      if (getPriority(id) < CHROMIUM_NICE) setPriority(id, CHROMIUM_NICE)
    } catch {
      // The thread ended meanwhile.
    }
  }
}

/** The processes between this server and `pid` (a launcher script that runs Chromium without `exec`, as Debian's does). */
function wrappersOf(pid: number): number[] {
  const found: number[] = []
  for (let at = parentOf(pid); at && at > 1 && at !== process.pid; at = parentOf(at)) found.push(at)
  return found
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
  } catch {
    return undefined
  }
}

/** Every process descended from `root` (one pass over /proc: run once per browser start). */
function descendantsOf(root: number): number[] {
  const children = new Map<number, number[]>()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    const parent = parentOf(Number(name))
    if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), Number(name)])
  }
  const found: number[] = []
  const queue = [root]
  while (queue.length)
    for (const child of children.get(queue.pop()!) ?? []) {
      found.push(child)
      queue.push(child)
    }
  return found
}
