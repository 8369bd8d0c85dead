import { availableParallelism, loadavg } from 'node:os'
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
 *
 * Given the server's process id (a server on this machine, on Linux), each probe also notes how long the
 * server's main thread ran on a core while the probe waited (`/proc/<pid>/task/<pid>/schedstat`): the time
 * the server's own work held its loop. The wait itself also counts the time the thread waited for a core,
 * which on a machine loaded by others is most of it and is no work of the server's.
 */
const probeScript = `
const { parentPort, workerData } = require('node:worker_threads')
const { readFileSync } = require('node:fs')
const { url, pauseMs, pid } = workerData
const onCoreNs = () => {
  if (!pid) return undefined
  try {
    return Number(readFileSync('/proc/' + pid + '/task/' + pid + '/schedstat', 'utf8').split(' ')[0])
  } catch {
    return undefined
  }
}
let stopping = false
parentPort.once('message', () => (stopping = true))
;(async () => {
  let worstMs = 0
  let worstOnCoreMs = onCoreNs() === undefined ? undefined : 0
  let probes = 0
  while (!stopping) {
    const started = performance.now()
    const onCoreBefore = onCoreNs()
    const response = await fetch(url)
    await response.arrayBuffer()
    if (!response.ok) throw new Error('/healthz/live answered ' + response.status)
    worstMs = Math.max(worstMs, performance.now() - started)
    if (worstOnCoreMs !== undefined) worstOnCoreMs = Math.max(worstOnCoreMs, (onCoreNs() - onCoreBefore) / 1e6)
    if (probes++ === 0) parentPort.postMessage({ ready: true })
    await new Promise((resolve) => setTimeout(resolve, pauseMs))
  }
  parentPort.postMessage({ worstMs, worstOnCoreMs, probes })
})().catch((error) => parentPort.postMessage({ error: String(error) })).finally(() => parentPort.close())
`

interface ProbeReport {
  ready?: boolean
  worstMs?: number
  worstOnCoreMs?: number
  probes?: number
  error?: string
}

export interface Liveness<T> {
  result: T
  /** The slowest answer of `/healthz/live`. */
  worstMs: number
  /** The most the server's main thread ran on a core during one probe; undefined where that cannot be read. */
  worstOnCoreMs: number | undefined
  probes: number
}

export async function watchLiveness<T>(
  baseUrl: string,
  work: () => Promise<T>,
  { pauseMs = 10, pid }: { pauseMs?: number; pid?: number } = {},
): Promise<Liveness<T>> {
  const worker = new Worker(probeScript, {
    eval: true,
    workerData: { url: `${baseUrl}/healthz/live`, pauseMs, pid },
  })
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
    const { worstMs = 0, worstOnCoreMs, probes = 0 } = await next()
    return { result, worstMs, worstOnCoreMs, probes }
  } finally {
    await worker.terminate()
  }
}

/**
 * Whether the machine had about a core for every ready thread over the last minute (load average at most
 * its cores): only then is a probe's wait on the clock the server's doing rather than the machine's.
 */
export const machineQuiet = () => loadavg()[0] <= availableParallelism()
