import { Worker } from 'node:worker_threads'
import type { ReaderPage } from '~/contracts/reader'
import { PageNotRead } from '../../../domain/refusals'
import type { ConversionRequest } from '../convert/convert'
import type { ConversionJob, ThreadMessage } from './messages'

export interface PoolSettings {
  /** The threads' code: ./thread.ts bundled (`./thread.ts?thread`). */
  source: string
  threads: number
  /** How long one page may take once a thread has it. */
  timeoutMs: number
  /** The JavaScript heap a thread may use (V8's old generation). */
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
  worker: Worker
  ready: boolean
  job?: { id: number; waiting: Waiting; timer: ReturnType<typeof setTimeout> }
}

/**
 * A fixed number of threads converting pages, one page each at a time, the rest waiting in order. A thread
 * whose page runs out of time or memory is ended (its page refused: 504, 422) and replaced, so a hostile page
 * costs at most one thread for at most the time limit and never holds the server's event loop.
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
    const worker = new Worker(this.settings.source, {
      eval: true,
      name: 'reader-convert',
      resourceLimits: { maxOldGenerationSizeMb: this.settings.memoryMb },
    })
    worker.unref()
    const thread: Thread = { worker, ready: false }
    this.threads.add(thread)
    worker.on('message', (message: ThreadMessage) => this.received(thread, message))
    worker.on('error', (error: Error & { code?: string }) => {
      const refusal =
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new PageNotRead(
              'too-complex',
              `The page needs more than ${this.settings.memoryMb} MB to convert, the reader's limit`,
            )
          : error
      void this.end(thread, refusal)
    })
    worker.on('exit', (code) => void this.end(thread, new Error(`a conversion thread exited with code ${code}`)))
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
    thread.worker.unref()
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
      // Held while it works, so a conversion in flight keeps the process up like any other request.
      thread.worker.ref()
      thread.worker.postMessage({ id, request: waiting.request } satisfies ConversionJob)
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
    const stopped = thread.worker.terminate()
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
