import autocannon from 'autocannon'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCluster, type Cluster } from '../cluster/support/cluster'
import { serveBuild, type ServedBuild } from '../e2e/support/server'
import { keyFrom } from '../support/trial-key'
import { recordResults, type BenchResult } from './support/results'

/**
 * The cluster of tests/cluster (three instances behind HAProxy, through PgBouncer) against one of its
 * instances called directly, and against an instance on Postgres without the pooler: throughput of key info
 * and embeddings, and what the balancer and the pooler add to one request's latency. All on one machine, so
 * three instances share its cores: the ratio shows what the cluster costs there, not what it gains on three hosts.
 */
const CONNECTIONS = Number(process.env.BENCH_CLUSTER_CONNECTIONS ?? 32)
const DURATION = Number(process.env.BENCH_CLUSTER_SECONDS ?? 8)
const adminUrl = process.env.TEST_DATABASE_URL
const redisUrl = process.env.TEST_REDIS_URL

describe.skipIf(!adminUrl || !redisUrl)('the cluster against one instance', () => {
  let cluster: Cluster
  let direct: ServedBuild
  beforeAll(async () => {
    cluster = await startCluster(adminUrl!, redisUrl!, { RATE_LIMIT_KEYS: 'off', LOG_LEVEL: 'warn' })
    // The same build on the same database with no pooler in between.
    direct = await serveBuild({
      DATABASE_URL: cluster.directUrl,
      RATE_LIMIT_KEYS: 'off',
      LOG_LEVEL: 'warn',
      CI: '',
      TEST: '',
      CAPTCHA_SECRET: 'cluster-captcha-secret-0123456789',
      BULK_DOWNLOAD_SECRET: 'cluster-bulk-secret-0123456789',
      PAYMENTS_SANDBOX_SECRET: 'cluster-sandbox-secret-0123456789',
      KEY_ENCRYPTION_SECRET: 'cluster-key-encryption-secret-0123456789-0123',
      INSTANCE_ID: 'direct',
    })
  }, 300_000)
  afterAll(async () => {
    await direct?.stop({ forceAfterMs: 10_000 })
    await cluster?.stop()
  })

  it('measures key info and embeddings, one instance and three', async () => {
    const apiKey = await keyFrom(cluster.url)
    const targets = {
      'one instance, no pooler': direct.baseUrl,
      'one instance, through PgBouncer': cluster.instances[0].baseUrl,
      'three instances, HAProxy and PgBouncer': cluster.url,
    }
    const keyInfo = (base: string) => ({
      url: `${base}/api/v1/api_key/fe_user`,
      headers: { authorization: `Bearer ${apiKey}` },
    })
    const embeddings = (base: string) => ({
      url: `${base}/v1/embeddings`,
      method: 'POST' as const,
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'embeddings-v3', input: ['a short text to embed, as a search app sends it'] }),
    })
    const results: BenchResult[] = []
    for (const [what, request] of [
      ['key info', keyInfo],
      ['embeddings', embeddings],
    ] as const) {
      for (const [where, base] of Object.entries(targets)) {
        const options = request(base)
        await autocannon({ ...options, connections: 8, duration: 2 })
        const load = await autocannon({ ...options, connections: CONNECTIONS, duration: DURATION })
        // One connection: the latency a single request sees, with nothing queued before it.
        const single = await autocannon({ ...options, connections: 1, duration: 4 })
        expect(load.non2xx + load.errors + load.timeouts + single.timeouts, `${what} ${where}`).toBe(0)
        expect(load.requests.total, `${what} ${where}`).toBeGreaterThan(0)
        results.push(
          {
            name: `${what} req/s, ${where}`,
            value: Math.round(load.requests.average),
            unit: 'req/s',
            note: `${CONNECTIONS} connections, ${DURATION} s; p99 ${load.latency.p99} ms`,
          },
          {
            name: `${what} one request, ${where}`,
            value: single.latency.p50,
            unit: 'ms',
            note: `p50 of 1 connection; p99 ${single.latency.p99} ms`,
          },
        )
      }
    }
    recordResults('cluster', results)
  }, 600_000)
})
