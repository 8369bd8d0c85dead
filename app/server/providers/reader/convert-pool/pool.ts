import { spawn, type ChildProcess } from 'node:child_process'
import type { ReaderPage } from '~/contracts/reader'
import { PageNotRead } from '../../../domain/refusals'
import type { ConversionRequest } from '../convert/convert'
import type { ConversionJob, ThreadMessage } from './messages'

export interface PoolSettings {
  /** The converters' code: ./thread.ts bundled (`./thread.ts?thread`). */
  source: string
  /** How many converter processes run (`READER_CONVERT_THREADS`, named when they were threads). */
  threads: number
  /** How long one page may take once a converter has it. */
  timeoutMs: number
  /** The JavaScript heap a converter may use (V8's old generation). */
  memoryMb: number
}

interface Waiting {
  request: ConversionRequest
  resolve: (page: ReaderPage) => void
  reject: (error: unknown) => void
  signal?: AbortSignal
  onAbort?: () => void
}

interface Thread {
  process: ChildProcess
  ready: boolean
  /** The end of what the process wrote to stderr: how an out-of-memory abort is told from other exits. */
  stderr: string
  job?: { id: number; waiting: Waiting; timer: ReturnType<typeof setTimeout> }
}

/** What V8 prints as it aborts a process whose heap reached `--max-old-space-size`. */
const OUT_OF_MEMORY = /heap out of memory|Reached heap limit/
const STDERR_KEPT = 4096

/**
 * A fixed number of converter processes, one page each at a time, the rest waiting in order. A converter
 * whose page runs out of time or memory is ended (its page refused: 504, 422) and replaced, so a hostile page
 * costs at most one converter for at most the time limit and never holds the server's event loop.
 *
 * Processes, not worker threads: V8 aborts the whole process when a heap-limited worker thread's allocation
 * outruns Node's near-limit handler (seen in about one run in three with a 64 MB limit and a wide table),
 * which would take the server down with the page. A child process that aborts takes only itself.
 */
export class ConversionPool {
  private readonly threads = new Set<Thread>()
  private readonly queue: Waiting[] = []
  private nextId = 0
  private closed = false

  constructor(private readonly settings: PoolSettings) {}

  /** Threads started and not ended, and pages waiting for one: for tests and logs. */
  get state(): { threads: number; busy: number; waiting: number } {
    const busy = [...this.threads].filter((thread) => thread.job).length
    return { threads: this.threads.size, busy, waiting: this.queue.length }
  }

  /** The page converted on a thread; `signal` takes it out of the queue, or ends its thread, when the caller goes. */
  convert(request: ConversionRequest, { signal }: { signal?: AbortSignal } = {}): Promise<ReaderPage> {
    if (this.closed) return Promise.reject(new Error('the conversion pool is closed'))
    signal?.throwIfAborted()
    return new Promise<ReaderPage>((resolve, reject) => {
      const waiting: Waiting = { request, resolve, reject, signal }
      if (signal) {
        waiting.onAbort = () => this.abandon(waiting)
        signal.addEventListener('abort', waiting.onAbort, { once: true })
      }
      this.queue.push(waiting)
      this.fill()
      this.dispatch()
    })
  }

  /** Starts the threads now, rather than with the first page. */
  warm(): void {
    this.fill()
  }

  /** Ends every thread; pages waiting or converting are refused. */
  async close(): Promise<void> {
    this.closed = true
    const stopped = new Error('the conversion pool is closed')
    for (const waiting of this.queue.splice(0)) this.settle(waiting, stopped)
    await Promise.all([...this.threads].map((thread) => this.end(thread, stopped)))
  }

  private fill(): void {
    while (!this.closed && this.threads.size < this.settings.threads) this.start()
  }

