import { createHash, timingSafeEqual } from 'node:crypto'
import { getDb } from '../db/client'
import { bulkQueueDepth } from '../domain/bulk-jobs'
import { serverEnv } from '../env'
import { gaugeOnScrape, metricsExposition } from '../metrics'

const digest = (s: string) => createHash('sha256').update(s).digest()

export type Scrape = { kind: 'absent' } | { kind: 'refused' } | { kind: 'metrics'; body: string; contentType: string }

/**
 * A Prometheus scrape presenting `token`. Off (`absent`) unless METRICS_TOKEN is set, so no deployment
 * exposes its traffic by accident, and in the edge build, which keeps no metrics; with it set, any other
 * token is `refused`. The counters are this process's: Prometheus scrapes each instance.
 */
export async function scrapeMetrics(token: string | undefined): Promise<Scrape> {
  const expected = serverEnv().METRICS_TOKEN
  if (!expected) return { kind: 'absent' }
  if (!token || !timingSafeEqual(digest(expected), digest(token))) return { kind: 'refused' }
  gaugeOnScrape('bulk_queue_jobs', 'Bulk embedding jobs in the shared queue, by status.', 'status', async () =>
    (await bulkQueueDepth(await getDb())).map(({ status, jobs }) => ({ label: status, value: jobs })),
  )
  const exposition = await metricsExposition()
  return exposition ? { kind: 'metrics', ...exposition } : { kind: 'absent' }
}
