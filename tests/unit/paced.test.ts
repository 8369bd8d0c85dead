import { describe, expect, it } from 'vitest'
import { runPaced, SLICE_MS } from '~/server/paced'

/** Holds the thread for `ms` of wall time, as a step of CPU work does. */
const busy = (ms: number) => {
  const until = performance.now() + ms
  while (performance.now() < until);
}

/** `count` steps of 1 ms each, noting each step in `log` under `name`; gives `name` back. */
function* work(name: string, count: number, log: string[]): Generator<void, string, void> {
  for (let i = 0; i < count; i++) {
    busy(1)
    log.push(name)
    yield
  }
  return name
}

/** The most steps that ran between two turns of the event loop while `run` ran (a timer notes each turn). */
async function mostStepsPerTurn(run: (log: string[]) => Promise<unknown>): Promise<number> {
  const log: string[] = []
  let most = 0
  let since = 0
  const timer = setInterval(() => {
    most = Math.max(most, log.length - since)
    since = log.length
  }, 0)
  try {
    await run(log)
  } finally {
    clearInterval(timer)
  }
  return Math.max(most, log.length - since)
}

describe('runPaced', { timeout: 30_000 }, () => {
  it('gives the result of the work, or its error', async () => {
    expect(await runPaced(work('a', 30, []))).toBe('a')
    function* failing(): Generator<void, never, void> {
      for (let i = 0; i < 20; i++) {
        busy(1)
        yield
      }
      throw new Error('bad input')
    }
    await expect(runPaced(failing())).rejects.toThrow('bad input')
  })

  it('holds the loop one slice per turn however many tasks run at once', async () => {
    // Each task used to take its own slice at every turn: eight tasks held the loop 8 × 8 ms.
    const most = await mostStepsPerTurn((log) =>
      Promise.all(Array.from({ length: 8 }, (_, i) => runPaced(work(`task ${i}`, 40, log)))),
    )
    // Steps of 1 ms: a slice is SLICE_MS of them, and a turn may begin with the slice of the turn before
    // still open (work started outside the paced queue), so two slices at most.
    expect(most).toBeLessThanOrEqual(2 * SLICE_MS + 2)
  })

  it('lets a short task finish while a long one runs', async () => {
    const log: string[] = []
    const long = runPaced(work('long', 400, log))
    await new Promise((resolve) => setTimeout(resolve, 20))
    await runPaced(work('short', 10, log))
    // The short task took turns with the long one rather than waiting for its end.
    expect(log.filter((name) => name === 'long').length).toBeLessThan(200)
    await long
  })
})
