/**
 * Milliseconds of CPU this thread spent on `work`, the least of `runs` runs. Growth checks compare these rather
 * than wall time: on a loaded machine a long run waits for a core far more often than a short one, so a ratio of
 * wall times grows with the load, while a ratio of the thread's own CPU time does not.
 */
export async function threadCpuMs(work: () => unknown, runs = 3): Promise<number> {
  let best = Number.POSITIVE_INFINITY
  for (let run = 0; run < runs; run++) {
    const before = process.threadCpuUsage()
    await work()
    const { user, system } = process.threadCpuUsage(before)
    best = Math.min(best, (user + system) / 1000)
  }
  return best
}
