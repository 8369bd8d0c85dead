/**
 * Long CPU work on caller input runs in slices: a generator does the work and yields every few thousand
 * steps; `runPaced` drives it and gives the event loop back (a macrotask, so sockets and timers are served)
 * whenever a slice has run SLICE_MS. One request's work then delays others by a slice, never by its length.
 *
 * The slice is shared by all paced work in the process, not one per task: each task resuming from its own
 * `setImmediate` with its own 8 ms made the loop wait 8 ms per task at every turn (eight documents of a
 * rerank, or eight requests at once, held it 64 ms, and a thousand would hold it seconds). Waiting tasks
 * take turns in one queue, a share of the slice each, round robin, so a long task cannot starve short ones.
 */

/** How long the paced work of one turn of the event loop may hold it before other work gets a turn. */
export const SLICE_MS = 8
/** A waiting task's share of a turn, so that a few of them progress in each. */
const SHARE_MS = 2

const schedule = (run: () => void) =>
  typeof globalThis.setImmediate === 'function' ? setImmediate(run) : setTimeout(run, 0)

/** Gives the event loop a turn: I/O and timers that are due run before this resolves. */
export const yieldToLoop = (): Promise<void> => new Promise((resolve) => schedule(resolve))

/** When this turn's paced work began; cleared at the loop's next check phase, where a new turn begins. */
let sliceStarted: number | undefined

function sliceOver(): boolean {
  const now = performance.now()
  if (sliceStarted === undefined) {
    sliceStarted = now
    schedule(() => (sliceStarted = undefined))
  }
  return now - sliceStarted >= SLICE_MS
}

interface Waiting {
  steps: Generator<void, unknown, void>
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

const waiting: Waiting[] = []
let turnScheduled = false

/** Steps `task` until it ends (true) or its share or the turn's slice is used up (false). */
function advance(task: Waiting, shareEnds: number): boolean {
  try {
    do {
      const step = task.steps.next()
      if (step.done) {
        task.resolve(step.value)
        return true
      }
    } while (!sliceOver() && performance.now() < shareEnds)
  } catch (error) {
    task.reject(error)
    return true
  }
  return false
}

/** One turn: the waiting tasks, round robin, until the slice is used up; the rest wait for the next. */
function turn() {
  turnScheduled = false
  sliceStarted = undefined
  while (waiting.length > 0 && !sliceOver()) {
    const task = waiting.shift()!
    if (!advance(task, performance.now() + SHARE_MS)) waiting.push(task)
  }
  if (waiting.length > 0) scheduleTurn()
}

function scheduleTurn() {
  if (turnScheduled) return
  turnScheduled = true
  schedule(turn)
}

/**
 * Runs `steps` to its end in slices. It starts at once while this turn's slice lasts (short work never
 * waits), then waits its turns with every other paced task.
 */
export function runPaced<T>(steps: Generator<void, T, void>): Promise<T> {
  try {
    while (!sliceOver()) {
      const step = steps.next()
      if (step.done) return Promise.resolve(step.value)
    }
  } catch (error) {
    return Promise.reject(error as Error)
  }
  return new Promise<T>((resolve, reject) => {
    waiting.push({ steps, resolve: resolve as (value: unknown) => void, reject })
    scheduleTurn()
  })
}

/** Runs `steps` to its end at once: for work already off the main thread (a worker) or known small. */
export function runToEnd<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
  }
}
