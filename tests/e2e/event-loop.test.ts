import { loadavg } from 'node:os'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hostileInputs, type HostileInput } from '../support/hostile-inputs'
import { machineQuiet, watchLiveness } from '../support/liveness'
import { serveBuild, type ServedBuild } from './support/server'
import { keyFrom } from '../support/trial-key'

/**
 * Issue 26: one request froze the whole process. Counting the tokens of a long run of characters without
 * spaces took time that grew with the square of its length: `POST /v1/segment` (no key) stalled
 * `/healthz/live` 4.4 s at 96k characters and 22 s at 200k, a 3,000,000-character embeddings input over 15
 * minutes, a 99k deep-search question 10.2 s, a 100k bulk row 4.9 s. Each hostile input
 * (tests/support/hostile-inputs.ts), bodies of 3–4 MB included, is sent to the production build while its
 * liveness probe is watched from a thread of its own: each is answered, and no probe waits on the server's
 * work more than 200 ms.
 *
 * What counts as the server's work: the time its main thread ran on a core while a probe waited (read from
 * /proc, tests/support/liveness.ts) is held to 200 ms always. The probe's wait on the clock is held to it
 * too when the machine was not overloaded (load average at most its cores): on a machine that others load
 * (load 20–30 on 2 cores here), a thread ready to run waits hundreds of ms for a core, which is nobody's
 * stall but the machine's (an idle server's worst wait measured ~290 ms at load 12). LIVENESS_LIMIT_MS
 * changes the bound; where the time on a core cannot be read, the wait on the clock is always held to it.
 */

const LIMIT_MS = Number(process.env.LIVENESS_LIMIT_MS ?? 200)

let server: ServedBuild
let inputs: HostileInput[] = []

beforeAll(async () => {
  server = await serveBuild({ DATABASE_URL: '', CAPTCHA_DIFFICULTY: '20', RATE_LIMIT_KEYS: 'off' })
  inputs = hostileInputs(server.baseUrl, await keyFrom(server.baseUrl))
  // The metering tokenizer's tables load as the server starts; a first call makes sure they are in.
  await fetch(`${server.baseUrl}/v1/segment`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ content: 'warm up' }),
  })
}, 120_000)

afterAll(async () => {
  await server?.stop({ forceAfterMs: 10_000 })
})

describe('hostile input never holds the event loop', () => {
  // The names are known before the server is: the list is built again here only for them.
  for (const [index, { name }] of hostileInputs('', '').entries()) {
    it(`answers ${name} while /healthz/live answers within ${LIMIT_MS} ms`, async () => {
      const input = inputs[index]
      const started = performance.now()
      const { result, worstMs, worstOnCoreMs, probes } = await watchLiveness(server.baseUrl, input.send, {
        pid: server.child.pid,
      })
      const seconds = ((performance.now() - started) / 1000).toFixed(1)
      const quiet = machineQuiet()
      console.log(
        `${name}: ${result.status} in ${seconds} s, worst /healthz/live ${Math.round(worstMs)} ms, ` +
          `server on a core ${worstOnCoreMs === undefined ? 'unknown' : `${Math.round(worstOnCoreMs)} ms`} ` +
          `(${probes} probes, load ${loadavg()[0].toFixed(1)}${quiet ? '' : ': the wait on the clock is not held'})`,
      )
      expect(input.expected, JSON.stringify(result.body).slice(0, 300)).toContain(result.status)
      if (result.status >= 400) expect(result.body.detail).toBeTruthy()
      if (worstOnCoreMs !== undefined) expect(worstOnCoreMs).toBeLessThan(LIMIT_MS)
      if (quiet || worstOnCoreMs === undefined) expect(worstMs).toBeLessThan(LIMIT_MS)
    }, 300_000)
  }
})
