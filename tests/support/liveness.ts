/**
 * Watches a served build's liveness probe while some work runs against it: `/healthz/live` is asked again
 * as soon as it answers (after a short pause), and the slowest answer is what a load balancer would have
 * seen as the server's worst stall. A request that holds the event loop shows here however it is served.
 */
export async function watchLiveness<T>(
  baseUrl: string,
  work: () => Promise<T>,
  { pauseMs = 10 }: { pauseMs?: number } = {},
): Promise<{ result: T; worstMs: number; probes: number }> {
  let done = false
  let worstMs = 0
  let probes = 0
  const probing = (async () => {
    while (!done) {
      const started = performance.now()
      const response = await fetch(`${baseUrl}/healthz/live`)
      await response.arrayBuffer()
      if (!response.ok) throw new Error(`/healthz/live answered ${response.status}`)
      worstMs = Math.max(worstMs, performance.now() - started)
      probes++
      await new Promise((resolve) => setTimeout(resolve, pauseMs))
    }
  })()
  try {
    const result = await work()
    return { result, worstMs, probes }
  } finally {
    done = true
    await probing
  }
}
