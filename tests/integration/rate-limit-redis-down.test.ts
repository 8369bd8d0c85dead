import { Redis } from 'ioredis'
import { randomUUID } from 'node:crypto'
import { createServer, type Socket } from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { rateLimit } from '~/server/api/rate-limit'
import { resetRateLimits } from '~/server/providers/rate-limit-store'
import { apiDatabase, call, keyWithBalance } from '../support/api'
import { freePort } from '../support/ports'
import { describeWithService } from '../support/services'
import { tcpRelay } from '../support/tcp-relay'

/**
 * Rate limits while Redis is away (issue 38, defect 12): they count in this process at once, never let calls
 * through uncounted and never make a call wait for Redis; one warning says so, and the limits go back to
 * Redis when it answers again.
 */
const closedPort = await freePort()
const database = apiDatabase({ env: { REDIS_URL: `redis://127.0.0.1:${closedPort}` } })
afterEach(() => vi.restoreAllMocks())

/** The log lines written while `run` runs (warnings and errors go to stderr, the rest to stdout). */
async function logLines<T>(run: () => Promise<T>): Promise<{ result: T; lines: Record<string, unknown>[] }> {
  const raw: string[] = []
  const capture = (line: unknown) => void raw.push(String(line))
  vi.spyOn(console, 'error').mockImplementation(capture)
  vi.spyOn(console, 'log').mockImplementation(capture)
  try {
    const result = await run()
    return { result, lines: raw.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>) }
  } finally {
    vi.restoreAllMocks()
  }
}

const storeLines = (lines: Record<string, unknown>[]) =>
  lines.filter((line) => String(line.msg).startsWith('rate-limit')).map((line) => [line.level, line.msg])

describe('rate limits with Redis unreachable', () => {
  it('answers 130 parallel calls on a free key at once, 100 of them and 429 for the rest, with one warning', async () => {
    const key = await keyWithBalance(database.db, 1_000_000)
    const { result, lines } = await logLines(() =>
      Promise.all(
        Array.from({ length: 130 }, async () => {
          const started = performance.now()
          const answer = await call('POST', '/v1/embeddings', {
            bearer: key.apiKey,
            json: { model: 'embeddings-v3', input: ['a short text'] },
          })
          return { status: answer.status, ms: performance.now() - started }
        }),
      ),
    )
    const statuses = result.map((r) => r.status)
    // The free tier's 100 a minute, counted in this process: never open.
    expect(statuses.filter((s) => s === 200)).toHaveLength(100)
    expect(statuses.filter((s) => s === 429)).toHaveLength(30)
    const ms = result.map((r) => r.ms).sort((a, b) => a - b)
    // The outside run's p50 was 8.1 s (each limiter waited for Redis); the wait itself is timed below, without
    // the embeddings' own work, which a loaded machine stretches.
    expect(ms[Math.floor(ms.length / 2)]).toBeLessThan(4000)
    expect(storeLines(lines)).toEqual([['warn', 'rate-limit store unavailable: counting in this process']])
  })
})

describe('rate limits with a Redis that accepts connections and never answers', () => {
  it('waits for it a bounded moment once, then counts in this process, limits holding', async () => {
    const sockets = new Set<Socket>()
    const silent = createServer((socket) => void sockets.add(socket.on('error', () => undefined)))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const previous = process.env.REDIS_URL
    process.env.REDIS_URL = `redis://127.0.0.1:${(silent.address() as { port: number }).port}`
    resetRateLimits()
    const bucket = `silent:${randomUUID()}`
    try {
      const started = performance.now()
      const outcomes = await Promise.all(
        Array.from({ length: 12 }, () =>
          rateLimit(bucket, 8, 60_000).then(
            () => 'allowed',
            (error: { kind?: string }) => error.kind,
          ),
        ),
      )
      // One connect timeout (a second) for all of them, not Redis's default ten seconds per call.
      expect(performance.now() - started).toBeLessThan(2500)
      expect(outcomes.filter((o) => o === 'allowed')).toHaveLength(8)
      const later = performance.now()
      await expect(rateLimit(bucket, 8, 60_000)).rejects.toMatchObject({ kind: 'RateLimited' })
      expect(performance.now() - later).toBeLessThan(200)
    } finally {
      process.env.REDIS_URL = previous
      resetRateLimits()
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => silent.close(resolve))
    }
  })
})

describeWithService('TEST_REDIS_URL', 'rate limits when Redis goes away and comes back', () => {
  const target = new URL(process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379')

  it('counts in this process while Redis is gone, never open, and in Redis again once it answers', async () => {
    const relay = await tcpRelay({ host: target.hostname, port: Number(target.port || 6379) })
    const direct = new Redis(target.toString())
    const previous = { url: process.env.REDIS_URL, level: process.env.LOG_LEVEL }
    Object.assign(process.env, { REDIS_URL: relay.url, LOG_LEVEL: 'info' })
    resetRateLimits()
    const bucket = `down:${randomUUID()}`
    const window = Math.floor(Date.now() / 60_000)
    const inRedis = async () => Number((await direct.get(`rl:${bucket}:${window}`)) ?? 0)
    try {
      const { lines } = await logLines(async () => {
        for (let i = 0; i < 5; i++) await rateLimit(bucket, 8, 60_000)
        expect(await inRedis()).toBe(5)

        await relay.cut()
        // Redis gone: each call counted here at once, and past the limit refused.
        const started = performance.now()
        const outcomes = await Promise.all(
          Array.from({ length: 12 }, () =>
            rateLimit(bucket, 8, 60_000).then(
              () => 'allowed',
              (error: { kind?: string }) => error.kind,
            ),
          ),
        )
        expect(performance.now() - started).toBeLessThan(1000)
        expect(outcomes.filter((o) => o === 'allowed')).toHaveLength(8)
        expect(outcomes.filter((o) => o === 'RateLimited')).toHaveLength(4)
        expect(await inRedis()).toBe(5)

        await relay.restore()
        // Back: once the client reconnected, the calls count in Redis again.
        await expect
          .poll(
            async () => {
              await rateLimit(`${bucket}:probe`, 1_000, 60_000)
              return Number((await direct.get(`rl:${bucket}:probe:${window}`)) ?? 0)
            },
            { timeout: 10_000, interval: 200 },
          )
          .toBeGreaterThan(0)
        await expect(rateLimit(bucket, 8, 60_000)).resolves.toBeDefined()
        expect(await inRedis()).toBe(6)
      })
      expect(storeLines(lines)).toEqual([
        ['warn', 'rate-limit store unavailable: counting in this process'],
        ['info', 'rate-limit store back'],
      ])
    } finally {
      Object.assign(process.env, { REDIS_URL: previous.url, LOG_LEVEL: previous.level })
      resetRateLimits()
      direct.disconnect()
      await relay.close()
    }
  })
})
