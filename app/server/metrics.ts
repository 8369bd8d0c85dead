import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'

/**
 * This process's Prometheus metrics (served at /metrics, see app/server/api/metrics.ts). Node only: the edge
 * build swaps this file for `metrics.edge.ts`, whose functions do nothing, so prom-client never reaches a
 * Worker (a Worker's isolates share no memory to count in anyway). The registry is built on first use, so
 * tests and tools that import a module which records something pay nothing until they record.
 */
let built: ReturnType<typeof build> | undefined

function build() {
  const registry = new Registry()
  // The process's own: CPU, memory, heap, event-loop delay, open handles.
  collectDefaultMetrics({ register: registry })
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'Requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  })
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from a request to its answer’s headers, by method and route pattern.',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  })
  const ledgerBatch = new Histogram({
    name: 'ledger_batch_entries',
    help: 'Ledger entries committed together in one metering transaction (group commit).',
    buckets: [1, 2, 4, 8, 16, 32, 64, 128],
    registers: [registry],
  })
  const dbInFlight = new Gauge({
    name: 'db_pool_queries_in_flight',
    help: 'Queries and transactions this process has sent to Postgres and not yet seen answered.',
    registers: [registry],
  })
  const dbMax = new Gauge({
    name: 'db_pool_max_connections',
    help: 'Postgres connections this process may open (DATABASE_POOL_MAX).',
    registers: [registry],
  })
  return { registry, requests, duration, ledgerBatch, dbInFlight, dbMax }
}

const metrics = () => (built ??= build())

/** One answered request; `route` is its pattern (bounded), never the raw path. */
export function recordRequest(method: string, route: string, status: number, seconds: number): void {
  const m = metrics()
  m.requests.inc({ method, route, status: String(status) })
  m.duration.observe({ method, route }, seconds)
}

/** One group commit of the metering ledger and how many entries it carried. */
export function recordLedgerBatch(entries: number): void {
  metrics().ledgerBatch.observe(entries)
}

/** A query sent to Postgres (+1) or answered (-1). */
export function recordDbQuery(delta: 1 | -1): void {
  metrics().dbInFlight.inc(delta)
}

export function recordDbPoolMax(connections: number): void {
  metrics().dbMax.set(connections)
}

/** A gauge read when scraped (the bulk queue's depth from the database): `read` gives its value per label set. */
export function gaugeOnScrape(
  name: string,
  help: string,
  labelName: string,
  read: () => Promise<Array<{ label: string; value: number }>>,
): void {
  const { registry } = metrics()
  if (registry.getSingleMetric(name)) return
  new Gauge({
    name,
    help,
    labelNames: [labelName],
    registers: [registry],
    async collect() {
      this.reset()
      for (const { label, value } of await read()) this.set({ [labelName]: label }, value)
    },
  })
}

/** The exposition: its body in Prometheus text format and that format's content type. */
export async function metricsExposition(): Promise<{ body: string; contentType: string } | undefined> {
  const { registry } = metrics()
  return { body: await registry.metrics(), contentType: registry.contentType }
}
