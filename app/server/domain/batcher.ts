export interface BatcherOptions {
  /** The most items one batch takes; the rest wait for the next. */
  maxItems: number
  /** Batches running at once. While all are busy, new items queue up and form the next batch. */
  maxInFlight: number
}

interface Waiter<I, O> {
  item: I
  resolve: (outcome: O) => void
  reject: (error: unknown) => void
}

const soon: (fn: () => void) => void = globalThis.setImmediate ?? ((fn) => setTimeout(fn, 0))

/**
 * Group commit: callers submit one item each and get back exactly their own outcome, while `run`
 * handles whole batches. A batch starts on the next turn of the event loop (so everything submitted in
 * the same tick joins it) or, when every slot is busy, as soon as one frees up: under load the window is
 * the previous batch's duration, idle it costs nothing. If `run` fails, every caller in that batch
 * gets the error; none is acknowledged.
 */
export class Batcher<I, O> {
  private queue: Array<Waiter<I, O>> = []
  private inFlight = 0
  private scheduled = false
  readonly stats = { batches: 0, items: 0, largest: 0 }

  constructor(
    private readonly run: (items: I[]) => Promise<O[]>,
    private readonly options: BatcherOptions,
  ) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject })
      this.schedule()
    })
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.options.maxInFlight || this.queue.length === 0) return
    this.scheduled = true
    soon(() => {
      this.scheduled = false
      this.flush()
    })
  }

  private flush(): void {
    while (this.queue.length > 0 && this.inFlight < this.options.maxInFlight) {
      const batch = this.queue.splice(0, this.options.maxItems)
      this.inFlight++
      this.stats.batches++
      this.stats.items += batch.length
      this.stats.largest = Math.max(this.stats.largest, batch.length)
      Promise.resolve()
        .then(() => this.run(batch.map((w) => w.item)))
        .then((outcomes) => {
          if (outcomes.length !== batch.length)
            throw new Error(`batch of ${batch.length} answered ${outcomes.length} outcomes`)
          batch.forEach((w, i) => w.resolve(outcomes[i]))
        })
        .catch((error: unknown) => batch.forEach((w) => w.reject(error)))
        .finally(() => {
          this.inFlight--
          this.schedule()
        })
    }
  }
}
