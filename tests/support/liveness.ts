import { Worker } from 'node:worker_threads'

/**
 * Watches a served build's liveness probe while some work runs against it: `/healthz/live` is asked again
 * as soon as it answers (after a short pause), and the slowest answer is what a load balancer would have
 * seen as the server's worst stall. A request that holds the event loop shows here however it is served.
 *
 * The probe runs on a thread of its own. On the test's thread it timed the test as well: building a
 * 4,000,000-letter input, serialising its 4 MB body or parsing an 8 MB answer held the test's own loop,
 * and the probe's answer, already back, waited for it (a 1,187 ms "stall" while the server's loop never
 * waited more than 117 ms).
 */
const probeScript = `
const { parentPort, workerData } = require('node:worker_threads')
const { url, pauseMs } = workerData
let stopping = false
parentPort.once('message', () => (stopping = true))
;(async () => {
  let worstMs = 0
  let probes = 0
  while (!stopping) {
    const started = performance.now()
    const response = await fetch(url)
    await response.arrayBuffer()
    if (!response.ok) throw new Error('/healthz/live answered ' + response.status)
    worstMs = Math.max(worstMs, performance.now() - started)
    if (probes++ === 0) parentPort.postMessage({ ready: true })
    await new Promise((resolve) => setTimeout(resolve, pauseMs))
  }
  parentPort.postMessage({ worstMs, probes })
})().catch((error) => parentPort.postMessage({ error: String(error) })).finally(() => parentPort.close())
`

interface ProbeReport {
  ready?: boolean
  worstMs?: number
  probes?: number
  error?: string
}

export async function watchLiveness<T>(
  baseUrl: string,
  work: () => Promise<T>,
  { pauseMs = 10 }: { pauseMs?: number } = {},
): Promise<{ result: T; worstMs: number; probes: number }> {
  const worker = new Worker(probeScript, { eval: true, workerData: { url: `${baseUrl}/healthz/live`, pauseMs } })
  const reports: ProbeReport[] = []
  let wake: () => void = () => undefined
  const failed = new Promise<never>((_, reject) => worker.once('error', reject))
  failed.catch(() => undefined)
  worker.on('message', (report: ProbeReport) => {
    reports.push(report)
    wake()
  })
  const next = async (): Promise<ProbeReport> => {
    while (reports.length === 0) await Promise.race([new Promise<void>((resolve) => (wake = resolve)), failed])
    const report = reports.shift()!
    if (report.error) throw new Error(report.error)
    return report
  }
  try {
    // The work starts once the probe is answered, so the watch covers all of it.
    await next()
    const result = await work()
    worker.postMessage('stop')
    const { worstMs = 0, probes = 0 } = await next()
    return { result, worstMs, probes }
  } finally {
    await worker.terminate()
  }
}