  private start(): void {
    // The bundled script comes on stdin: at 1.7 MB it is far past what one command-line argument may hold.
    const child = spawn(process.execPath, [`--max-old-space-size=${this.settings.memoryMb}`, '-'], {
      stdio: ['pipe', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
    })
    const thread: Thread = { process: child, ready: false, stderr: '' }
    this.threads.add(thread)
    // A converter that dies before reading it all (its end is handled on close) must not fail the server on EPIPE.
    child.stdin!.on('error', () => undefined)
    child.stdin!.end(this.settings.source)
    child.stderr!.setEncoding('utf8')
    child.stderr!.on('data', (chunk: string) => {
      thread.stderr = (thread.stderr + chunk).slice(-STDERR_KEPT)
    })
    this.idle(thread)
    child.on('message', (message: ThreadMessage) => this.received(thread, message))
    child.on('error', (error) => void this.end(thread, error))
    // On close rather than exit: only then has all of stderr, where V8's out-of-memory message is, been read.
    child.on(
      'close',
      (code, signal) =>
        void this.end(
          thread,
          OUT_OF_MEMORY.test(thread.stderr)
            ? new PageNotRead(
                'too-complex',
                `The page needs more than ${this.settings.memoryMb} MB to convert, the reader's limit`,
              )
            : new Error(`a conversion process exited with ${signal ?? `code ${code}`}`),
        ),
    )
  }

  /** Held while it works, so a conversion in flight keeps the server up like any other request; not otherwise. */
  private busy(thread: Thread): void {
    thread.process.ref()
    thread.process.channel?.ref()
  }

  private idle(thread: Thread): void {
    thread.process.unref()
    thread.process.channel?.unref()
    ;(thread.process.stderr as { unref?: () => void } | null)?.unref?.()
  }

  private received(thread: Thread, message: ThreadMessage): void {
    if ('ready' in message) {
      thread.ready = true
      this.dispatch()
      return
    }
    const job = thread.job
    if (!job || job.id !== message.id) return
    clearTimeout(job.timer)
    thread.job = undefined
    this.idle(thread)
    if ('page' in message) this.settle(job.waiting, undefined, message.page)
    else if ('refusal' in message)
      this.settle(job.waiting, new PageNotRead(message.refusal.problem, message.refusal.detail))
    else this.settle(job.waiting, new Error(`page conversion failed: ${message.failure}`))
    this.dispatch()
  }

  private dispatch(): void {
    for (const thread of this.threads) {
      if (!thread.ready || thread.job) continue
      const waiting = this.queue.shift()
      if (!waiting) return
      const id = this.nextId++
      const seconds = this.settings.timeoutMs / 1000
      const timer = setTimeout(
        () =>
          void this.end(
            thread,
            new PageNotRead(
              'convert-timeout',
              `The page could not be converted within ${seconds} s, the reader's limit`,
            ),
          ),
        this.settings.timeoutMs,
      )
      thread.job = { id, waiting, timer }
      this.busy(thread)
      thread.process.send({ id, request: waiting.request } satisfies ConversionJob, (error) => {
        if (error) void this.end(thread, error)
      })
    }
  }

  /**
   * Ends a thread (its page refused with `reason`) and starts another in its place. A thread that fails
   * before it is ready fails the pages waiting too, rather than being restarted in a loop.
   */
  private async end(thread: Thread, reason: unknown): Promise<void> {
    if (!this.threads.delete(thread)) return
    if (thread.job) {
      clearTimeout(thread.job.timer)
      this.settle(thread.job.waiting, reason)
    } else if (!thread.ready) for (const waiting of this.queue.splice(0)) this.settle(waiting, reason)
    const gone =
      thread.process.pid === undefined || thread.process.exitCode !== null || thread.process.signalCode !== null
    const stopped = gone
      ? Promise.resolve()
      : new Promise<void>((resolve) => thread.process.once('close', () => resolve()))
    thread.process.kill('SIGKILL')
    if (thread.ready) this.fill()
    await stopped
  }

  private abandon(waiting: Waiting): void {
    const reason = waiting.signal?.reason
    const queued = this.queue.indexOf(waiting)
    if (queued >= 0) {
      this.queue.splice(queued, 1)
      this.settle(waiting, reason)
      return
    }
    // Converting: the thread's time goes to the next page instead.
    const thread = [...this.threads].find((candidate) => candidate.job?.waiting === waiting)
    if (thread) void this.end(thread, reason)
  }

  private settle(waiting: Waiting, error: unknown, page?: ReaderPage): void {
    if (waiting.onAbort) waiting.signal?.removeEventListener('abort', waiting.onAbort)
    if (page) waiting.resolve(page)
    else waiting.reject(error)
  }
}
