import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { keyFrom } from '../support/trial-key'
import { serveBuild, type ServedBuild } from './support/server'

/** What Prometheus scrapes from one Node instance, and who may (issue 31). */
const token = 'metrics-token-0123456789abcdef'
const usageToken = 'metrics-usage-service-token-0123456789'
let server: ServedBuild
let closed: ServedBuild
beforeAll(async () => {
  ;[server, closed] = await Promise.all([
    serveBuild({ DATABASE_URL: '', METRICS_TOKEN: token, USAGE_SERVICE_TOKEN: usageToken }),
    serveBuild({ DATABASE_URL: '', METRICS_TOKEN: '' }),
  ])
})
afterAll(async () => {
  await Promise.all([server?.stop({ forceAfterMs: 10_000 }), closed?.stop({ forceAfterMs: 10_000 })])
})

const scrape = (base: string, bearer?: string) =>
  fetch(`${base}/metrics`, bearer ? { headers: { authorization: `Bearer ${bearer}` } } : {})

describe('/metrics', () => {
  it('is absent (404) without METRICS_TOKEN, and 401 {detail} without the right bearer', async () => {
    const absent = await scrape(closed.baseUrl, token)
    expect(absent.status).toBe(404)
    for (const bearer of [undefined, 'wrong-token-0123456789abcdef']) {
      const refused = await scrape(server.baseUrl, bearer)
      expect(refused.status).toBe(401)
      expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/)
      expect(((await refused.json()) as { detail: string }).detail).toMatch(/METRICS_TOKEN/)
    }
  })

  it('counts requests by route and status, times them, and shows ledger batches and the bulk queue', async () => {
    const apiKey = await keyFrom(server.baseUrl)
    for (let i = 0; i < 3; i++) expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200)
    expect((await fetch(`${server.baseUrl}/v1/no-such-api-${Date.now()}`)).status).toBe(404)
    const metered = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        fetch(`${server.baseUrl}/internal/v1/usage`, {
          method: 'POST',
          headers: { authorization: `Bearer ${usageToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            api_key: apiKey,
            product: 'reader',
            tokens: 10,
            usage_event_id: `m-${i}-${Date.now()}`,
          }),
        }),
      ),
    )
    expect(metered.map((r) => r.status)).toEqual([200, 200, 200, 200, 200])

    const answer = await scrape(server.baseUrl, token)
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
    const text = await answer.text()
    const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? NaN)
    expect(value(/^http_requests_total\{method="GET",route="\/healthz",status="200"\} (\d+)$/m)).toBeGreaterThanOrEqual(
      3,
    )
    expect(value(/^http_requests_total\{method="GET",route="unmatched",status="404"\} (\d+)$/m)).toBeGreaterThanOrEqual(
      1,
    )
    expect(value(/^http_requests_total\{method="POST",route="\/internal\/v1\/usage",status="200"\} (\d+)$/m)).toBe(5)
    expect(value(/^http_request_duration_seconds_count\{method="POST",route="\/internal\/v1\/usage"\} (\d+)$/m)).toBe(5)
    expect(text).toMatch(/^http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/healthz"\} \d+$/m)
    // Five debits at once: group-committed in one batch or a few, never more batches than entries.
    const entries = value(/^ledger_batch_entries_sum (\d+)$/m)
    expect(entries).toBeGreaterThanOrEqual(5)
    expect(value(/^ledger_batch_entries_count (\d+)$/m)).toBeLessThanOrEqual(entries)
    expect(value(/^bulk_queue_jobs\{status="waiting"\} (\d+)$/m)).toBe(0)
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m)
    // No key, path of a page or id ever becomes a label.
    expect(text).not.toContain(apiKey)
    expect(text).not.toContain('no-such-api')
  })
})
