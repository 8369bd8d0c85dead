import { afterEach, describe, expect, it, vi } from 'vitest'
import { requestLine } from '~/middleware/request-line'
import { requestScope } from '~/middleware/request-scope'
import { runPipeline } from '../../support/request-pipeline'

/** The JSON lines the server logged at info while `work` ran. */
async function logged(work: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const previous = process.env.LOG_LEVEL
  process.env.LOG_LEVEL = 'info'
  const spy = vi.spyOn(console, 'log').mockImplementation(() => undefined)
  try {
    await work()
    return spy.mock.calls.map(([line]) => JSON.parse(String(line)) as Record<string, unknown>)
  } finally {
    process.env.LOG_LEVEL = previous
  }
}

afterEach(() => vi.restoreAllMocks())

describe('the request line', () => {
  it('logs one line per request with its status, time, request id and path', async () => {
    const lines = await logged(() =>
      runPipeline([requestScope, requestLine], new Request('http://localhost:3000/v1/models'), () =>
        Response.json({}, { status: 201 }),
      ),
    )
    const requests = lines.filter((line) => line.msg === 'request')
    expect(requests).toHaveLength(1)
    expect(requests[0]).toMatchObject({ status: 201, method: 'GET', path: '/v1/models' })
    expect(requests[0]!.ms).toBeGreaterThanOrEqual(0)
    expect(requests[0]!.request_id).toMatch(/^[\w-]{36}$/)
  })

  it('logs a refusal a later middleware throws', async () => {
    const lines = await logged(() =>
      runPipeline([requestScope, requestLine], new Request('http://localhost:3000/v1/models'), () => {
        throw new Response('', { status: 413 })
      }),
    )
    expect(lines.filter((line) => line.msg === 'request').map((line) => line.status)).toEqual([413])
  })
})
