import type { Db } from '../../db/types'
import { requestLog } from '../../db/schema'
import { onShutdown } from '../../lifecycle'
import { errorFields, log } from '../../log'

export type RequestLogRow = typeof requestLog.$inferInsert

/** A batch is written this long after its first row at the latest, or at once when it reaches FLUSH_ROWS. */
export const FLUSH_MS = 1000
export const FLUSH_ROWS = 500
/** Rows held while the database refuses them; beyond it the oldest are dropped (and counted in the log). */
const MAX_HELD = 50_000

/**
 * The request log's write path: rows wait in memory and go to the database in one multi-row insert every
 * FLUSH_MS or FLUSH_ROWS, off the request path, so logging costs a metered request an array push, not a
 * statement (BENCHMARKS.md). A stopping server writes what it holds before its connections close. What is
 * lost is what a crash holds, at most FLUSH_MS of rows: a log, unlike the ledger, may lose that.
 */
class RequestLogWriter {
  private rows: RequestLogRow[] = []
  private timer: ReturnType<typeof setTimeout> | undefined
  private writing: Promise<void> = Promise.resolve()
  /** Set at shutdown: what its last flush cannot write is dropped, not tried again on closed connections. */
  private closed = false

  constructor(private readonly db: Db) {}

  push(row: RequestLogRow): void {
    this.rows.push(row)
    if (this.rows.length >= FLUSH_ROWS) void this.flush()
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), FLUSH_MS)
      this.timer.unref?.()
    }
  }

  /** Writes every row held now (after any write under way), one insert per FLUSH_ROWS. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
    const batch = this.rows
    this.rows = []
    if (batch.length === 0) return this.writing
    this.writing = this.writing.then(() => this.write(batch))
    return this.writing
  }

  private async write(batch: RequestLogRow[]): Promise<void> {
    for (let at = 0; at < batch.length; at += FLUSH_ROWS) {
      const part = batch.slice(at, at + FLUSH_ROWS)
      try {
        await this.db.insert(requestLog).values(part)
      } catch (error) {
        // Kept for the next flush: a database that is briefly away loses no rows.
        const held = [...batch.slice(at), ...this.rows]
        const dropped = this.closed ? held.length : Math.max(0, held.length - MAX_HELD)
        this.rows = held.slice(dropped)
        log('error', 'request log write failed', { error: errorFields(error), rows: part.length, dropped })
        if (!this.timer && !this.closed) {
          this.timer = setTimeout(() => void this.flush(), FLUSH_MS)
          this.timer.unref?.()
        }
        return
      }
    }
  }

  /** Writes what it holds one last time; the server is stopping and its connections close next. */
  close(): Promise<void> {
    this.closed = true
    return this.flush()
  }
}

const writers = new Map<Db, RequestLogWriter>()

function writerOf(db: Db): RequestLogWriter {
  let writer = writers.get(db)
  if (!writer) {
    writers.set(db, (writer = new RequestLogWriter(db)))
    onShutdown(closeRequestLog)
  }
  return writer
}

/** Queues one row; never waits and never throws. */
export function writeRequestLog(db: Db, row: RequestLogRow): void | Promise<void> {
  writerOf(db).push(row)
}

/** Writes every queued row now (shutdown, tests, and readers that must see their own requests). */
export async function flushRequestLog(): Promise<void> {
  await Promise.all([...writers.values()].map((writer) => writer.flush()))
}

/**
 * At shutdown: each writer writes its rows once more and is forgotten with the connection it writes to, so a
 * later server in the same process (a test worker's next file) neither flushes nor retries through it.
 */
async function closeRequestLog(): Promise<void> {
  const closing = [...writers.values()]
  writers.clear()
  await Promise.all(closing.map((writer) => writer.close()))
}
