export interface BatcherOptions {
  /** The most items one batch takes; the rest wait for the next. */
  maxItems: number
  /** Batches running at once. While all are busy, new items queue up and form the next batch. */
  maxInFlight: number
  /**
   * Whether a failed batch may owe its failure to one of its items (bad data refused by the database)
   * rather than to the run as a whole (the database unreachable). Such a batch is split in halves and
   * each run again, down to single items, so only the items at fault fail.
   */
  blamesAnItem?: (error: unknown) => boolean
  /** Told each batch's size as it starts (metrics). */
  onBatch?: (items: number) => void
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
 * the previous batch's duration, idle it costs nothing. If `run` fails, none of the batch is acknowledged:
 * where the failure may be one item's, the batch is bisected and run again (so one bad item costs about
 * two runs per halving and fails alone); otherwise every caller in it gets the error.
 */
export class Batcher<I, O> {
  private queue: Array<Waiter<I, O>> = []
  private inFlight = 0
  private scheduled = false
  readonly stats = { batches: 0, items: 0, largest: 0, splits: 0 }

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
      this.options.onBatch?.(batch.length)
      void this.settle(batch).finally(() => {
        this.inFlight--
        this.schedule()
      })
    }
  }

  /** Runs one batch and answers its callers; never rejects. */
  private async settle(batch: Array<Waiter<I, O>>): Promise<void> {
    try {
      const outcomes = await this.run(batch.map((w) => w.item))
      if (outcomes.length !== batch.length)
        throw new Error(`batch of ${batch.length} answered ${outcomes.length} outcomes`)
      batch.forEach((w, i) => w.resolve(outcomes[i]))
    } catch (error) {
      if (batch.length > 1 && this.options.blamesAnItem?.(error)) {
        this.stats.splits++
        const half = Math.ceil(batch.length / 2)
        await this.settle(batch.slice(0, half))
        await this.settle(batch.slice(half))
      } else batch.forEach((w) => w.reject(error))
    }
  }
}
