/**
 * Long CPU work on caller input runs in slices: a generator does the work and yields every few thousand
 * steps; `runPaced` drives it and gives the event loop back (a macrotask, so sockets and timers are served)
 * whenever a slice has run SLICE_MS. One request's work then delays others by a slice, never by its length.
 */

/** How long one slice may hold the event loop before other work gets a turn. */
export const SLICE_MS = 8

/** Gives the event loop a turn: I/O and timers that are due run before this resolves. */
export const yieldToLoop = (): Promise<void> =>
  new Promise((resolve) =>
    typeof globalThis.setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0),
  )

/** Runs `steps` to its end, yielding to the event loop between slices of SLICE_MS. */
export async function runPaced<T>(steps: Generator<void, T, void>): Promise<T> {
  let sliceStarted = performance.now()
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
    if (performance.now() - sliceStarted >= SLICE_MS) {
      await yieldToLoop()
      sliceStarted = performance.now()
    }
  }
}

/** Runs `steps` to its end at once: for work already off the main thread (a worker) or known small. */
export function runToEnd<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
  }
}
