import { describe, expect, it } from 'vitest'
import { crossOrigin } from '~/middleware/cross-origin'
import { runPipeline } from '../../support/request-pipeline'

const ok = () => new Response('handled')

describe('cross-origin', () => {
  it('refuses a cross-site write, as an error for a server function caller', async () => {
    const headers = { origin: 'https://evil.example', 'content-type': 'application/json' }
    const api = await runPipeline(
      [crossOrigin],
      new Request('http://localhost:3000/api/v1/x', { method: 'POST', headers }),
      ok,
    )
    expect(api.response.status).toBe(403)
    expect(await api.response.json()).toEqual({ detail: 'Cross-site request refused' })
    const fn = await runPipeline(
      [crossOrigin],
      new Request('http://localhost:3000/_serverFn/abc', { method: 'POST', headers }),
      ok,
    )
    expect(fn.response.status).toBe(403)
    expect(fn.response.headers.get('x-tss-raw')).toBe('thrown')
  })

  it('answers a search API preflight itself and lets a same-site write through', async () => {
    const preflight = new Request('http://localhost:3000/v1/embeddings', {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    })
    const answered = await runPipeline([crossOrigin], preflight, ok)
    expect(answered.response.status).toBe(204)
    expect(answered.response.headers.get('access-control-allow-origin')).toBe('*')
    const own = new Request('http://localhost:3000/api/v1/x', {
      method: 'POST',
      headers: { origin: 'http://localhost:3000' },
    })
    expect(await (await runPipeline([crossOrigin], own, ok)).response.text()).toBe('handled')
  })
})
